// Knowledge-base files (docs/spec/knowledge-base.md#files): uploaded in two steps, the initiate
// (`POST …/uploads/initiate`, which makes the record and answers a presigned URL) and a PUT of the
// bytes to that URL (./upload.ts). There is no update route: a change of content or name is a
// replacement, the new file uploaded first and the old one deleted then. Read back from the general
// knowledge-base list (its `uploads` entries); identity for conflicts and imports is the file name.
//
// The initiate is not repeatable (it makes a record before any byte arrives): the executor marks the
// create pending before it leaves (identityOf), and a record a lost answer left is adopted by the
// next plan and replaced, so the server ends with one entry.
import type { JsonValue } from '../../api-types.js';
import type { FieldTable, ShownChange } from '../fields.js';
import { isObject, PartlyDone, sendDelete, recordOf, stringField, type CallContext, type CallOutcome, type Kind, type RemoteRecord } from '../kind.js';
import { KNOWLEDGE_BASE_PATH } from '../website/lookup.js';
import { fileManifest, type FileSpec } from './manifest.js';
import { INITIATE_PATH, initiateAndUpload, NOT_UPLOADED, uploadPath } from './upload.js';

/** The general list, whole: `start` and `end` are required by the reference, with no meaning given (website/lookup.ts). */
export const FILE_LIST_PATH = `${KNOWLEDGE_BASE_PATH}?start=0&end=253402300799999&limit=100`;

/** The list entry type of an uploaded file. */
const UPLOADS_TYPE = 'uploads';

/** A content digest as a plan shows it: its first 12 hex digits are enough to tell two files apart. */
function showDigest(before: JsonValue | undefined, after: JsonValue | undefined): ShownChange {
  const short = (value: JsonValue | undefined): JsonValue | undefined => (typeof value === 'string' && /^[0-9a-f]{64}$/.test(value) ? `sha256:${value.slice(0, 12)}…` : value);
  const shown: ShownChange = { path: 'content' };
  const [was, is] = [short(before), short(after)];
  if (was !== undefined) shown.before = was;
  if (is !== undefined) shown.after = is;
  return shown;
}

/** The list carries only the name (`sourceName`); the rest is what the state recorded at upload. */
const FILE_FIELDS: FieldTable<FileSpec> = {
  fileName: {},
  mimeType: {},
  bytes: {},
  digest: { shownAs: showDigest },
};

export const fileKind: Kind<FileSpec> = {
  type: 'file',
  remoteIdLabel: 'uploadId',
  keyPattern: fileManifest.keyPattern,
  section: fileManifest.section,
  createIsRepeatable: false,
  dependsOn: [],
  fields: FILE_FIELDS,
  // No update route: any change is a new upload.
  replacedBy: ['fileName', 'mimeType', 'bytes', 'digest'],
  refresh: { listPath: FILE_LIST_PATH, matchBy: 'remoteId', read: readUpload, onlyWhenUsed: true },
  identityOf: (spec) => spec.fileName,
  // The list shows only the name; what was uploaded under it cannot be read back.
  declaredOnImport: ['mimeType', 'bytes', 'digest'],
  // An uploaded file cannot be downloaded: the entry names where the user puts it (export warns),
  // so that an agent attached to it can still name it, and the export imports and plans No changes.
  export: {
    keyOf: (record) => keyOfFileName(record.identity ?? ''),
    renameable: true,
    keyOrder: { '': ['file'] },
    suppliedFile: 'file',
    entry: (record) => ({ file: `${EXPORTED_FILES_FOLDER}/${safeFileName(record.identity ?? '')}` }),
  },
  create: async (ctx, spec, key) => ({ remoteId: await initiateAndUpload(ctx, spec, key) }),
  update: (ctx, spec, key, remoteId) => replaceUpload(ctx, spec, key, remoteId),
  remove: {
    describe: (remoteId) => `DELETE ${uploadPath(remoteId)}`,
    send: (ctx, remoteId) => sendDelete(ctx, uploadPath(remoteId)),
  },
  describe: () => `POST ${INITIATE_PATH}`,
};

/**
 * The new file uploaded, then the old one deleted (a 404 is fine). The new id, and the old one's
 * pending delete, are recorded as soon as the initiate answers, so neither a failed PUT nor a failed
 * DELETE loses an upload. Also what an adopted create does (a record a lost initiate answer left,
 * which holds no bytes of ours): the server ends with the new file only.
 */
async function replaceUpload(ctx: CallContext, spec: FileSpec, key: string, oldId: string): Promise<CallOutcome> {
  const newId = await initiateAndUpload(ctx, spec, key, (id) => ctx.replacement?.replace(id, { digest: NOT_UPLOADED }, oldId) ?? Promise.resolve());
  try {
    await sendDelete(ctx, uploadPath(oldId));
  } catch (err) {
    throw new PartlyDone(newId, {}, err);
  }
  await ctx.replacement?.superseded(oldId);
  return { remoteId: newId, steps: ['uploaded', 'old deleted'] };
}

/** One entry of the general list: an upload (other types are other kinds' records). */
function readUpload(entry: unknown): RemoteRecord | undefined {
  if (!isObject(entry) || entry.type !== UPLOADS_TYPE) return undefined;
  const name = stringField(entry, 'sourceName') ?? stringField(entry, 'fileName');
  return recordOf(name === undefined ? {} : { fileName: name }, stringField(entry, 'uniqueId') ?? stringField(entry, 'uploadId'), name, entry.createdAt);
}

/** Where an exported manifest says an uploaded file goes, relative to the file naming it. */
const EXPORTED_FILES_FOLDER = 'files';

/** The key an exported file gets: its name without the extension, as a manifest key. */
function keyOfFileName(fileName: string): string {
  const slug = fileName
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return slug === '' ? 'file' : slug;
}

/**
 * The server's name as one plain file name: a name with folders in it (`../../.ssh/id.pdf`) must not
 * make the exported manifest point at, and a later apply upload, a file outside the export's folder.
 */
function safeFileName(fileName: string): string {
  const flat = [...fileName]
    .map((char) => (char < ' ' || char === '/' || char === '\\' ? '_' : char))
    .join('')
    .replace(/^\.+/, (dots) => '_'.repeat(dots.length));
  return flat === '' ? 'file' : flat;
}
