// Knowledge-base websites (`/ai-agents/agent-builder/knowledge-base/…`): scrape, delete and the
// source list (sources.ts), one website's discovered URLs (discovered-urls.ts). The crawler, the
// paging and the indexing progress they share live in ../../kb/.
import type { EmulatorResource } from '../context.js';
import { knowledgeBaseRoutes } from './discovered-urls.js';
import { knowledgeBaseSourceRoutes } from './sources.js';

export const websiteResource: EmulatorResource = {
  routes: ({ kb }) => [...knowledgeBaseRoutes(kb), ...knowledgeBaseSourceRoutes(kb)],
};
