// Reads a JSON request body with a hard size cap. Past the cap the bytes are discarded as they
// arrive (never buffered), and a client that keeps sending far past it is disconnected.
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { ApiError, badRequest, payloadTooLarge, unsupportedMediaType } from '../errors.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/** How much more than the cap we drain so the client can read its 413 before we hang up. */
const MAX_DRAIN_BYTES = 8 * MAX_BODY_BYTES;

/** Signals that the client went away mid-body; there is nobody left to answer. */
export class ClientGone extends Error {}

export function hasBody(req: IncomingMessage): boolean {
  const declared = req.headers['content-length'];
  return (declared !== undefined && declared !== '0') || req.headers['transfer-encoding'] !== undefined;
}

export function readRawBody(req: IncomingMessage): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (!hasBody(req)) return Promise.reject(badRequest('The request body is required: a JSON object.'));
  if (!isJsonContentType(req.headers['content-type'])) return Promise.reject(unsupportedMediaType(req.headers['content-type']));
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) {
    drainAndDiscard(req, 0);
    return Promise.reject(payloadTooLarge(MAX_BODY_BYTES));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      settled = true;
      chunks.length = 0;
      drainAndDiscard(req, size - MAX_BODY_BYTES);
      reject(payloadTooLarge(MAX_BODY_BYTES));
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    });
    const gone = (): void => {
      if (settled) return;
      settled = true;
      reject(new ClientGone('client closed the connection while sending the body'));
    };
    req.on('error', gone);
    req.on('close', gone);
  });
}

/** The body as text; a 400 when it is not UTF-8. */
export function decodeBody(raw: Buffer): string {
  if (!isUtf8(raw)) throw badRequest('The request body is not valid UTF-8.');
  return raw.toString('utf8');
}

export function parseJsonText(text: string): unknown {
  if (text.trim() === '') throw badRequest('The request body is required: a JSON object.');
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ApiError(400, 'ERR_BAD_REQUEST', 'The request body is not valid JSON.', {}, `The request body is not valid JSON: ${(err as Error).message}`);
  }
}

export function parseJsonBody(raw: Buffer): unknown {
  return parseJsonText(decodeBody(raw));
}

/** application/json or any `+json` type; a charset, if given, must be UTF-8. */
function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  if (header === 'application/json') return true;
  const [mediaType = '', ...parameters] = header
    .toLowerCase()
    .split(';')
    .map((part) => part.trim());
  if (mediaType !== 'application/json' && !(mediaType.startsWith('application/') && mediaType.endsWith('+json'))) return false;
  const charset = parameters.find((parameter) => parameter.startsWith('charset='));
  return charset === undefined || charset === 'charset=utf-8' || charset === 'charset="utf-8"';
}

function drainAndDiscard(req: IncomingMessage, alreadyOver: number): void {
  let discarded = alreadyOver;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > MAX_DRAIN_BYTES) req.socket.destroy();
  });
  req.on('error', () => {});
}
