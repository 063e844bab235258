// Knowledge-base files (docs/spec/knowledge-base.md#files) through the CLI against the emulator:
// upload (initiate, then a streamed PUT to the presigned URL without the API key), No changes after,
// a changed file is a replacement (-/+) that uploads once and deletes the old one, the file rules
// checked before any call, lost answers of the initiate and of the PUT, saved plans, export,
// import, --prune and the presigned URL's signature never printed.
import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY as KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { runCli, type CliResult } from '../support/cli.js';

const INITIATE = '/ai-agents/agent-builder/knowledge-base/uploads/initiate';

function manifest(files: Record<string, string>, extra = ''): string {
  return [
    'version: 1',
    'environments:',
    '  local: { appId: local, region: us }',
    'knowledgeBase:',
    '  files:',
    ...Object.entries(files).map(([key, file]) => `    ${key}: { file: ${file} }`),
    extra,
  ].join('\n');
}

interface Upload {
  uniqueId: string;
  sourceName: string;
  status: string;
}

/** A test HTTP proxy in front of the emulator: it records each request, and can drop the answers of upload PUTs. */
interface Proxy {
  url: string;
  seen: { method: string; url: string; headers: IncomingHttpHeaders }[];
  /** Upload PUTs whose answer is dropped after the emulator has handled them. */
  dropPuts: number;
  close(): Promise<void>;
}

