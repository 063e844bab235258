// Types for bench/generate-app.mjs, so the TypeScript tests can start an emulator on the same app.
import type { EmulatorData } from '../src/emulator/store.js';
export function headerSecret(agentIndex: number): string;
export function generateAppData(options: { count: number; seed?: number; appId?: string }): EmulatorData;
