// One file's upload: the initiate (one file; it makes the record and answers where the bytes go),
// then the bytes PUT to the presigned URL the answer holds, streamed by the wire (Wire.upload).
import { isObject, PartlyDone, seg, stringField, UnexpectedAnswer, type CallContext } from '../kind.js';
import { KNOWLEDGE_BASE_PATH } from '../website/lookup.js';
import type { FileSpec } from './manifest.js';

export const INITIATE_PATH = `${KNOWLEDGE_BASE_PATH}/uploads/initiate`;

export function uploadPath(uploadId: string): string {
  return `${KNOWLEDGE_BASE_PATH}/uploads/${seg(uploadId)}`;
}

/**
 * Recorded in place of the digest of an upload whose bytes did not arrive: the next plan sees a
 * different content and replaces it (a new upload, this record deleted).
 */
export const NOT_UPLOADED = 'not uploaded';

/**
 * Initiates the upload and PUTs the bytes; returns the new upload id. `initiated` runs (and is
 * awaited) as soon as the id is known, before any byte leaves. A PUT that fails leaves a record
 * without content: it is reported as PartlyDone, so the id is kept with the NOT_UPLOADED marker.
 */
export async function initiateAndUpload(ctx: CallContext, spec: FileSpec, key: string, initiated?: (uploadId: string) => Promise<void>): Promise<string> {
  const upload = ctx.wire.upload;
  // Checked before the initiate: a record that could never get its bytes is not made.
  if (upload === undefined || ctx.localFile === undefined) throw new CannotUpload(key, upload === undefined ? 'this API client cannot send files' : 'the local file is not known');
  const answer = await ctx.wire.send({ method: 'POST', path: INITIATE_PATH, body: { files: [{ fileName: spec.fileName, mimeType: spec.mimeType, fileSize: spec.bytes }] } });
  const { uploadId, presignedUrl } = initiatedUpload(answer);
  try {
    await initiated?.(uploadId);
    await upload.call(ctx.wire, { url: presignedUrl, path: ctx.localFile, contentType: spec.mimeType, bytes: spec.bytes, digest: spec.digest });
  } catch (err) {
    throw new PartlyDone(uploadId, { digest: NOT_UPLOADED }, err);
  }
  return uploadId;
}

/** `uploads[0]` of the initiate's answer: its id and where its bytes go. */
function initiatedUpload(answer: unknown): { uploadId: string; presignedUrl: string } {
  const first = isObject(answer) && Array.isArray(answer.uploads) ? (answer.uploads[0] as unknown) : undefined;
  const uploadId = isObject(first) ? (stringField(first, 'uploadId') ?? stringField(first, 'uniqueId')) : undefined;
  if (uploadId === undefined) throw new UnexpectedAnswer('the answer has no "uploads[0].uploadId" for the new file');
  const presignedUrl = isObject(first) ? stringField(first, 'presignedUrl') : undefined;
  // The record exists: its id is kept even though its bytes cannot be sent.
  if (presignedUrl === undefined) throw new PartlyDone(uploadId, { digest: NOT_UPLOADED }, new UnexpectedAnswer('the answer has no "uploads[0].presignedUrl" to send the file to'));
  return { uploadId, presignedUrl };
}

/** Nothing was sent: the transport or the plan lacks what an upload needs. */
export class CannotUpload extends Error {
  readonly status = 0;
  readonly code = 'CANNOT_UPLOAD';
  constructor(key: string, why: string) {
    super(`file.${key}: cannot upload: ${why}`);
  }
}
