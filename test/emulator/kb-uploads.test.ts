// Knowledge-base uploads on the emulator: initiate, the PUT to the presigned URL on its own origin,
// delete; and the general list, status poll and re-index over every source type.
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KbListResponse, KbUploadRecord } from '../../src/core/agent-builder-wire.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { createText, initiate, KB, PDF, putBytes } from './builder-helpers.js';
import { agentsError } from './helpers.js';

const MB50 = 50 * 1024 * 1024;
let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(async () => {
  await emu.reset();
  await emu.configure({ createStatus: 200, kbProcessingMs: 1500 });
});

const poll = async (ids: string[]): Promise<Record<string, string>> => ((await emu.call('POST', `${KB}/status/poll`, { uniqueId: ids })).json as { data: Record<string, string> }).data;
const listAll = async (): Promise<KbListResponse> => (await emu.call('GET', `${KB}?start=0&end=0&limit=100`)).json as KbListResponse;

/** V8's full collection, made available at run time (vitest's workers do not start with --expose-gc). */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

describe('initiate', () => {
  it('makes the records and answers {uploads} with a presigned URL on the origin the request came to', async () => {
    await emu.configure({ createStatus: 201 });
    const files = [
      { fileName: 'Handbook.PDF', mimeType: PDF, fileSize: 1024 },
      { fileName: 'notes.md', mimeType: 'text/markdown', fileSize: 3 },
    ];
    const reply = await emu.call('POST', `${KB}/uploads/initiate`, { files });
    expect(reply.status).toBe(201);
    const { uploads } = reply.json as { uploads: KbUploadRecord[] };
    expect(uploads).toHaveLength(2);
    const [first] = uploads;
    expect(first).toMatchObject({ fileName: 'Handbook.PDF', mimeType: PDF, fileSize: 1024, s3Key: `local/uploads/${first?.uploadId.slice(0, 8)}/Handbook.PDF` });
    expect(first?.presignedUrl).toMatch(new RegExp(`^${emu.origin}/__uploads/${first?.uploadId}\\?X-Amz-Expires=900&X-Amz-Signature=[0-9a-f]{64}$`));
    // Reached as localhost, it hands out a localhost URL.
    const viaLocalhost = await fetch(`http://localhost:${emu.port}/v3${KB}/uploads/initiate`, {
      method: 'POST',
      headers: { apikey: emu.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ files: [files[1]] }),
    });
    expect(((await viaLocalhost.json()) as { uploads: KbUploadRecord[] }).uploads[0]?.presignedUrl.startsWith(`http://localhost:${emu.port}/__uploads/`)).toBe(true);
    expect(await poll(uploads.map((upload) => upload.uploadId))).toEqual(Object.fromEntries(uploads.map((upload) => [upload.uploadId, 'indexing'])));
  });

  it.each([
    ['no files', {}, "'files' is required"],
    ['an empty list', { files: [] }, "'files' must hold 1 to 10 files; it has 0."],
    ['eleven files', { files: Array.from({ length: 11 }, (_, i) => ({ fileName: `${i}.txt`, mimeType: 'text/plain', fileSize: 1 })) }, "'files' must hold 1 to 10 files; it has 11."],
    ['an .exe', { files: [{ fileName: 'setup.exe', mimeType: 'application/octet-stream', fileSize: 1 }] }, 'files[0] "setup.exe": the file type must be one of .pdf, .txt, .md, .csv, .docx.'],
    [
      "a MIME type that is not the extension's",
      { files: [{ fileName: 'a.pdf', mimeType: 'text/plain', fileSize: 1 }] },
      'files[0] "a.pdf": \'mimeType\' must be "application/pdf" for a .pdf file; got "text/plain".',
    ],
    [
      'a size over 50 MB',
      { files: [{ fileName: 'big.pdf', mimeType: PDF, fileSize: MB50 + 1 }] },
      `files[0] "big.pdf": 'fileSize' must be a whole number of bytes from 1 to ${MB50} (50 MB); got ${MB50 + 1}.`,
    ],
    ['an empty file', { files: [{ fileName: 'a.csv', mimeType: 'text/csv', fileSize: 0 }] }, "'fileSize' must be a whole number of bytes from 1"],
    ['a file name with a folder', { files: [{ fileName: 'kb/a.txt', mimeType: 'text/plain', fileSize: 1 }] }, 'must be a file name, without a folder.'],
    ['another key', { files: [{ fileName: 'a.txt', mimeType: 'text/plain', fileSize: 1, agent: 'x' }] }, "Unknown field 'files[0].agent'."],
  ])('refuses %s with a 400 naming the file and the rule, and makes no record', async (_label, body, message) => {
    const reply = await emu.call('POST', `${KB}/uploads/initiate`, body);
    expect(reply.status).toBe(400);
    expect(agentsError(reply).message).toContain(message);
    expect((await listAll()).data.filter((record) => record.type === 'uploads')).toEqual([]);
  });

  it('accepts exactly 50 MB and every allowed type', async () => {
    const uploads = await initiate(emu, [
      { fileName: 'a.pdf', mimeType: PDF, fileSize: MB50 },
      { fileName: 'b.txt', mimeType: 'text/plain', fileSize: 1 },
      { fileName: 'c.csv', mimeType: 'text/csv', fileSize: 1 },
      { fileName: 'd.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', fileSize: 1 },
    ]);
    expect(uploads).toHaveLength(4);
  });
});

