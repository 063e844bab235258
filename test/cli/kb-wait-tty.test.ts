// `apply --wait` on a terminal (docs/spec/knowledge-base.md#waiting-for-indexing): one live line,
// rewritten in place with \r, that ends as the final counts; run on a real pseudo-terminal
// (`script`), the screen checked with screen.ts.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY as KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { runCliOnTerminal } from '../support/cli.js';

const hasScript = spawnSync('script', ['--version']).status === 0;

describe.skipIf(!hasScript)('apply --wait on a terminal', () => {
  let emu: TestEmulator;
  let site: Server;
  let dir: string;
  beforeAll(async () => {
    emu = await startTestEmulator({ quiet: true, kb: { kbProcessingMs: 1500 } });
    site = createServer((req, res) => {
      const body = req.url === '/' ? Array.from({ length: 30 }, (_, i) => `<a href="/p/${i}">${i}</a>`).join('') : 'page';
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body>${body}</body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    dir = await mkdtemp(join(tmpdir(), 'agentsync-kb-tty-'));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    await writeFile(join(dir, 'agents.yaml'), `version: 1\nenvironments:\n  local: { appId: local, region: us }\nknowledgeBase:\n  websites:\n    docs: { url: "${origin}/", exclude: ["**/p/2*"] }\n`);
  });
  afterAll(async () => {
    await emu.close();
    await new Promise((resolve) => site.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('shows one live line of processed, failed and remaining counts, rewritten in place', async () => {
    const { code, raw, screen } = await runCliOnTerminal(['apply', '--auto-approve', '--wait', '--state', 'state.json'], {
      cwd: dir,
      columns: 100,
      term: 'xterm-256color',
      env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url, AGENTSYNC_KB_POLL_MS: '100' },
    });
    expect(code, raw).toBe(0);
    // Several updates were drawn, each over the last one.
    const updates = raw.split('\r\u001b[2KIndexing: ').length - 1;
    expect(updates).toBeGreaterThanOrEqual(3);
    const live = screen.filter((line) => line.startsWith('Indexing: '));
    expect(live).toHaveLength(1);
    // 31 URLs found, 11 excluded (p/2, p/20..29): 20 indexed.
    expect(live[0]).toMatch(/^Indexing: 20 processed, 0 failed, 0 remaining \(\d+s\)$/);
    expect(screen.some((line) => /^Indexing complete: 20 processed, 0 failed \(\d+s\)\.$/.test(line))).toBe(true);
  });
});
