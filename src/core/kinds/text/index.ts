// Knowledge-base text entries (docs/spec/knowledge-base.md#text-entries):
// `POST …/knowledge-base/text` creates (not repeatable: a lost answer may leave an entry whose id
// we never learned, so it is journaled pending and, on the rerun, the entry of the same title and
// text made since the mark is adopted), `PATCH …/text/{uniqueId}` sends only the changed fields (editing the
// file is one PATCH, never a re-create), `DELETE` removes it (and the server detaches it from every
// agent). The text list (`GET …/knowledge-base/text`, one request whatever the number of entries)
// is the refresh; entries are matched by their id, and by their title for import and conflicts.
import type { JsonObject } from '../../api-types.js';
import { bodyOf, factsOf, patchBodyOf, readFieldsOf } from '../fields.js';
import { isObject, seg, sendDelete, recordOf, stringField, UnexpectedAnswer, type Kind, type RemoteRecord } from '../kind.js';
import { TEXT_FIELDS } from './fields.js';
import { textManifest, type TextSpec } from './manifest.js';

export const TEXT_PATH = '/ai-agents/agent-builder/knowledge-base/text';

/** What an update of an entry whose server record is unknown (an adopted create) sends. */
const ALL_FIELDS: ReadonlySet<string> = new Set(factsOf(TEXT_FIELDS).map(([field]) => field));

export const textPath = (uniqueId: string): string => `${TEXT_PATH}/${seg(uniqueId)}`;

export const textKind: Kind<TextSpec> = {
  type: 'text',
  remoteIdLabel: 'uniqueId',
  keyPattern: textManifest.keyPattern,
  section: textManifest.section,
  createIsRepeatable: false,
  dependsOn: [],
  fields: TEXT_FIELDS,
  normalizeMore: normalizeLineEnds,
  refresh: { listPath: TEXT_PATH, matchBy: 'remoteId', read: readText, onlyWhenUsed: true },
  // Titles need not be unique on the server; a second entry of the same title is a conflict to
  // resolve by id (`agentsync import text.<key> <uniqueId>`), as agents' names are.
  identityOf: (spec) => spec.title,
  // The entry a lost create made holds the text it sent (line ends aside); one of the same title
  // with another text is somebody else's, never adopted and overwritten.
  madeBy: (spec, record) => typeof record.spec.text === 'string' && sameText(record.spec.text, spec.text),
  async create(ctx, spec) {
    const answer = await ctx.wire.send({ method: 'POST', path: TEXT_PATH, body: bodyOf(TEXT_FIELDS, spec as unknown as JsonObject) });
    const data = isObject(answer) && isObject(answer.data) ? answer.data : undefined;
    const uniqueId = data === undefined ? undefined : stringField(data, 'uniqueId');
    if (uniqueId === undefined) throw new UnexpectedAnswer('the answer has no "data.uniqueId" for the new text entry');
    return { remoteId: uniqueId };
  },
  async update(ctx, spec, _key, remoteId, changed = ALL_FIELDS) {
    const answer = await ctx.wire.send({ method: 'PATCH', path: textPath(remoteId), body: patchBodyOf(TEXT_FIELDS, spec as unknown as JsonObject, changed) });
    if (isObject(answer) && answer.success === false) throw new UnexpectedAnswer('the answer says "success": false');
    return { remoteId };
  },
  remove: {
    describe: (remoteId) => `DELETE ${textPath(remoteId)}`,
    send: (ctx, remoteId) => sendDelete(ctx, textPath(remoteId)),
  },
  describe: (action, _spec, _key, remoteId) => (action === 'create' ? `POST ${TEXT_PATH}` : `PATCH ${textPath(remoteId ?? '')}`),
  export: {
    keyOf: (record) => keyOfTitle(record.identity ?? ''),
    renameable: true,
    // CreateTextDetailDto's order; `file` is where export --split writes the text instead.
    keyOrder: { '': ['title', 'text', 'file'] },
    entry: (record) => ({ title: record.spec.title ?? '', text: record.spec.text ?? '' }),
  },
};

/**
 * CRLF and lone CR compare as LF: a server that writes the text as a markdown file may store it so
 * (the emulator's default storage does), and a Windows checkout of kb/refunds.md must plan no
 * change. The text sent is the one written; only the comparison is normalised.
 */
function normalizeLineEnds(spec: JsonObject): JsonObject {
  const text = spec.text;
  if (typeof text !== 'string' || !text.includes('\r')) return spec;
  return { ...spec, text: text.replace(/\r\n?/g, '\n') };
}

function sameText(a: string, b: string): boolean {
  return a === b || a.replace(/\r\n?/g, '\n') === b.replace(/\r\n?/g, '\n');
}

/** One entry of `GET …/knowledge-base/text` (`{data: [...]}`): its id, title and text. */
function readText(entry: unknown): RemoteRecord | undefined {
  if (!isObject(entry)) return undefined;
  return recordOf(readFieldsOf(TEXT_FIELDS, entry), stringField(entry, 'uniqueId'), stringField(entry, 'title'), entry.createdAt);
}

/** `Refund policy (EU)` → `refund_policy_eu`: an export's key; a title with no ASCII letter or digit becomes `text`. */
export function keyOfTitle(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return slug === '' ? 'text' : slug;
}
