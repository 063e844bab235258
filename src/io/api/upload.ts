// A local file's bytes PUT to a URL the server handed out (a knowledge-base upload's presigned URL;
// docs/spec/server.md#presigned-upload). It is not an API call: the URL is another host (storage),
// so the API key is never sent there, and its query is the upload's credential (a signature), so
// the URL is shown without it, and is hidden from every output of the run besides.
//
// The file is streamed (never whole in memory) through its SHA-256: the last chunk is held back
// until the digest is known, so a file that changed since it was planned never arrives whole, and
// the storage refuses the short body. A PUT of the same bytes to the same URL is safe to repeat:
// failures are retried like the API's PUTs (docs/spec/server.md#retries), each attempt reading the
// file again from its start.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { Pool } from 'undici';
import type { UploadRequest } from '../../core/kinds/kind.js';
import { isLoopbackHost } from '../../core/base-url.js';
import { ApiError, errorFromTransport, RETRYABLE_STATUSES, serverAddress } from './api-error.js';
import { MAX_TIMER_MS, retryDelay, type BackoffOptions } from './backoff.js';
import { hideInOutput } from './outside-text.js';
import type { RetryClock, RetryInfo } from './send-request.js';
import { USER_AGENT } from './user-agent.js';
import { exchange } from './exchange.js';

export interface UploadContext {
  timeouts: { connectMs: number; responseMs: number };
  retries: number;
  backoff: BackoffOptions;
  clock: RetryClock;
}

/** The slowest link an upload is given time for: a 50 MB file gets about 13 minutes on top of the answer's time. */
const MIN_BYTES_PER_SECOND = 64 * 1024;
/** Of a storage's error answer only this much is read: its code and message are at the start. */
const ERROR_BODY_BYTES = 16 * 1024;

/** `PUT https://bucket.example/key`: where the bytes went, without the query (its signature is a credential). */
export function shownUploadCall(url: string): string {
  if (!URL.canParse(url)) return 'PUT (an upload URL that is not a URL)';
  const parsed = new URL(url);
  return `PUT ${parsed.origin}${parsed.pathname}`;
}

export interface UploadOptions {
  onRetry?: (info: RetryInfo) => void;
  signal?: AbortSignal;
}

export async function uploadFile(ctx: UploadContext, request: UploadRequest, options: UploadOptions = {}): Promise<void> {
  const call = shownUploadCall(request.url);
  const url = checkUploadUrl(request.url, call);
  hideInOutput([url.search.slice(1), ...url.searchParams.values()].filter((value) => value.length >= 8));
  const attemptMs = Math.min(ctx.timeouts.responseMs + Math.ceil((request.bytes / MIN_BYTES_PER_SECOND) * 1000), MAX_TIMER_MS);
  for (let attempt = 1; ; attempt++) {
    const failure = await putOnce(url, request, call, attemptMs, ctx, options.signal);
    if (failure === undefined) return;
    failure.attempts = attempt;
    if (!failure.retryable || attempt > ctx.retries || options.signal?.aborted === true) throw failure;
    const delayMs = Math.min(retryDelay(attempt - 1, failure.retryAfterMs, ctx.clock.random(), ctx.backoff), MAX_TIMER_MS);
    options.onRetry?.({ call, retry: attempt, delayMs, error: failure });
    await ctx.clock.sleep(delayMs);
  }
}

/** https, or plain http to a loopback host (the emulator): as for the API's base URL, bytes never cross a network in clear. */
function checkUploadUrl(raw: string, call: string): URL {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  const fine = url !== undefined && url.username === '' && url.password === '' && (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname)));
  if (fine) return url;
  throw new ApiError({ status: 200, code: 'BAD_RESPONSE', serverMessage: 'the upload URL the server answered is not an https URL', call, retryable: false, notSent: true });
}

/** One attempt: undefined when the storage took the bytes, else why not. */
async function putOnce(url: URL, request: UploadRequest, call: string, attemptMs: number, ctx: UploadContext, signal: AbortSignal | undefined): Promise<ApiError | undefined> {
  // A pool of one, driven through the one exchange every call uses (the vendored undici, scripts/bundle.mjs, is its Pool alone).
  const client = new Pool(url.origin, { connections: 1, connectTimeout: ctx.timeouts.connectMs, headersTimeout: attemptMs, bodyTimeout: attemptMs });
  const body = new DigestCheck(request.digest, request.bytes, call);
  createReadStream(request.path)
    .on('error', (err) => body.destroy(body.unreadable(err)))
    .pipe(body);
  try {
    const answer = await exchange(client, {
      method: 'PUT',
      path: `${url.pathname}${url.search}`,
      headers: { 'content-type': request.contentType, 'content-length': String(request.bytes), 'user-agent': USER_AGENT },
      body,
      // A storage's success says nothing we read; an error's first bytes say enough.
      limitFor: (status) => ({ bytes: status >= 200 && status < 300 ? 0 : ERROR_BODY_BYTES, overLimit: 'truncate' }),
      timeoutMs: attemptMs,
      ...(signal ? { signal } : {}),
    });
    if (answer.status >= 200 && answer.status < 300) return undefined;
    return storageRefusal(answer.status, 'text' in answer ? answer.text : '', call);
  } catch (err) {
    if (body.changed !== undefined) return body.changed;
    return errorFromTransport(err, call, serverAddress(url));
  } finally {
    body.destroy();
    await client.close().catch(() => undefined);
  }
}

/** A storage's error answer (S3 writes XML): its Code and Message only; the rest may echo the signed request. */
function storageRefusal(status: number, text: string, call: string): ApiError {
  const code = /<Code>([^<]{1,100})<\/Code>/.exec(text)?.[1] ?? `HTTP_${status}`;
  const message = /<Message>([^<]{1,500})<\/Message>/.exec(text)?.[1] ?? (text.startsWith('<') ? '' : text.slice(0, 500));
  return new ApiError({ status, code, serverMessage: message, call, retryable: status >= 500 || RETRYABLE_STATUSES.has(status), notSent: false });
}

/**
 * Passes the file through, one chunk behind, while hashing it; at its end, the last chunk goes out
 * only when the size and SHA-256 are the planned ones. Otherwise the stream fails, the body stays
 * short of its Content-Length, and nothing the plan did not see is stored.
 */
class DigestCheck extends Transform {
  private readonly hash = createHash('sha256');
  private held: Buffer | undefined;
  private size = 0;
  changed: ApiError | undefined;

  constructor(
    private readonly digest: string,
    private readonly bytes: number,
    private readonly call: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    const previous = this.held;
    this.held = chunk;
    if (this.size > this.bytes) return done(this.refuse());
    done(null, previous);
  }

  override _flush(done: TransformCallback): void {
    if (this.size !== this.bytes || this.hash.digest('hex') !== this.digest) return done(this.refuse());
    done(null, this.held);
  }

  /** The file could not be read (gone since the plan, say): the upload fails, and no retry helps. */
  unreadable(err: Error): ApiError {
    const why = err.message.replaceAll(/'[^']*'/g, '').trim();
    this.changed = new ApiError({ status: 0, code: 'FILE_UNREADABLE', serverMessage: `the local file cannot be read: ${why}`, call: this.call, retryable: false, notSent: false });
    return this.changed;
  }

  private refuse(): ApiError {
    this.changed = new ApiError({
      status: 0,
      code: 'FILE_CHANGED',
      serverMessage: 'the local file changed since it was planned (its size or SHA-256 differs); nothing of it was stored. Run plan again',
      call: this.call,
      retryable: false,
      notSent: false,
    });
    return this.changed;
  }
}
