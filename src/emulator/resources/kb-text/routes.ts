// Knowledge-base text entries (`/ai-agents/agent-builder/knowledge-base/text`): create, list (no
// paging, newest first: the reference shows neither paging nor an order), get, update (the file
// name follows a new title; indexing starts again) and delete (which detaches the entry from every
// agent). Status moves `indexing → indexed` on the emulator's clock over `kbProcessingMs`.
import { randomUUID } from 'node:crypto';
import type { TextEntryDeleteResponse, TextEntryGetResponse, TextEntryListResponse, TextEntryRecord, TextEntrySummary, TextEntryWriteResponse } from '../../../core/agent-builder-wire.js';
import { ERROR_CODES } from '../../error-codes.js';
import { notFound } from '../../errors.js';
import { fileSourceStatus, startFileIndexing } from '../../kb/progress.js';
import type { ApiRequest, ApiResponse, Route } from '../../router.js';
import type { StoredTextEntry } from '../../store.js';
import { requireObjectBody } from '../../validate.js';
import type { ResourceContext } from '../context.js';
import { normaliseLineEnds, parseTextBody, textFileName, textS3Key } from './entry.js';

const TEXT_PATH = '/ai-agents/agent-builder/knowledge-base/text';

export function kbTextRoutes(context: ResourceContext): Route[] {
  return [
    {
      pattern: TEXT_PATH,
      methods: {
        POST: (request) => createText(context, request),
        GET: () => {
          const now = context.kb.clock.now();
          const answer: TextEntryListResponse = { data: newestFirst(context).map((entry) => presentText(entry, now)) };
          return { status: 200, body: answer };
        },
      },
    },
    {
      pattern: `${TEXT_PATH}/:uniqueId`,
      methods: {
        GET: (request) => {
          const answer: TextEntryGetResponse = { data: presentTextWhole(findText(context, request), context.kb.clock.now()) };
          return { status: 200, body: answer };
        },
        PATCH: (request) => updateText(context, request),
        DELETE: (request) => deleteText(context, request),
      },
    },
  ];
}

function newestFirst({ store }: ResourceContext): StoredTextEntry[] {
  return [...store.kbTexts.values()].sort((a, b) => b.createdAt - a.createdAt || b.seq - a.seq);
}

function findText({ store }: ResourceContext, request: ApiRequest): StoredTextEntry {
  const id = request.params.uniqueId ?? '';
  const entry = store.kbTexts.get(id);
  if (!entry) throw notFound(ERROR_CODES.kbNotFound, `Text entry '${id}' does not exist in this app's knowledge base.`);
  return entry;
}

/** Stored like a server writing a markdown file (CRLF → LF), or exactly as sent under `storeAsSent`. */
function storedText(context: ResourceContext, text: string): string {
  return context.mode.storeAsSent ? text : normaliseLineEnds(text);
}

function createText(context: ResourceContext, request: ApiRequest): ApiResponse {
  const { store, mode, kb } = context;
  const { title = '', text = '' } = parseTextBody(requireObjectBody(request.body), true);
  const uniqueId = randomUUID();
  const fileName = textFileName(title);
  const now = kb.clock.now();
  const entry: StoredTextEntry = {
    uniqueId,
    title,
    text: storedText(context, text),
    fileName,
    s3Key: textS3Key(store.appId, uniqueId, fileName),
    createdAt: now,
    updatedAt: now,
    seq: store.takeSourceSeq(),
  };
  startFileIndexing(entry, now, kb.config);
  store.putKbText(entry);
  store.changed();
  const answer: TextEntryWriteResponse = { success: true, message: 'Text detail created and uploaded successfully', data: summary(entry, now) };
  return { status: mode.createStatus, body: answer };
}

function updateText(context: ResourceContext, request: ApiRequest): ApiResponse {
  const { store, kb } = context;
  const entry = findText(context, request);
  const changes = parseTextBody(requireObjectBody(request.body), false);
  const now = kb.clock.now();
  if (changes.title !== undefined) {
    entry.title = changes.title;
    entry.fileName = textFileName(changes.title);
    entry.s3Key = textS3Key(store.appId, entry.uniqueId, entry.fileName);
  }
  if (changes.text !== undefined) entry.text = storedText(context, changes.text);
  entry.updatedAt = Math.max(now, entry.updatedAt + 1);
  startFileIndexing(entry, now, kb.config);
  store.changed();
  const answer: TextEntryWriteResponse = { success: true, message: 'Text detail updated successfully', data: { ...summary(entry, now), vectorizationStatus: vectorization(entry, now) } };
  return { status: 200, body: answer };
}

function deleteText(context: ResourceContext, request: ApiRequest): ApiResponse {
  const { store, kb } = context;
  const entry = findText(context, request);
  store.deleteKbFile(entry.uniqueId);
  store.detachEverywhere(new Set([entry.uniqueId]), kb.clock.now());
  store.changed();
  // The reference's example says true; whether it means "some agent held it" is not shown, so it is always true here.
  const answer: TextEntryDeleteResponse = {
    success: true,
    message: 'Text detail and all associated data deleted successfully',
    data: { uniqueId: entry.uniqueId, fileName: entry.fileName, deletedFromAgents: true, vectorsDeleted: true },
  };
  return { status: 200, body: answer };
}

function summary(entry: StoredTextEntry, now: number): TextEntrySummary {
  return { uniqueId: entry.uniqueId, title: entry.title, fileName: entry.fileName, s3Key: entry.s3Key, status: fileSourceStatus(entry, now) };
}

function vectorization(entry: StoredTextEntry, now: number): string {
  return fileSourceStatus(entry, now) === 'indexed' ? 'completed' : 'processing';
}

/** A list entry. */
function presentText(entry: StoredTextEntry, now: number): TextEntryRecord {
  const { uniqueId, title, text, fileName, s3Key, createdAt, updatedAt } = entry;
  return { uniqueId, title, text, fileName, s3Key, status: fileSourceStatus(entry, now), createdAt, updatedAt };
}

/** The get answer's record: the list entry plus `vectorizationStatus` and `isActive`. */
function presentTextWhole(entry: StoredTextEntry, now: number): TextEntryRecord {
  return { ...presentText(entry, now), vectorizationStatus: vectorization(entry, now), isActive: true };
}
