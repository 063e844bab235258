// The presigned upload URL, `/__uploads/<uploadId>?X-Amz-Expires=900&X-Amz-Signature=<hex>` on the
// emulator's own origin, outside `/v3`: it stands for S3, so it needs no apikey (the signature
// authorises), answers S3-like XML errors, and is not rate limited or fault-injected. The reference
// shows none of this (cometchat-kb-text-files.md §3.2); it is the S3 presigned PUT its example host
// suggests. The body is streamed through a digest and never kept: a body longer than the declared
// size is refused as soon as it is, without holding any of it.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KbContext } from '../../kb/context.js';
import { startFileIndexing } from '../../kb/progress.js';
import type { StoredUpload } from '../../store.js';

export const UPLOAD_PATH_PREFIX = '/__uploads/';
/** How long a presigned URL works (on the emulator's clock): the `X-Amz-Expires` it carries. */
export const URL_LIFETIME_MS = 900_000;
/** After a refusal, how much more of a body is read and thrown away (so the client reads its answer) before hanging up. */
const MAX_DRAIN_BYTES = 8 * 1024 * 1024;

export function presignedUrl(origin: string, upload: StoredUpload): string {
  return `${origin}${UPLOAD_PATH_PREFIX}${encodeURIComponent(upload.uploadId)}?X-Amz-Expires=${URL_LIFETIME_MS / 1000}&X-Amz-Signature=${upload.signature}`;
}

/** An S3-style refusal: its status, its code and a sentence. */
interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** Serves one request to an upload URL; resolves to the status answered (for the request log), or null when the client left. */
export async function serveUpload(kb: KbContext, req: IncomingMessage, res: ServerResponse, pathname: string, query: URLSearchParams): Promise<number | null> {
  const found = findUpload(kb, req, pathname, query);
  if ('status' in found) return refuse(req, res, found);
  const upload = found.upload;
  const outcome = await digestBody(req, upload.fileSize);
  if (outcome === 'gone') return null;
  if ('status' in outcome) return refuse(req, res, outcome);
  const now = kb.clock.now();
  upload.content = { size: outcome.size, sha256: outcome.sha256 };
  upload.updatedAt = Math.max(now, upload.updatedAt + 1);
  startFileIndexing(upload, now, kb.config);
  kb.store.changed();
  res.writeHead(200, { ETag: `"${outcome.md5}"`, 'Content-Length': '0' });
  res.end();
  return 200;
}

/** Everything checked before a byte of the body is read: the method, the upload, the signature, its age, the headers. */
function findUpload(kb: KbContext, req: IncomingMessage, pathname: string, query: URLSearchParams): { upload: StoredUpload } | Refusal {
  if (req.method !== 'PUT') return { status: 405, code: 'MethodNotAllowed', message: `The method ${req.method ?? ''} is not allowed on an upload URL; use PUT.` };
  const id = safeDecode(pathname.slice(UPLOAD_PATH_PREFIX.length));
  const upload = id === undefined ? undefined : kb.store.kbUploads.get(id);
  if (!upload) return { status: 404, code: 'NoSuchUpload', message: 'The upload does not exist: it was never initiated, or it was deleted.' };
  const signature = query.get('X-Amz-Signature');
  if (signature === null || signature === '') return { status: 403, code: 'AccessDenied', message: 'Query-string authentication requires the X-Amz-Signature parameter.' };
  if (!sameText(signature, upload.signature)) return { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
  if (kb.clock.now() > upload.expiresAt) return { status: 403, code: 'AccessDenied', message: 'Request has expired.' };
  const contentType = req.headers['content-type'];
  if (contentType !== upload.mimeType) {
    return { status: 403, code: 'SignatureDoesNotMatch', message: `The Content-Type ${contentType === undefined ? '(none)' : `"${contentType}"`} is not the signed "${upload.mimeType}".` };
  }
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) !== upload.fileSize) {
    return { status: 400, code: 'IncompleteBody', message: `The Content-Length ${declared} is not the ${upload.fileSize} bytes this upload was initiated with.` };
  }
  return { upload };
}

type Digest = { size: number; sha256: string; md5: string };

/** Reads the body through two hashes, keeping nothing; a byte past `expected` ends the read with a refusal. */
function digestBody(req: IncomingMessage, expected: number): Promise<Digest | Refusal | 'gone'> {
  return new Promise((resolve) => {
    const sha256 = createHash('sha256');
    const md5 = createHash('md5');
    let size = 0;
    let settled = false;
    const settle = (value: Digest | Refusal | 'gone'): void => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > expected) {
        settle({ status: 400, code: 'IncompleteBody', message: `The body is longer than the ${expected} bytes this upload was initiated with.` });
        return;
      }
      sha256.update(chunk);
      md5.update(chunk);
    });
    req.on('end', () => {
      if (size < expected) settle({ status: 400, code: 'IncompleteBody', message: `The body has ${size} bytes, not the ${expected} this upload was initiated with.` });
      else settle({ size, sha256: sha256.digest('hex'), md5: md5.digest('hex') });
    });
    req.on('error', () => settle('gone'));
    req.on('close', () => settle('gone'));
  });
}

/** Answers the refusal, then throws away what the client still sends, up to a bound, and hangs up past it. */
function refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal): number {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${escapeXml(refusal.message)}</Message></Error>\n`;
  const headers: Record<string, string> = { 'Content-Type': 'application/xml', 'Content-Length': String(Buffer.byteLength(xml)), Connection: 'close' };
  if (refusal.status === 405) headers.Allow = 'PUT';
  if (!res.headersSent && !res.destroyed) {
    res.writeHead(refusal.status, headers);
    res.end(xml);
  }
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > MAX_DRAIN_BYTES) req.socket.destroy();
  });
  req.on('error', () => {});
  req.resume();
  return refusal.status;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
