// Agents (`/ai-agents/agents`): the routes (routes.ts), the field rules of a body (fields.ts), what
// a record stores (storage.ts) and how an answer or a list entry carries it (present.ts).
import type { EmulatorResource } from '../context.js';
import { agentRoutes } from './routes.js';

export const agentResource: EmulatorResource = {
  routes: ({ store, mode }) => agentRoutes(store, mode),
};
