#!/usr/bin/env node
// The `agentsync` bin. All it does is turn on Node's compile cache where Node has one (22.1+) and
// load the bundled CLI (dist/cli/agentsync.cjs, built from cli/entry.ts by scripts/bundle.mjs), so
// that a later start reuses what V8 compiled; see io/runtime/code-cache.ts and BENCHMARKS.md (P3).
import { createRequire } from 'node:module';
import { enableCodeCache } from '../io/runtime/code-cache.js';

enableCodeCache();
createRequire(import.meta.url)('./agentsync.cjs');
