#!/usr/bin/env node
// The `agentsync` bin. All it does is load the bundled CLI (dist/cli/agentsync.cjs, built from
// cli/entry.ts by scripts/bundle.mjs) through V8's code cache, so that a later start reuses what
// V8 compiled; see io/runtime/code-cache.ts and BENCHMARKS.md (P3).
import { fileURLToPath } from 'node:url';
import { loadBundle } from '../io/runtime/code-cache.js';

loadBundle(fileURLToPath(new URL('./agentsync.cjs', import.meta.url)));
