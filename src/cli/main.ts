#!/usr/bin/env node
// The `agentsync` bin. All it does is load the bundled CLI (dist/cli/agentsync.cjs, built from
// cli/entry.ts by scripts/bundle.mjs) with V8's code cache, which takes most of the compiling out of
// start-up; see io/runtime/code-cache.ts and BENCHMARKS.md (P3).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { enableCodeCache } from '../io/runtime/code-cache.js';
import { COMMAND_WORDS } from './command-words.js';

enableCodeCache(fileURLToPath(new URL('.', import.meta.url)), COMMAND_WORDS);
createRequire(import.meta.url)('./agentsync.cjs');