async function startProxy(target: URL): Promise<Proxy> {
  const proxy: Proxy = { url: '', seen: [], dropPuts: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    proxy.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const drop = req.method === 'PUT' && (req.url ?? '').startsWith('/__uploads/') && proxy.dropPuts > 0;
    if (drop) proxy.dropPuts--;
    // The emulator answers only to its own Host; its presigned URLs are sent back through the proxy.
    const headers = { ...req.headers, host: target.host };
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      if (drop) {
        answer.resume();
        answer.on('end', () => req.socket.destroy());
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.from(Buffer.concat(chunks).toString('utf8').replaceAll(target.origin, proxy.url));
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(body.length) });
        res.end(body);
      });
    });
    // The emulator dropped the connection (a lost answer): so does the proxy.
    upstream.on('error', () => req.socket.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

describe('knowledge-base files', () => {
  let emu: TestEmulator;
  let proxy: Proxy;
  let dir: string;
  const cli = (args: string[], env: Record<string, string> = {}): Promise<CliResult> =>
    runCli(args[0] === 'validate' ? args : [...args, '--state', 'state.json'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: `${proxy.url}/v3`, ...env } });
  const uploads = async (): Promise<Upload[]> =>
    (await emu.get<{ data: (Upload & { type: string })[] }>('/ai-agents/agent-builder/knowledge-base?start=0&end=253402300799999&limit=100')).data.filter((e) => e.type === 'uploads');
  const state = async (): Promise<{ resources: Record<string, { remoteId: string; spec: Record<string, unknown> }>; pending: Record<string, unknown> }> =>
    JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
  /** The calls that change something (the upload PUTs included), ids as <id>. */
  const writes = async (): Promise<string[]> =>
    (await emu.requests()).filter((r) => r.method !== 'GET' && !r.path.startsWith('/__emulator')).map((r) => `${r.method} ${r.path.replace(/^\/v3/, '').replace(/[0-9a-f-]{36}/g, '<id>')}`);
  /** Every upload URL the proxy saw, whole: the signatures that must never be printed. */
  const signatures = (): string[] => proxy.seen.flatMap((r) => /X-Amz-Signature=([0-9a-f]+)/.exec(r.url)?.slice(1) ?? []);

  beforeAll(async () => {
    emu = await startTestEmulator({ quiet: true });
    proxy = await startProxy(new URL(emu.origin));
  });
  afterAll(async () => {
    await proxy.close();
    await emu.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentsync-kb-files-'));
    await mkdir(join(dir, 'kb'));
    await emu.reset();
    await emu.configure({ kbProcessingMs: 0 });
    proxy.seen.length = 0;
    proxy.dropPuts = 0;
    return () => rm(dir, { recursive: true, force: true });
  });

  it('uploads a file once (initiate, then its bytes PUT without the API key), then plans No changes', async () => {
    await writeFile(join(dir, 'kb', 'handbook.pdf'), '%PDF-1.4 handbook v1\n');
    await writeFile(join(dir, 'agents.yaml'), manifest({ handbook: 'kb/handbook.pdf' }));
    const applied = await cli(['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('created file.handbook');
    expect(await writes()).toEqual([`POST ${INITIATE}`, 'PUT /__uploads/<id>']);
    const put = proxy.seen.find((r) => r.method === 'PUT');
    expect(put?.headers.apikey).toBeUndefined();
    expect(put?.headers['content-type']).toBe('application/pdf');
    expect(put?.headers['content-length']).toBe('21');
    const [upload, ...others] = await uploads();
    expect(others).toEqual([]);
    expect(upload).toMatchObject({ sourceName: 'handbook.pdf', status: 'indexed' });
    const entry = (await state()).resources['file.handbook'];
    expect(entry?.remoteId).toBe(upload?.uniqueId);
    expect(entry?.spec).toEqual({ fileName: 'handbook.pdf', mimeType: 'application/pdf', bytes: 21, digest: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const plan = await cli(['plan', '--detailed-exitcode']);
    expect(plan.code, plan.stdout).toBe(0);
    expect(plan.stdout).toContain('No changes');
    expect(signatures()).toHaveLength(1);
    for (const signature of signatures()) expect(applied.stdout + applied.stderr + plan.stdout + (await readFile(join(dir, 'state.json'), 'utf8'))).not.toContain(signature);
  });

  it('plans a changed file as a replacement (-/+), uploads it once, deletes the old one', async () => {
    await writeFile(join(dir, 'kb', 'handbook.pdf'), '%PDF-1.4 handbook v1\n');
    await writeFile(join(dir, 'agents.yaml'), manifest({ handbook: 'kb/handbook.pdf' }));
    const first = await cli(['apply', '--auto-approve']);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const oldId = (await state()).resources['file.handbook']?.remoteId;
    await writeFile(join(dir, 'kb', 'handbook.pdf'), '%PDF-1.4 handbook v2, longer\n');
    await emu.clearRequests();
    proxy.seen.length = 0;

    const plan = await cli(['plan']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/-\/\+ file\.handbook/);
    expect(plan.stdout).toMatch(/content: "sha256:[0-9a-f]{12}…" → "sha256:[0-9a-f]{12}…"/);
    expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 1 to replace, 0 to forget.');

    const applied = await cli(['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await writes()).toEqual([`POST ${INITIATE}`, 'PUT /__uploads/<id>', 'DELETE /ai-agents/agent-builder/knowledge-base/uploads/<id>']);
    const [upload, ...others] = await uploads();
    expect(others).toEqual([]);
    expect(upload?.uniqueId).not.toBe(oldId);
    expect((await state()).resources['file.handbook']?.remoteId).toBe(upload?.uniqueId);
    expect(Object.keys((await state()).resources)).toEqual(['file.handbook']);
    expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('refuses a .exe, a 60 MB file and a missing file: one line each at the file: value, exit 1, no call', async () => {
    await writeFile(join(dir, 'kb', 'setup.exe'), 'MZ');
    // Sparse: 60 MB long without 60 MB written; its size comes from stat, nothing of it is read.
    await writeFile(join(dir, 'kb', 'big.pdf'), '');
    await truncate(join(dir, 'kb', 'big.pdf'), 60 * 1024 * 1024);
    await writeFile(join(dir, 'agents.yaml'), manifest({ setup: 'kb/setup.exe', big: 'kb/big.pdf', gone: 'kb/gone.pdf' }));
    await emu.clearRequests();
    for (const command of [['validate'], ['plan'], ['apply', '--auto-approve']]) {
      const run = await cli(command);
      expect(run.code, run.stdout).toBe(1);
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines.filter((line) => line.includes('agents.yaml:'))).toEqual([
        expect.stringMatching(/^agents\.yaml:6:20: .*"kb\/setup\.exe" is not a type the knowledge base takes: PDF, TXT, DOCX, CSV or MD/),
        expect.stringMatching(/^agents\.yaml:7:18: .*"kb\/big\.pdf" is 62,914,560 bytes \(60\.0 MB\); the limit is 52,428,800 bytes \(50\.0 MB\)/),
        expect.stringMatching(/^agents\.yaml:8:19: .*"kb\/gone\.pdf" does not exist/),
      ]);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    expect(await emu.requests()).toEqual([]);
  });

  it('a lost initiate answer, then a rerun: exactly one upload on the server, with its bytes', async () => {
    await writeFile(join(dir, 'kb', 'handbook.pdf'), '%PDF-1.4 handbook\n');
    await writeFile(join(dir, 'agents.yaml'), manifest({ handbook: 'kb/handbook.pdf' }));
    await emu.configure({ loseAnswerNext: 1, loseAnswerOn: `POST ${INITIATE}` });
    const lost = await cli(['apply', '--auto-approve']);
    expect(lost.code).toBe(1);
    expect(lost.stdout + lost.stderr).toMatch(/file\.handbook/);
    expect(await uploads()).toHaveLength(1);
    expect(Object.keys((await state()).pending)).toEqual(['file.handbook']);

    const plan = await cli(['plan']);
    expect(plan.stdout).toMatch(/file\.handbook/);
    const rerun = await cli(['apply', '--auto-approve']);
    expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
    const [upload, ...others] = await uploads();
    expect(others).toEqual([]);
    expect(upload).toMatchObject({ sourceName: 'handbook.pdf', status: 'indexed' });
    const after = await state();
    expect(after.resources['file.handbook']?.remoteId).toBe(upload?.uniqueId);
    expect(after.pending).toEqual({});
    expect(Object.keys(after.resources)).toEqual(['file.handbook']);
    expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('a PUT answer lost once is retried (the same bytes to the same URL); lost every time, the id is kept and the rerun replaces it', async () => {
    await writeFile(join(dir, 'kb', 'notes.md'), '# Notes\n');
    await writeFile(join(dir, 'agents.yaml'), manifest({ notes: 'kb/notes.md' }));
    proxy.dropPuts = 1;
    const retried = await cli(['apply', '--auto-approve']);
    expect(retried.code, retried.stdout + retried.stderr).toBe(0);
    expect(proxy.seen.filter((r) => r.method === 'PUT')).toHaveLength(2);
    expect(await uploads()).toEqual([expect.objectContaining({ sourceName: 'notes.md', status: 'indexed' })]);

    await writeFile(join(dir, 'kb', 'notes.md'), '# Notes, edited\n');
    proxy.dropPuts = 100;
    const failed = await cli(['apply', '--auto-approve', '--retries', '1']);
    expect(failed.code).toBe(1);
    const kept = (await state()).resources['file.notes'];
    expect(kept?.spec.digest).toBe('not uploaded');
    // The old file's pending delete was not reached; both are known to the state.
    expect(await uploads()).toHaveLength(2);

    proxy.dropPuts = 0;
    const plan = await cli(['plan']);
    expect(plan.stdout).toMatch(/-\/\+ file\.notes/);
    expect(plan.stdout).toContain('"not uploaded" → "sha256:');
    const rerun = await cli(['apply', '--auto-approve']);
    expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
    const [upload, ...others] = await uploads();
    expect(others).toEqual([]);
    expect(upload?.status).toBe('indexed');
    expect(Object.keys((await state()).resources)).toEqual(['file.notes']);
    expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('import adopts a file by its name (the manifest digest recorded as applied); export names where the file goes, with a warning; --prune deletes one', async () => {
    await writeFile(join(dir, 'kb', 'faq.txt'), 'Q: A?\n');
    await writeFile(join(dir, 'agents.yaml'), manifest({ faq: 'kb/faq.txt' }));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const uploadId = (await state()).resources['file.faq']?.remoteId;

    // A fresh state: import finds it by its name, and the plan has nothing to do.
    await rm(join(dir, 'state.json'));
    const imported = await cli(['import']);
    expect(imported.code, imported.stderr).toBe(0);
    expect((await state()).resources['file.faq']).toMatchObject({ remoteId: uploadId, spec: { fileName: 'faq.txt', mimeType: 'text/plain', bytes: 6 } });
    expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);

    // Export cannot download it: the entry names where it goes, one warning says so; with the file put
    // there (the user's step), the export round-trips to No changes.
    const exported = await cli(['export', '--split', 'exported']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain('Warning: file "faq.txt" cannot be downloaded: put it at "exported/files/faq.txt" before planning the export.\n');
    expect(exported.stderr.match(/faq\.txt/g)).toHaveLength(2);
    expect(await readFile(join(dir, 'exported', 'files.yaml'), 'utf8')).toContain('    faq:\n      file: files/faq.txt\n');
    await mkdir(join(dir, 'exported', 'files'));
    await writeFile(join(dir, 'exported', 'files', 'faq.txt'), 'Q: A?\n');
    const fresh = (args: string[]): Promise<CliResult> =>
      runCli([...args, '-f', 'exported', '--state', 'fresh.json'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: `${proxy.url}/v3` } });
    expect((await fresh(['import'])).code).toBe(0);
    const roundTrip = await fresh(['plan', '--detailed-exitcode']);
    expect(roundTrip.code, roundTrip.stdout).toBe(0);

    // Out of the manifest: a plain plan forgets nothing silently; --prune deletes it on the server.
    await writeFile(join(dir, 'agents.yaml'), manifest({}).replace('  files:\n', '  files: {}\n'));
    const pruned = await cli(['apply', '--auto-approve', '--prune']);
    expect(pruned.code, pruned.stdout + pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain('file.faq');
    expect(await uploads()).toEqual([]);
    expect((await state()).resources).toEqual({});
  });

  it('a saved plan uploads only the bytes it saw: a file changed since is refused in one line, before any call', async () => {
    await writeFile(join(dir, 'kb', 'guide.md'), '# Guide\n');
    await writeFile(join(dir, 'agents.yaml'), manifest({ guide: 'kb/guide.md' }));
    expect((await cli(['plan', '--out', 'plan.json'])).code).toBe(0);
    await writeFile(join(dir, 'kb', 'guide.md'), '# Guide, edited after the plan\n');
    await emu.clearRequests();
    const applied = await cli(['apply', 'plan.json', '--auto-approve']);
    expect(applied.code).toBe(1);
    expect(applied.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(applied.stderr).toMatch(/saved plan plan\.json is stale: the local file of file\.guide changed after the plan was made/);
    expect(await writes()).toEqual([]);
    expect(await uploads()).toEqual([]);
  });

  it('apply --wait follows a file to indexed; kb status reports it; moved:, --target, graph and --json treat it as every kind', async () => {
    await emu.configure({ kbProcessingMs: 300 });
    await writeFile(join(dir, 'kb', 'handbook.pdf'), '%PDF-1.4 handbook\n');
    await writeFile(join(dir, 'kb', 'faq.md'), '# FAQ\n');
    await writeFile(join(dir, 'agents.yaml'), manifest({ handbook: 'kb/handbook.pdf', faq: 'kb/faq.md' }));
    const targeted = await cli(['apply', '--auto-approve', '--target', 'file.faq']);
    expect(targeted.code, targeted.stderr).toBe(0);
    expect(Object.keys((await state()).resources)).toEqual(['file.faq']);

    const applied = await cli(['apply', '--auto-approve', '--wait'], { AGENTSYNC_KB_POLL_MS: '50' });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/Indexing complete: 2 processed, 0 failed/);
    const status = await cli(['kb', 'status']);
    expect(status).toMatchObject({ code: 0, stdout: 'file.faq       indexed\nfile.handbook  indexed\n' });

    const graph = await runCli(['graph'], { cwd: dir });
    expect(graph.code, graph.stderr).toBe(0);
    expect(graph.stdout).toMatch(/file\.handbook<br\/>handbook\.pdf/);

    // A renamed key moves the state entry: nothing is uploaded again.
    await writeFile(join(dir, 'agents.yaml'), manifest({ guide: 'kb/handbook.pdf', faq: 'kb/faq.md' }, 'moved:\n  - { from: file.handbook, to: file.guide }'));
    await emu.clearRequests();
    const plan = JSON.parse((await cli(['plan', '--json'])).stdout) as { changes: { address: string; action: string }[]; moves: unknown[] };
    expect(plan.moves).toEqual([expect.objectContaining({ from: 'file.handbook', to: 'file.guide' })]);
    expect(plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    expect(await writes()).toEqual([]);
    expect(Object.keys((await state()).resources).sort()).toEqual(['file.faq', 'file.guide']);
  });

  it('a plan of an app without files does not read the knowledge-base list for them', async () => {
    await writeFile(join(dir, 'agents.yaml'), manifest({}).replace('  files:\n', '  files: {}\n'));
    await emu.clearRequests();
    const plan = await cli(['plan']);
    expect(plan.code, plan.stderr).toBe(0);
    const reads = (await emu.apiRequests('GET')).map((r) => r.path);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.filter((path) => path.startsWith('/v3/ai-agents/agent-builder/knowledge-base?'))).toEqual([]);
  });
});
