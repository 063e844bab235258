// The state store's public surface.
export type {
  CopyOptions,
  LockOptions,
  OpenOptions,
  StateBackend,
  StateSession,
  StateStore,
  StateStoreOptions,
  StateTarget,
  StateWarning,
} from './store.js';
export { createFileStateStore } from './file-store.js';
export { chooseStateLocation, createStateStore, type CreateStateStoreOptions, type StateLocation } from './factory.js';
export { defaultStatePath, stateFiles, STATE_DIR } from './paths.js';
export { assertTargetMatches, checkStateText } from './validate.js';
export { serializeState } from './serialize.js';
export { createDigester, newLineage, newSalt, type Digester } from './digest.js';
