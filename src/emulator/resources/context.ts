// What a kind's routes are built from: the one store, the mode switches that /__emulator/config
// changes at runtime, and the knowledge base's context (its clock, knobs and crawls).
import type { KbContext } from '../kb/context.js';
import type { ServerMode } from '../mode.js';
import type { Route } from '../router.js';
import type { EmulatorStore } from '../store.js';

export interface ResourceContext {
  store: EmulatorStore;
  mode: ServerMode;
  kb: KbContext;
  /** The emulator's origin as a request's Host header names it (an address it listens on), for URLs it hands out. */
  originFor: (host: string | undefined) => string;
}

/** One kind of the emulator, as its folder's index.ts exports it and registry.ts lists it. */
export interface EmulatorResource {
  /** The kind's routes below `/v3`, read on every request through the context's live objects. */
  routes(context: ResourceContext): Route[];
}
