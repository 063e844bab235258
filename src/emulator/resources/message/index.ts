// Messages (`POST /messages`): the route (routes.ts) and the body's rules (body.ts).
import type { EmulatorResource } from '../context.js';
import { messageRoutes } from './routes.js';

export const messageResource: EmulatorResource = {
  routes: ({ store }) => messageRoutes(store),
};
