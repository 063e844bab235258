// Issue 40 §2.11: a server may list one discovered-URL id under a second URL (a twin). Excluding
// either URL excludes the id: the apply sends it in `exclude`, so the server never processes it,
// and the plan names the duplicate. The emulator lists twins through its `kbTwinUrls` knob, so all
// of it goes over real HTTP.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY as KEY, startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { runCli, type CliResult } from '../support/cli.js';

const DEMO = 'https://docs.example.com';

interface Listed {
  uniqueId: string;
  url: string;
  status: string;
}

describe('a discovered URL listed under two URLs', () => {
  let emu: TestEmulator;
  let dir: string;
  const cli = (args: string[]): Promise<CliResult> => runCli([...args, '--state', 'state.json'], { cwd: dir, env: { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url } });
  const manifest = (exclude: string): string =>
    ['version: 1', 'environments:', '  local: { appId: local, region: us }', 'knowledgeBase:', '  websites:', '    docs:', `      url: ${DEMO}`, `      exclude: ${exclude}`, ''].join('\n');
  const listed = async (): Promise<Listed[]> => {
    const id = (JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { resources: Record<string, { remoteId: string }> }).resources['website.docs']?.remoteId ?? '';
    return (await emu.get<{ data: Listed[] }>(`/ai-agents/agent-builder/knowledge-base/website/${id}/discovered-urls?limit=100`)).data;
  };

  beforeAll(async () => {
    emu = await startTestEmulator({ quiet: true, kb: { kbProcessingMs: 0 } });
  });
  afterAll(async () => {
    await emu.close();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentsync-kb-twins-'));
    await emu.reset();
    await emu.configure({ kbTwinUrls: [`${DEMO}/faq ${DEMO}/old/faq`] });
    return async () => {
      await emu.configure({ kbTwinUrls: [] });
      await rm(dir, { recursive: true, force: true });
    };
  });

  it('a glob matching only the twin excludes the id: it is sent in exclude, never processed, and the plan names it', async () => {
    await writeFile(join(dir, 'agents.yaml'), manifest('["**/old/**"]'));
    const applied = await cli(['apply', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);

    const urls = await listed();
    const faq = urls.filter((entry) => entry.url.endsWith('/faq'));
    // The emulator really lists the id twice, under both URLs.
    expect(faq.map((entry) => entry.url)).toEqual([`${DEMO}/faq`, `${DEMO}/old/faq`]);
    expect(faq[0]?.uniqueId).toBe(faq[1]?.uniqueId);
    const process = (await emu.apiRequests('POST')).filter((entry) => entry.path.endsWith('/discovered-urls/process'));
    expect(process.map((entry) => entry.body)).toEqual([{ exclude: [faq[0]?.uniqueId] }]);
    expect(faq.map((entry) => entry.status)).toEqual(['skipped', 'skipped']);
    expect(urls.filter((entry) => entry.status === 'processed')).toHaveLength(16);

    const plan = await cli(['plan', '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.stdout).toContain(
      `website.docs: discovered URL ${faq[0]?.uniqueId} is listed under 2 URLs; it stays excluded, as "**/old/**" matches ${DEMO}/old/faq, so ${DEMO}/faq is not processed either`,
    );
    expect(plan.stdout).not.toContain('matches none');
    const json = JSON.parse((await cli(['plan', '--json'])).stdout) as { websites: { urls: number; excluded: number; globs: { excludes: number }[] }[] };
    expect(json.websites[0]).toMatchObject({ urls: 17, excluded: 1, globs: [{ excludes: 1 }] });

    const status = await cli(['kb', 'status', 'website.docs', '--urls']);
    expect(status.stdout).toMatch(/website\.docs: 17 URLs \(0 discovered, 0 processing, 16 processed, 0 failed, 1 skipped\)/);
    expect(status.stdout).toContain(`  skipped     ${DEMO}/faq (also listed as ${DEMO}/old/faq)  excluded by "**/old/**"`);
  });

  it('a glob matching the listed URL excludes its twin too; a twin no glob matches changes nothing', async () => {
    await writeFile(join(dir, 'agents.yaml'), manifest('["**/faq"]'));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const faq = (await listed()).filter((entry) => entry.url.endsWith('/faq'));
    expect(faq.map((entry) => entry.status)).toEqual(['skipped', 'skipped']);
    const plan = await cli(['plan']);
    // "**/faq" matches both URLs: nothing is split, so nothing to name.
    expect(plan.stdout).not.toContain('is listed under');

    await writeFile(join(dir, 'agents.yaml'), manifest('["**/blog/**"]'));
    const changed = await cli(['plan']);
    expect(changed.stdout).not.toContain('is listed under');
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    expect((await listed()).filter((entry) => entry.url.endsWith('/faq')).map((entry) => entry.status)).toEqual(['processed', 'processed']);
  });

  it('the knob refuses an entry that is not two URLs, in one line', async () => {
    const refused = await emu.admin('POST', '/config', { kbTwinUrls: [`${DEMO}/faq`] });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.json)).toContain('kbTwinUrls');
  });
});
