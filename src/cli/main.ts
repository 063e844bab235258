#!/usr/bin/env node
import { buildProgram } from './program.js';
import { runMain } from './run.js';

await runMain(buildProgram(), process.argv);
