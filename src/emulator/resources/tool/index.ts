// Tools (`/ai-agents/tools`): the routes (routes.ts), the parameter rules of a body (parameters.ts),
// what a record stores (storage.ts) and how an answer carries it (present.ts).
import type { EmulatorResource } from '../context.js';
import { toolRoutes } from './routes.js';

export const toolResource: EmulatorResource = {
  routes: ({ store, mode }) => toolRoutes(store, mode),
};
