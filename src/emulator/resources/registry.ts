// The emulator's kinds, listed once. A kind is a folder here (its routes, records and storage
// rules, written from the public reference, not from the client's core/kinds/) plus one line below.
// The table is a mapped type over EmulatorKind, so a name without its line, or a line without its
// name, does not compile; a folder that no line names is an unused file to `npm run lint` (knip).
import type { Route } from '../router.js';
import { agentResource } from './agent/index.js';
import { builderAgentResource } from './builder-agent/index.js';
import type { EmulatorResource, ResourceContext } from './context.js';
import { kbTextResource } from './kb-text/index.js';
import { kbUploadResource } from './kb-upload/index.js';
import { messageResource } from './message/index.js';
import { toolResource } from './tool/index.js';
import { websiteResource } from './website/index.js';

/** The emulator's own names for its kinds: the names of the folders beside this file. */
export type EmulatorKind = 'tool' | 'agent' | 'message' | 'website' | 'builder-agent' | 'kb-text' | 'kb-upload';

/** In the order the router tries them (their paths do not overlap, so the order is only stable). */
const RESOURCES: { readonly [K in EmulatorKind]: EmulatorResource } = {
  tool: toolResource,
  agent: agentResource,
  message: messageResource,
  website: websiteResource,
  'builder-agent': builderAgentResource,
  'kb-text': kbTextResource,
  'kb-upload': kbUploadResource,
};

/** The kinds' names, in the router's order. */
export const EMULATOR_KINDS = Object.keys(RESOURCES) as readonly EmulatorKind[];

/** Every kind's routes, for the API router. */
export function apiRoutes(context: ResourceContext): Route[] {
  return Object.values(RESOURCES).flatMap((resource) => resource.routes(context));
}
