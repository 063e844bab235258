// Agent Builder agents (`/ai-agents/agent-builder/agents`): the routes (routes.ts), the body and
// what a record stores (fields.ts), the paged list (list.ts) and attaching knowledge (knowledge.ts).
import type { EmulatorResource } from '../context.js';
import { builderAgentRoutes } from './routes.js';

export const builderAgentResource: EmulatorResource = {
  routes: (context) => builderAgentRoutes(context),
};
