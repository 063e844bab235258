// Knowledge-base text entries (`/ai-agents/agent-builder/knowledge-base/text`): the routes
// (routes.ts) and the body rules and derived names (entry.ts).
import type { EmulatorResource } from '../context.js';
import { kbTextRoutes } from './routes.js';

export const kbTextResource: EmulatorResource = {
  routes: (context) => kbTextRoutes(context),
};