describe('the PUT to the presigned URL', () => {
  it('takes the bytes without an apikey: 200, an empty body and an ETag; then indexing runs to indexed', async () => {
    const [upload] = await initiate(emu, [{ fileName: 'a.txt', mimeType: 'text/plain', fileSize: 5 }]);
    if (!upload) throw new Error('no upload');
    await emu.admin('POST', '/clock', { advanceMs: 5000 });
    // No bytes yet: indexing has not started, however long one waits.
    expect(await poll([upload.uploadId])).toEqual({ [upload.uploadId]: 'indexing' });
    const reply = await putBytes(upload, Buffer.from('hello'));
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('');
    expect(reply.headers.etag).toBe(`"${createHash('md5').update('hello').digest('hex')}"`);
    expect(await poll([upload.uploadId])).toEqual({ [upload.uploadId]: 'indexing' });
    await emu.admin('POST', '/clock', { advanceMs: 1500 });
    expect(await poll([upload.uploadId])).toEqual({ [upload.uploadId]: 'indexed' });
    // A second PUT replaces the content and indexes it again.
    const again = await putBytes(upload, Buffer.from('world'));
    expect(again.status).toBe(200);
    expect(again.headers.etag).not.toBe(reply.headers.etag);
    expect(await poll([upload.uploadId])).toEqual({ [upload.uploadId]: 'indexing' });
  });

  it('refuses a missing or wrong signature and a wrong Content-Type with 403 (S3-like XML), a wrong length with 400', async () => {
    const [upload] = await initiate(emu, [{ fileName: 'a.txt', mimeType: 'text/plain', fileSize: 5 }]);
    if (!upload) throw new Error('no upload');
    const unsigned = { ...upload, presignedUrl: upload.presignedUrl.replace(/&X-Amz-Signature=.*$/, '') };
    const forged = { ...upload, presignedUrl: upload.presignedUrl.replace(/Signature=.{4}/, 'Signature=0000') };
    const cases = [
      [await putBytes(unsigned, Buffer.from('hello')), 403, 'AccessDenied'],
      [await putBytes(forged, Buffer.from('hello')), 403, 'SignatureDoesNotMatch'],
      [await putBytes(upload, Buffer.from('hello'), { 'content-type': 'application/pdf' }), 403, 'SignatureDoesNotMatch'],
      [await putBytes(upload, Buffer.from('hell')), 400, 'IncompleteBody'],
      [await putBytes(upload, Buffer.from('hello!')), 400, 'IncompleteBody'],
      [await putBytes({ ...upload, presignedUrl: upload.presignedUrl.replace(upload.uploadId, 'ghost') }, Buffer.from('hello')), 404, 'NoSuchUpload'],
    ] as const;
    for (const [reply, status, code] of cases) {
      expect(reply.status, code).toBe(status);
      expect(reply.headers['content-type']).toBe('application/xml');
      expect(reply.text).toContain(`<Code>${code}</Code>`);
    }
    await emu.admin('POST', '/clock', { advanceMs: 60_000 });
    expect(await poll([upload.uploadId])).toEqual({ [upload.uploadId]: 'indexing' });
  });

  it('refuses a PUT after the URL expired (900 s on the emulator clock)', async () => {
    const [upload] = await initiate(emu, [{ fileName: 'a.txt', mimeType: 'text/plain', fileSize: 1 }]);
    if (!upload) throw new Error('no upload');
    await emu.admin('POST', '/clock', { advanceMs: 900_001 });
    const reply = await putBytes(upload, Buffer.from('x'));
    expect(reply.status).toBe(403);
    expect(reply.text).toContain('Request has expired.');
  });

  it('refuses a declared 50 MB + 1 body at once, before reading it', async () => {
    const [upload] = await initiate(emu, [{ fileName: 'big.pdf', mimeType: PDF, fileSize: MB50 }]);
    if (!upload) throw new Error('no upload');
    const url = new URL(upload.presignedUrl);
    // Only the headers and one byte are sent: an answer proves the server did not wait for the rest.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: ${PDF}\r\nContent-Length: ${MB50 + 1}\r\n\r\nx`);
      });
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (text.includes('</Error>')) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('<Code>IncompleteBody</Code>');
  });

  it('streams a chunked 50 MB + 1 body through a digest and refuses it, never holding it', async () => {
    const [upload] = await initiate(emu, [{ fileName: 'big.pdf', mimeType: PDF, fileSize: MB50 }]);
    if (!upload) throw new Error('no upload');
    const url = new URL(upload.presignedUrl);
    const chunk = Buffer.alloc(64 * 1024, 7);
    // What is held, not what is garbage not yet collected (which depends on the GC's mood, and on
    // Node 24 reached 50 MB): each sample collects first, so only memory something still holds counts.
    collectGarbage();
    const baseline = process.memoryUsage().arrayBuffers;
    let peak = baseline;
    const sampler = setInterval(() => {
      collectGarbage();
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    }, 10);
    const status = await new Promise<number | undefined>((resolve) => {
      const req = httpRequest({ host: url.hostname, port: url.port, method: 'PUT', path: `${url.pathname}${url.search}`, headers: { 'content-type': PDF }, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', () => resolve(undefined));
      let sent = 0;
      const pump = (): void => {
        while (sent < MB50 + 1) {
          const part = sent + chunk.length <= MB50 + 1 ? chunk : chunk.subarray(0, MB50 + 1 - sent);
          sent += part.length;
          if (!req.write(part)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    clearInterval(sampler);
    expect(status).toBe(400);
    // Holding the body would keep 50 MB alive at once; streamed, a few chunks in flight are.
    expect(peak - baseline).toBeLessThan(16 * 1024 * 1024);
    expect(await poll([upload.uploadId])).toEqual({ [upload.uploadId]: 'indexing' });
  });

  it('shows in the request log without its signature', async () => {
    const [upload] = await initiate(emu, [{ fileName: 'a.txt', mimeType: 'text/plain', fileSize: 2 }]);
    if (!upload) throw new Error('no upload');
    await putBytes(upload, Buffer.from('hi'));
    const logged = (await emu.requests()).filter((entry) => entry.path.startsWith('/__uploads/'));
    expect(logged).toMatchObject([{ method: 'PUT', path: `/__uploads/${upload.uploadId}`, status: 200 }]);
    expect(JSON.stringify(await emu.requests())).not.toContain(upload.presignedUrl.split('Signature=')[1]);
  });
});

describe('delete, and the general list over every source', () => {
  it('deletes an upload: {success, message, data}; a second DELETE is 404', async () => {
    const [upload] = await initiate(emu, [{ fileName: 'a.txt', mimeType: 'text/plain', fileSize: 1 }]);
    if (!upload) throw new Error('no upload');
    const reply = await emu.call('DELETE', `${KB}/uploads/${upload.uploadId}`);
    expect(reply.json).toEqual({
      success: true,
      message: 'File and all associated data deleted successfully',
      data: { uploadId: upload.uploadId, fileName: 'a.txt', deletedFromAgents: true, vectorsDeleted: true },
    });
    const again = await emu.call('DELETE', `${KB}/uploads/${upload.uploadId}`);
    expect(again.status).toBe(404);
    expect(agentsError(again).message).toContain(`Uploaded file '${upload.uploadId}' does not exist`);
    expect((await putBytes(upload, Buffer.from('x'))).status).toBe(404);
  });

  it('lists websites, text entries and uploads newest first under one cursor, with their types and names', async () => {
    const text = await createText(emu, 'Refund policy', 'We refund.');
    const [upload] = await initiate(emu, [{ fileName: 'handbook.pdf', mimeType: PDF, fileSize: 3 }]);
    const all = await listAll();
    expect(all.data.slice(0, 2).map((record) => [record.type, record.sourceName, record.uniqueId])).toEqual([
      ['uploads', 'handbook.pdf', upload?.uploadId],
      ['text-details', 'Refund policy', text.uniqueId],
    ]);
    expect(all.data.slice(2).map((record) => record.type)).toEqual(['website', 'website', 'website']);
    // Paging one at a time visits the same records in the same order.
    const walked: string[] = [];
    let query = `${KB}?start=0&end=0&limit=1`;
    for (;;) {
      const page = (await emu.call('GET', query)).json as KbListResponse;
      walked.push(...page.data.map((record) => record.uniqueId));
      if (!page.meta.next) break;
      query = `${KB}?start=0&end=0&limit=1&affix=append&cursor=${page.meta.next.cursor}`;
    }
    expect(walked).toEqual(all.data.map((record) => record.uniqueId));
  });

  it('polls and re-indexes text entries and uploads through …/{sourceType}/{id}/sync', async () => {
    await emu.configure({ kbProcessingMs: 0 });
    const text = await createText(emu, 'T', 'x');
    const [upload] = await initiate(emu, [{ fileName: 'a.txt', mimeType: 'text/plain', fileSize: 1 }]);
    if (!upload) throw new Error('no upload');
    await putBytes(upload, Buffer.from('x'));
    expect(await poll([text.uniqueId, upload.uploadId, 'ghost'])).toEqual({ [text.uniqueId]: 'indexed', [upload.uploadId]: 'indexed' });
    await emu.configure({ kbProcessingMs: 1500 });
    for (const [type, id] of [
      ['text', text.uniqueId],
      ['uploads', upload.uploadId],
    ]) {
      const reply = await emu.call('PATCH', `${KB}/${type}/${id}/sync`);
      expect(reply.status).toBe(200);
    }
    expect(await poll([text.uniqueId, upload.uploadId])).toEqual({ [text.uniqueId]: 'indexing', [upload.uploadId]: 'indexing' });
    expect((await emu.call('PATCH', `${KB}/text/${upload.uploadId}/sync`)).status).toBe(404);
  });
});
