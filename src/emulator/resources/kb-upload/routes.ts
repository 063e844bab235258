// Knowledge-base uploads: initiate makes the records and answers a presigned URL for each, on the
// emulator's own origin (the bytes go there: put.ts); delete removes one and detaches it from every
// agent. An upload is `indexing` from initiate on; indexing runs once its bytes have arrived. There is
// no list or get of uploads in the reference: they show in the general list (resources/website/sources.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import type { KbUploadDeleteResponse, KbUploadInitiateResponse } from '../../../core/agent-builder-wire.js';
import { ERROR_CODES } from '../../error-codes.js';
import { notFound } from '../../errors.js';
import type { ApiRequest, ApiResponse, Route } from '../../router.js';
import type { StoredUpload } from '../../store.js';
import { requireObjectBody } from '../../validate.js';
import type { ResourceContext } from '../context.js';
import { parseInitiateBody } from './files.js';
import { presignedUrl, URL_LIFETIME_MS } from './put.js';

const UPLOADS_PATH = '/ai-agents/agent-builder/knowledge-base/uploads';

export function kbUploadRoutes(context: ResourceContext): Route[] {
  return [
    { pattern: `${UPLOADS_PATH}/initiate`, methods: { POST: (request) => initiate(context, request) } },
    { pattern: `${UPLOADS_PATH}/:uniqueId`, methods: { DELETE: (request) => deleteUpload(context, request) } },
  ];
}

function initiate(context: ResourceContext, request: ApiRequest): ApiResponse {
  const { store, mode, kb } = context;
  const files = parseInitiateBody(requireObjectBody(request.body));
  const origin = context.originFor(request.headers.host);
  const now = kb.clock.now();
  const uploads = files.map((file) => {
    const uploadId = randomUUID();
    const upload: StoredUpload = {
      uploadId,
      ...file,
      s3Key: `${store.appId}/uploads/${uploadId.slice(0, 8)}/${file.fileName}`,
      signature: randomBytes(32).toString('hex'),
      expiresAt: now + URL_LIFETIME_MS,
      createdAt: now,
      updatedAt: now,
      seq: store.takeSourceSeq(),
    };
    store.putKbUpload(upload);
    return { uploadId, fileName: file.fileName, mimeType: file.mimeType, fileSize: file.fileSize, s3Key: upload.s3Key, presignedUrl: presignedUrl(origin, upload) };
  });
  store.changed();
  const answer: KbUploadInitiateResponse = { uploads };
  return { status: mode.createStatus, body: answer };
}

function deleteUpload(context: ResourceContext, request: ApiRequest): ApiResponse {
  const { store, kb } = context;
  const id = request.params.uniqueId ?? '';
  const upload = store.kbUploads.get(id);
  if (!upload) throw notFound(ERROR_CODES.kbNotFound, `Uploaded file '${id}' does not exist in this app's knowledge base.`);
  store.deleteKbFile(id);
  store.detachEverywhere(new Set([id]), kb.clock.now());
  store.changed();
  const answer: KbUploadDeleteResponse = {
    success: true,
    message: 'File and all associated data deleted successfully',
    data: { uploadId: id, fileName: upload.fileName, deletedFromAgents: true, vectorsDeleted: true },
  };
  return { status: 200, body: answer };
}
