// The state store's public surface.
export type { StateBackend, StateSession, StateStore, StateStoreOptions, StateTarget, StateWarning } from './store.js';
export { createFileStateStore } from './file-store.js';
export { chooseStateLocation, createStateStore } from './factory.js';
export { defaultStatePath, stateFiles } from './paths.js';
export { assertTargetMatches, checkStateText } from './validate.js';
export { createDigester } from './digest.js';
