// Round 3 of the hostile review, the CLI's own messages (issue 31 items 19, 21, 22): each case
// failed before its fix. The CLI runs in-process through runMain against the emulator on port 0.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { waitFor } from '../support/wait.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

async function project(manifest: string): Promise<{ dir: string; cli: (args: string[]) => ReturnType<typeof runCli>; write: (text: string) => Promise<void>; done: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'agentsync-round3-cli-'));
  const write = (text: string) => writeFile(join(dir, 'agents.yaml'), text);
  await write(manifest);
  return { dir, write, cli: (args) => runCli(args, { cwd: dir, env: emu.env }), done: () => rm(dir, { recursive: true, force: true }) };
}

const agents = (key: string) => `version: 1
environments:
  local: { appId: local, region: us, vars: { model: gpt-4o } }
agents:
  ${key}: { name: Round Three Helper, integrationType: llm, integrateWith: "\${var.model}" }
`;

describe('item 19: a key renamed without moved:', () => {
  it('plan says what apply says (moved: or state mv), never to import', async () => {
    await emu.reset();
    const p = await project(agents('helper'));
    try {
      expect((await p.cli(['apply', '--auto-approve'])).code).toBe(0);
      await p.write(agents('assistant'));
      const plan = await p.cli(['plan']);
      expect(plan.code).toBe(1);
      expect(plan.stderr).toContain('add `moved: [{ from: agent.helper, to: agent.assistant }]` to the manifest, or run `agentsync state mv agent.helper agent.assistant`');
      expect(plan.stderr).not.toContain('agentsync import');
      const apply = await p.cli(['apply', '--auto-approve']);
      expect(apply.code).toBe(1);
      expect(apply.stderr).toContain('agentsync state mv agent.helper agent.assistant');
    } finally {
      await p.done();
    }
  });
});

describe('item 21: an undeclared --var', () => {
  it('is refused with the name it probably meant, as Terraform does; a declared one still works', async () => {
    const p = await project(agents('helper'));
    try {
      const typo = await p.cli(['validate', '--var', 'modle=gpt-4o-mini']);
      expect(typo.code).toBe(1);
      expect(typo.stderr).toContain('--var modle: environment "local" declares no var "modle"; did you mean "model"?');
      const offline = await p.cli(['plan', '--offline', '--var', 'modle=gpt-4o-mini']);
      expect(offline.code).toBe(1);
      expect((await p.cli(['validate', '--var', 'model=gpt-4o-mini'])).code).toBe(0);
    } finally {
      await p.done();
    }
  });
});

describe('item 22: the server lost during apply --wait', () => {
  it('says the apply is complete and recorded and points at kb status, not "internal error"', async () => {
    // An emulator of its own, so that closing it leaves the others alone.
    const own = await startTestEmulator({ kb: { kbProcessingMs: 60_000 } });
    const dir = await mkdtemp(join(tmpdir(), 'agentsync-round3-wait-'));
    let closed = false;
    try {
      await writeFile(
        join(dir, 'agents.yaml'),
        `version: 1
environments:
  local: { appId: local, region: us }
knowledgeBase:
  websites:
    docs: { url: "${own.origin}/__emulator/sites/docs/", maxPages: 3 }
`,
      );
      const run = runCli(['apply', '--auto-approve', '--wait', '--retries', '0'], { cwd: dir, env: { ...own.env, AGENTSYNC_KB_POLL_MS: '50' } });
      await waitFor('the wait to start polling', async () => (await own.apiRequests('POST')).some((r) => r.path.includes('discovered-urls/status')), { timeoutMs: 20_000, intervalMs: 20 });
      await own.close();
      closed = true;
      const result = await run;
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('Apply complete');
      expect(result.stderr).toMatch(/^Error: waiting for indexing stopped: .*the apply itself is complete and recorded; follow the indexing with `agentsync kb status`$/m);
      expect(result.stderr).not.toContain('internal error');
    } finally {
      if (!closed) await own.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('item 25 (part): the small words', () => {
  it('state mv says "an agent"; --yes points at --auto-approve; a busy port points at --port 0', async () => {
    await emu.reset();
    const p = await project(agents('helper'));
    try {
      expect((await p.cli(['apply', '--auto-approve'])).code).toBe(0);
      const mv = await p.cli(['state', 'mv', 'agent.helper', 'tool.helper']);
      expect(mv.code).toBe(1);
      expect(mv.stderr).toBe('Error: agent.helper is an agent, so it cannot become tool.helper; an address keeps its type\n');
      const yes = await p.cli(['apply', '--yes']);
      expect(yes.code).toBe(1);
      expect(yes.stderr).toBe("Error: unknown option '--yes'; did you mean --auto-approve?\n");
      const port = new URL(emu.origin).port;
      const busy = await p.cli(['emulator', '--port', port]);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toMatch(/^Error: Cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE.*pass --port 0 to take a free one\)\n$/);
    } finally {
      await p.done();
    }
  });
});

describe('item 23: a wrong base URL', () => {
  it('a wrong path names the URL it asked and says the base usually ends in /v3', async () => {
    const p = await project(agents('helper'));
    try {
      const result = await runCli(['plan'], { cwd: p.dir, env: { ...emu.env, AGENTSYNC_BASE_URL: `${emu.origin}/api` } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`(asked ${emu.origin}/api/ai-agents/tools). Check the base URL ${emu.origin}/api`);
      expect(result.stderr).toContain('It usually ends in /v3');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      await p.done();
    }
  });

  it("https:// to a plain-HTTP port says so in words, not in OpenSSL's", async () => {
    const p = await project(agents('helper'));
    try {
      const result = await runCli(['plan', '--json'], { cwd: p.dir, env: { ...emu.env, AGENTSYNC_BASE_URL: emu.url.replace('http://', 'https://') } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('did not answer TLS: the base URL says https://, but the server there speaks plain HTTP');
      expect(result.stderr).not.toMatch(/wrong version number|ssl3_get_record|SSL routines/i);
    } finally {
      await p.done();
    }
  });
});

describe('item 25 (part): init', () => {
  it('in a folder whose agents.yaml it keeps, suggests no environment the file may not have; it never suggests a bare npx', async () => {
    const p = await project('version: 1\nenvironments:\n  prod: { appId: acme, region: eu }\n');
    try {
      const result = await p.cli(['init']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('skipped (it exists; init never overwrites) agents.yaml');
      expect(result.stdout).toMatch(/^ {2}npx --no-install agentsync plan +# what apply would change/m);
      expect(result.stdout).not.toContain('-e local');
      expect(result.stdout).not.toMatch(/(^|\s)npx agentsync/m);
    } finally {
      await p.done();
    }
  });
});
