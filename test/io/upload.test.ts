// The upload transport (io/api/upload.ts) against a real local HTTP server standing for a storage
// host: the file is streamed (memory stays bounded for a large one), sent without the API key,
// checked against the planned digest as it goes, and the presigned URL's signature never appears
// in an error.
import { createHash } from 'node:crypto';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/io/api/client.js';
import { isApiError } from '../../src/io/api/api-error.js';

const SIGNATURE = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';

interface Received {
  headers: IncomingHttpHeaders;
  bytes: number;
  sha256: string;
  complete: boolean;
}

/** A storage host: takes PUTs, keeps only the size and digest of what arrived; answers `reply(n)` to the n-th. */
async function startStorage(
  reply: (n: number) => { status: number; body?: string },
  afterFirstMegabyte?: (req: IncomingMessage) => void,
): Promise<{ origin: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const hash = createHash('sha256');
    const entry: Received = { headers: req.headers, bytes: 0, sha256: '', complete: false };
    received.push(entry);
    req.on('data', (chunk: Buffer) => {
      const first = entry.bytes < 1024 * 1024 && entry.bytes + chunk.length >= 1024 * 1024;
      entry.bytes += chunk.length;
      hash.update(chunk);
      if (first) afterFirstMegabyte?.(req);
    });
    req.on('end', () => {
      entry.complete = true;
      entry.sha256 = hash.digest('hex');
      const { status, body = '' } = reply(received.length);
      res.writeHead(status, { 'content-type': 'application/xml', 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
    });
    req.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A full collection on demand, so that what is measured is what is held, not garbage not yet collected. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function sha256Of(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The SHA-256 of `bytes` zero bytes, hashed a megabyte at a time. */
function zerosDigest(bytes: number): string {
  const hash = createHash('sha256');
  const block = Buffer.alloc(1024 * 1024);
  for (let left = bytes; left > 0; left -= block.length) hash.update(left >= block.length ? block : block.subarray(0, left));
  return hash.digest('hex');
}

describe('uploading a file to a presigned URL', () => {
  let dir: string;
  let client: ApiClient;
  beforeAll(() => {
    client = createApiClient({ baseUrl: 'http://127.0.0.1:9/v3', apiKey: 'the-api-key-never-sent', retries: 2, backoff: { baseMs: 1, capMs: 5 } });
  });
  afterAll(() => client.close());
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentsync-upload-'));
    return () => rm(dir, { recursive: true, force: true });
  });

  it('streams a 32 MB file: with the storage not reading, memory holds a little of it, and the storage gets every byte, without the API key', async () => {
    // The storage stops reading after its first megabyte: a client that streams is held back by the
    // socket; one that read the file whole would hold all of it now.
    let resumeStorage = (): void => {};
    let paused = (): void => {};
    const pausedNow = new Promise<void>((resolve) => (paused = resolve));
    const storage = await startStorage(
      () => ({ status: 200 }),
      (req) => {
        req.pause();
        resumeStorage = () => req.resume();
        paused();
      },
    );
    const bytes = 32 * 1024 * 1024;
    const path = join(dir, 'big.pdf');
    await writeFile(path, '');
    await truncate(path, bytes);
    const digest = zerosDigest(bytes);
    const gc = collector();
    gc();
    const before = process.memoryUsage().arrayBuffers;
    const upload = client.upload!({ url: `${storage.origin}/bucket/big.pdf?X-Amz-Signature=${SIGNATURE}`, path, contentType: 'application/pdf', bytes, digest });
    await pausedNow;
    await new Promise((resolve) => setTimeout(resolve, 100));
    gc();
    const held = process.memoryUsage().arrayBuffers - before;
    resumeStorage();
    await upload;
    await storage.close();
    // Whole in memory would be 32 MB; a stream holds what the socket buffers and a few 64 KB chunks.
    expect(held).toBeLessThan(8 * 1024 * 1024);
    expect(storage.received).toHaveLength(1);
    expect(storage.received[0]).toMatchObject({ bytes, sha256: digest, complete: true });
    expect(storage.received[0]?.headers).toMatchObject({ 'content-type': 'application/pdf', 'content-length': String(bytes) });
    expect(storage.received[0]?.headers.apikey).toBeUndefined();
  });

  it('refuses a file that changed since it was planned: its last bytes are never sent, and nothing is retried', async () => {
    const storage = await startStorage(() => ({ status: 200 }));
    const path = join(dir, 'notes.md');
    await writeFile(path, '# Notes, edited');
    const err = await client.upload!({
      url: `${storage.origin}/bucket/notes.md?X-Amz-Signature=${SIGNATURE}`,
      path,
      contentType: 'text/markdown',
      bytes: 15,
      digest: sha256Of('# Notes, plan!!'),
    }).catch((e: unknown) => e);
    await storage.close();
    expect(isApiError(err) && err.code).toBe('FILE_CHANGED');
    expect((err as Error).message).toContain('the local file changed since it was planned');
    expect(storage.received.every((r) => r.bytes < 15 && r.sha256 !== sha256Of('# Notes, edited'))).toBe(true);
    expect(storage.received.length).toBeLessThanOrEqual(1);
  });

  it('names a refusal by the URL without its query, and never repeats the signature a storage echoes back', async () => {
    const echo = `<?xml version="1.0"?><Error><Code>SignatureDoesNotMatch</Code><Message>The signature does not match.</Message><SignatureProvided>${SIGNATURE}</SignatureProvided></Error>`;
    const storage = await startStorage(() => ({ status: 403, body: echo }));
    const path = join(dir, 'faq.txt');
    await writeFile(path, 'Q?');
    const err = await client.upload!({ url: `${storage.origin}/bucket/faq.txt?X-Amz-Signature=${SIGNATURE}`, path, contentType: 'text/plain', bytes: 2, digest: sha256Of('Q?') }).catch(
      (e: unknown) => e,
    );
    await storage.close();
    expect((err as Error).message).toBe(`PUT ${storage.origin}/bucket/faq.txt answered 403 SignatureDoesNotMatch: The signature does not match.`);
    expect(JSON.stringify(err)).not.toContain(SIGNATURE);
    // A 403 is an answer, not a failure to retry.
    expect(storage.received).toHaveLength(1);
  });

  it('retries a storage that is briefly unavailable, sending the whole file again', async () => {
    const storage = await startStorage((n) => ({ status: n === 1 ? 503 : 200 }));
    const path = join(dir, 'data.csv');
    await writeFile(path, 'a,b\n1,2\n');
    await client.upload!({ url: `${storage.origin}/bucket/data.csv?X-Amz-Signature=${SIGNATURE}`, path, contentType: 'text/csv', bytes: 8, digest: sha256Of('a,b\n1,2\n') });
    await storage.close();
    expect(storage.received.map((r) => [r.bytes, r.sha256])).toEqual([
      [8, sha256Of('a,b\n1,2\n')],
      [8, sha256Of('a,b\n1,2\n')],
    ]);
  });

  it('refuses an upload URL over plain http to another host, before a byte leaves', async () => {
    const path = join(dir, 'faq.txt');
    await writeFile(path, 'Q?');
    const err = await client.upload!({ url: `http://storage.example/bucket/faq.txt?X-Amz-Signature=${SIGNATURE}`, path, contentType: 'text/plain', bytes: 2, digest: sha256Of('Q?') }).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toBe('PUT http://storage.example/bucket/faq.txt answered 200 BAD_RESPONSE: the upload URL the server answered is not an https URL');
  });
});
