// `PATCH /ai-agents/agent-builder/agents/{uid}/knowledge-base/{sourceType}/add|remove` with
// `{uniqueIds}` (../shared/reference/cometchat-kb-text-files.md §4.4–4.5). What the reference leaves
// open, chosen cautiously: an add of an id that is unknown, or of another source type, is a 400
// naming it; an id already attached is a no-op, and so is removing one not attached. Which of the
// agent's arrays an id goes into is the `kbAttachArrays` mode (mode.ts). Answers `{success: true}` only.
import type { BuilderAgentRecord, KbSourceType, SuccessOnlyResponse } from '../../../core/agent-builder-wire.js';
import { apiNotFound, badRequest } from '../../errors.js';
import type { KbAttachArrays } from '../../mode.js';
import type { ApiRequest, ApiResponse, Route } from '../../router.js';
import { detachIds, type EmulatorStore } from '../../store.js';
import { quoteList, rejectUnknownKeys, requireObjectBody, requireStringArray } from '../../validate.js';
import type { ResourceContext } from '../context.js';
import { AGENTS_PATH, findBuilderAgent } from './lookup.js';

const SOURCE_TYPES: readonly KbSourceType[] = ['uploads', 'text', 'website'];
const BODY_KEYS = new Set(['uniqueIds']);
const NOUN: Readonly<Record<KbSourceType, string>> = { uploads: 'an upload', text: 'a text entry', website: 'a website' };

export function attachRoute(context: ResourceContext): Route {
  return { pattern: `${AGENTS_PATH}/:uid/knowledge-base/:sourceType/:action`, methods: { PATCH: (request) => changeKnowledge(context, request) } };
}

function changeKnowledge({ store, mode, kb }: ResourceContext, request: ApiRequest): ApiResponse {
  const action = request.params.action ?? '';
  if (action !== 'add' && action !== 'remove') throw apiNotFound(`/v3${AGENTS_PATH}/${request.params.uid ?? ''}/knowledge-base/${request.params.sourceType ?? ''}/${action}`);
  const agent = findBuilderAgent(store, request);
  const sourceType = readSourceType(request.params.sourceType ?? '');
  const ids = readIds(request.body);
  const changed = action === 'add' ? attach(store, agent, sourceType, ids, mode.kbAttachArrays) : detachIds(agent, new Set(ids));
  if (changed) {
    agent.updatedAt = Math.max(kb.clock.now(), agent.updatedAt + 1);
    store.changed();
  }
  const answer: SuccessOnlyResponse = { success: true };
  return { status: 200, body: answer };
}

function readSourceType(value: string): KbSourceType {
  if (!SOURCE_TYPES.includes(value as KbSourceType)) throw badRequest(`'sourceType' must be "uploads", "text" or "website"; got "${value}".`);
  return value as KbSourceType;
}

function readIds(body: unknown): string[] {
  const object = requireObjectBody(body);
  rejectUnknownKeys(object, BODY_KEYS, '');
  if (object.uniqueIds === undefined || object.uniqueIds === null) throw badRequest("'uniqueIds' is required: an array of knowledge-base source ids.");
  const ids = requireStringArray(object.uniqueIds, 'uniqueIds');
  if (ids.length === 0) throw badRequest("'uniqueIds' must name at least one source.");
  return [...new Set(ids)];
}

function exists(store: EmulatorStore, sourceType: KbSourceType, id: string): boolean {
  if (sourceType === 'uploads') return store.kbUploads.has(id);
  if (sourceType === 'text') return store.kbTexts.has(id);
  return store.websites.has(id);
}

function attach(store: EmulatorStore, agent: BuilderAgentRecord, sourceType: KbSourceType, ids: readonly string[], arrays: KbAttachArrays): boolean {
  const unknown = ids.filter((id) => !exists(store, sourceType, id));
  if (unknown.length > 0) {
    throw badRequest(`'uniqueIds' names ${quoteList(unknown)}, not ${NOUN[sourceType]} of this app's knowledge base (sourceType "${sourceType}").`);
  }
  const field = arrays === 'split' && sourceType === 'website' ? 'websites' : 'files';
  const held = new Set([...agent.files, ...agent.websites]);
  const fresh = ids.filter((id) => !held.has(id));
  if (fresh.length === 0) return false;
  agent[field] = [...agent[field], ...fresh];
  return true;
}
