// Many environments at once (docs/spec/state.md#many-environments) through the built CLI: three
// emulators on port 0, one per environment, each with its own API key, reached through each
// environment's baseUrl. The CLI runs in this process (runCli); the confirmation prompt too, on
// streams that say they are a terminal.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/emulator/index.js';
import { runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';

const NAMES = ['us', 'eu', 'in'] as const;
type Name = (typeof NAMES)[number];
const keyOf = (name: string) => `key-${name}-7c1f`;

const emulators = {} as Record<Name, TestEmulator>;
let failing: Server;
let failingUrl: string;
let dir: string;
const env: NodeJS.ProcessEnv = Object.fromEntries(NAMES.map((name) => [`KEY_${name.toUpperCase()}`, keyOf(name)]));

beforeAll(async () => {
  for (const name of NAMES) emulators[name] = await startTestEmulator({ apiKey: keyOf(name), appId: `app-${name}` });
  // A server that answers every call with a 500, to stand for one environment's broken API.
  failing = createServer((_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ statusCode: 500, message: 'the database is down', error: 'Internal Server Error' }));
  });
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
  failingUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/v3`;
});
afterAll(async () => {
  for (const name of NAMES) await emulators[name].close();
  await new Promise((resolve) => failing.close(resolve));
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-multienv-'));
  for (const name of NAMES) {
    await emulators[name].reset();
  }
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function requests(name: Name): Promise<RequestLogEntry[]> {
  return emulators[name].apiRequests();
}

async function serverTools(name: Name): Promise<string[]> {
  const res = await fetch(`${emulators[name].url}/ai-agents/tools`, { headers: { apikey: keyOf(name) } });
  // search_web is the emulator's seed tool, on every server.
  return ((await res.json()) as { name: string }[])
    .map((t) => t.name)
    .filter((name) => name !== 'search_web')
    .sort();
}

async function serverAgents(name: Name): Promise<{ name: string; actions: string[]; metaData?: unknown }[]> {
  const res = await fetch(`${emulators[name].url}/ai-agents/agents`, { headers: { apikey: keyOf(name) } });
  return (await res.json()) as { name: string; actions: string[]; metaData?: unknown }[];
}

/** Three environments, each on its own emulator with its own key; `urls` can point one elsewhere. */
async function writeManifest(urls: Partial<Record<Name, string>> = {}): Promise<void> {
  const environments = NAMES.map((name) => {
    const vars =
      name === 'in' ? '{ shared: [t_common] }' : name === 'eu' ? '{ shared: [t_common, t_eu], meta: { tier: silver } }' : '{ shared: [t_common, t_us], meta: { tier: gold, limits: { rpm: 10 } } }';
    return `  ${name}: { appId: app-${name}, region: ${name}, baseUrl: "${urls[name] ?? emulators[name].url}", apiKeyEnv: KEY_${name.toUpperCase()}, vars: ${vars} }`;
  });
  const text = `version: 1
environments:
${environments.join('\n')}
tools:
  t_common: { displayName: Common, executionText: Working, description: Everywhere, parameters: {} }
  t_us: { displayName: US, executionText: Working, description: Only us, parameters: {}, environments: [us] }
  t_eu: { displayName: EU, executionText: Working, description: Only eu, parameters: {}, environments: [eu] }
agents:
  helper:
    name: Helper
    integrationType: llm
    integrateWith: gpt-4o
    actions: \${var.shared}
    metaData: \${var.meta}
    environments: [us, eu]
`;
  await writeFile(join(dir, 'agents.yaml'), text);
}

const cli = (...args: string[]) => runCli(args, { cwd: dir, env });

/**
 * Runs apply with streams that say they are a terminal (so it asks) and answers its question;
 * returns everything it printed, stdout then stderr, and how often it asked.
 */
async function applyOnTerminal(answer: string, ...args: string[]): Promise<{ code: number | null; output: string; questions: number }> {
  const { code, stdout, stderr } = await runCli(['apply', ...args], { cwd: dir, env, stdin: `${answer}\n`, tty: { stdin: true, stdout: true, stderr: true } });
  const output = stdout + stderr;
  return { code, output, questions: output.split('Do you want to apply').length - 1 };
}
const lastLines = (text: string, n: number) => text.trimEnd().split('\n').slice(-n);

describe('plan over several environments', () => {
  it('prints one [env]-prefixed section per environment and a closing table', async () => {
    await writeManifest();
    const result = await cli('plan', '--all-environments');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const name of NAMES) {
      const lines = result.stdout.split('\n').filter((line) => line.startsWith(`[${name}]`));
      expect(lines[0]).toBe(`[${name}] === Environment "${name}" (app app-${name}, region ${name}) ===`);
      // Each environment's plan names the URL it applies to.
      expect(lines.find((line) => line.startsWith(`[${name}] Target:`))).toContain(` at ${emulators[name].url}`);
      // Every line of an environment's section carries its prefix, down to its summary line.
      expect(lines.at(-1)).toMatch(new RegExp(`^\\[${name}\\] Plan: \\d+ to create, 0 to update, 0 to forget\\.$`));
    }
    expect(result.stdout).toContain('[eu]   + tool.t_eu');
    expect(result.stdout).not.toMatch(/\[(us|in)\] {3}\+ tool\.t_eu/);
    expect(lastLines(result.stdout, 5)).toEqual([
      'Environment  Create  Update  Forget  Unchanged',
      'us                3       0       0          0',
      'eu                3       0       0          0',
      'in                1       0       0          0',
      '3 environments: 3 with changes, 0 without.',
    ]);
    // Each environment read its own server (the refresh), with its own key: the lists of the kinds its
    // manifest has (the agent is only in us and eu), not of the kinds neither it nor the state has.
    for (const name of NAMES) {
      const lists = name === 'in' ? ['GET /v3/ai-agents/tools'] : ['GET /v3/ai-agents/agents', 'GET /v3/ai-agents/tools'];
      expect((await requests(name)).map((r) => `${r.method} ${r.path}`).sort()).toEqual(lists);
    }
  });

  it('accepts -e repeated and as a comma list, and lists the environments in manifest order', async () => {
    await writeManifest();
    const repeated = await cli('plan', '-e', 'in', '-e', 'us', '--offline');
    const listed = await cli('plan', '-e', 'in,us', '--offline');
    expect(repeated.code).toBe(0);
    expect(listed.stdout, `stderr: ${listed.stderr}; exit ${listed.code}`).toBe(repeated.stdout);
    expect(lastLines(repeated.stdout, 3)).toEqual(['us                3       0       0          0', 'in                1       0       0          0', '2 environments: 2 with changes, 0 without.']);
    expect(repeated.stdout.indexOf('[us]')).toBeLessThan(repeated.stdout.indexOf('[in]'));
    expect(repeated.stdout).not.toContain('[eu]');
  });

  it('keeps one environment exactly as before: no prefix, no header, no table', async () => {
    await writeManifest();
    const single = await cli('plan', '-e', 'eu', '--offline');
    expect(single.code).toBe(0);
    expect(single.stdout).not.toContain('[eu]');
    expect(single.stdout).not.toContain('=== Environment');
    expect(single.stdout.trimEnd().split('\n').at(-1)).toBe('Plan: 3 to create, 0 to update, 0 to forget.');
    // The same environment named twice is one environment.
    expect((await cli('plan', '-e', 'eu', '-e', 'eu', '--offline')).stdout).toBe(single.stdout);
    // --all-environments of a one-environment manifest is that plan, byte for byte.
    await writeFile(
      join(dir, 'one.yaml'),
      `version: 1\nenvironments:\n  solo: { appId: app-us, region: us, baseUrl: "${emulators.us.url}", apiKeyEnv: KEY_US }\ntools:\n  t: { displayName: T, executionText: t, doNotExecute: true }\n`,
    );
    const plain = await cli('plan', '-f', 'one.yaml', '--offline');
    const all = await cli('plan', '-f', 'one.yaml', '--offline', '--all-environments');
    expect(all.stdout).toBe(plain.stdout);
    expect(all.code).toBe(plain.code);
  });

  it('gives one JSON document with every environment plan', async () => {
    await writeManifest({ eu: failingUrl });
    const result = await cli('plan', '--all-environments', '--json');
    expect(result.code).toBe(1);
    const doc = JSON.parse(result.stdout) as { formatVersion: number; environments: Record<string, unknown>[] };
    expect(Object.keys(doc)).toEqual(['formatVersion', 'environments']);
    expect(doc.formatVersion).toBe(1);
    expect(doc.environments.map((e) => e.environment)).toEqual(['us', 'eu', 'in']);
    expect(doc.environments[0]).toMatchObject({ formatVersion: 1, appId: 'app-us', region: 'us', refreshed: true, summary: { create: 3, update: 0, replace: 0, delete: 0, forget: 0, noop: 0 } });
    expect(doc.environments[2]).toMatchObject({ environment: 'in', summary: { create: 1 } });
    expect(doc.environments[1]).toMatchObject({ environment: 'eu', ok: false, error: { code: 'api_error', message: expect.stringContaining('the database is down') } });
    expect(result.stderr).toMatch(/^\[eu\] Error: .*the database is down/m);
  });

  it('combines exit codes: 2 when any has changes, 1 when any failed, 0 when none has changes', async () => {
    await writeManifest();
    expect((await cli('plan', '--all-environments', '--detailed-exitcode')).code).toBe(2);
    expect((await cli('apply', '--all-environments', '--auto-approve')).code).toBe(0);
    const clean = await cli('plan', '--all-environments', '--detailed-exitcode');
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('[us] No changes. Environment "us" matches the manifest.');
    expect(lastLines(clean.stdout, 1)).toEqual(['3 environments: 0 with changes, 3 without.']);
    await writeManifest({ in: failingUrl });
    const broken = await cli('plan', '--all-environments', '--detailed-exitcode');
    expect(broken.code).toBe(1);
    expect(lastLines(broken.stdout, 3)[1]).toBe("in           failed: could not read the server's tools: GET /ai-agents/tools answered 500: the database is down");
  });

  it('writes one markdown document: a summary table and a collapsible plan per environment, within GitHub limits', async () => {
    const tools = Array.from({ length: 1500 }, (_, i) => `  tool_${i}: { displayName: "Tool ${i}", executionText: Working, description: "${'A long description. '.repeat(8)}", parameters: {} }`);
    const environments = NAMES.map((name) => `  ${name}: { appId: app-${name}, region: ${name} }`);
    await writeFile(join(dir, 'agents.yaml'), `version: 1\nenvironments:\n${environments.join('\n')}\ntools:\n${tools.join('\n')}\n`);
    const result = await cli('plan', '--all-environments', '--offline', '--format', 'markdown');
    expect(result.code).toBe(0);
    const md = result.stdout;
    expect(md.length).toBeLessThanOrEqual(60_000);
    expect(md.startsWith('### agentsync plan for 3 environments\n\n| Environment | Create | Update | Forget | Unchanged |\n| :-- | --: | --: | --: | --: |\n| `us` | 1500 | 0 | 0 | 0 |')).toBe(true);
    for (const name of NAMES) {
      expect(md).toContain(`<details><summary><code>${name}</code>: Plan: 1500 to create, 0 to update, 0 to forget.</summary>`);
      expect(md).toContain(`### agentsync plan for environment \`${name}\``);
    }
    // Each environment got a fair share: every one shows some resources and says how many it left out.
    expect(md.match(/more resources not shown/g)).toHaveLength(3);
  });

  it('refuses --out with several environments, an unknown -e and a shared --state, before any call', async () => {
    await writeManifest();
    const out = await cli('plan', '--all-environments', '--out', 'plan.json');
    expect(out.code).toBe(1);
    expect(out.stderr).toBe('Error: --out saves the plan of one environment; with several, save one plan per environment (agentsync plan -e NAME --out FILE)\n');
    const unknown = await cli('plan', '-e', 'us', '-e', 'euu,xyz');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('Error: -e euu, -e xyz: unknown environments "euu" (did you mean "eu"?), "xyz"; the manifest defines us, eu, in\n');
    const shared = await cli('plan', '-e', 'us,eu', '--state', 'one.json');
    expect(shared.code).toBe(1);
    expect(shared.stderr).toMatch(/^Error: environments "us" and "eu" would share one state \(from --state\); with several environments leave --state out/);
    const both = await cli('plan', '-e', 'us', '--all-environments');
    expect(both.stderr).toBe('Error: use either -e or --all-environments, not both\n');
    const other = await cli('state', 'list', '-e', 'us', '-e', 'eu');
    expect(other.code).toBe(1);
    expect(other.stderr).toBe('Error: -e can be given once here (got "us" and "eu"); only plan and apply take several environments\n');
    for (const name of NAMES) expect(await requests(name)).toEqual([]);
  });
});

describe('apply over several environments', () => {
  it('applies each environment to its own server and state, with per-resource environments and list/map vars', async () => {
    await writeManifest();
    const result = await cli('apply', '--all-environments', '--auto-approve');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(lastLines(result.stdout, 5)).toEqual([
      'Environment  Created  Updated  Forgotten',
      'us                 3        0          0',
      'eu                 3        0          0',
      'in                 1        0          0',
      'Apply complete in 3 environments: 7 created, 0 updated, 0 forgotten.',
    ]);
    // Progress lines in CI carry the prefix too, and each section ends with its own summary.
    expect(result.stdout).toMatch(/^\[eu\] created tool\.t_eu \(POST/m);
    for (const name of NAMES) expect(result.stdout).toContain(`[${name}] Apply complete:`);

    expect(await serverTools('us')).toEqual(['t_common', 't_us']);
    expect(await serverTools('eu')).toEqual(['t_common', 't_eu']);
    expect(await serverTools('in')).toEqual(['t_common']);
    expect(await serverAgents('in')).toEqual([]);
    const [usAgent] = await serverAgents('us');
    expect(usAgent).toMatchObject({ name: 'Helper', actions: ['t_common', 't_us'], metaData: { tier: 'gold', limits: { rpm: 10 } } });
    expect((await serverAgents('eu'))[0]).toMatchObject({ actions: ['t_common', 't_eu'], metaData: { tier: 'silver' } });
    // The `environments` key is never sent.
    for (const name of NAMES) for (const r of await requests(name)) expect(JSON.stringify(r.body ?? {})).not.toContain('environments');

    for (const name of NAMES) {
      const state = JSON.parse(await readFile(join(dir, '.agentsync', `${name}.state.json`), 'utf8')) as { resources: Record<string, unknown>; target?: { appId: string } };
      expect(Object.keys(state.resources).sort()).toEqual(name === 'in' ? ['tool.t_common'] : ['agent.helper', 'tool.t_common', `tool.t_${name}`].sort());
    }
    const again = await cli('apply', '--all-environments', '--auto-approve');
    expect(again.code).toBe(0);
    expect(lastLines(again.stdout, 1)).toEqual(['Apply complete in 3 environments: 0 created, 0 updated, 0 forgotten.']);
  });

  it('finishes and records the other environments when one answers 500s', async () => {
    await writeManifest({ eu: failingUrl });
    const result = await cli('apply', '--all-environments', '--auto-approve');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("[eu] Error: could not read the server's tools: GET /ai-agents/tools answered 500: the database is down\n");
    expect(lastLines(result.stdout, 5)).toEqual([
      'Environment  Created  Updated  Forgotten',
      'us                 3        0          0',
      "eu           failed: could not read the server's tools: GET /ai-agents/tools answered 500: the database is down",
      'in                 1        0          0',
      'Apply failed in 1 of 3 environments (eu). The others completed: 4 created, 0 updated, 0 forgotten.',
    ]);
    expect(await serverTools('us')).toEqual(['t_common', 't_us']);
    expect(await serverTools('in')).toEqual(['t_common']);
    const us = JSON.parse(await readFile(join(dir, '.agentsync', 'us.state.json'), 'utf8')) as { resources: Record<string, unknown> };
    expect(Object.keys(us.resources)).toHaveLength(3);
    await expect(readFile(join(dir, '.agentsync', 'eu.state.json'), 'utf8')).rejects.toThrow(/ENOENT/);

    // Once eu is reachable again, the next run does only eu's work.
    await writeManifest();
    const rerun = await cli('apply', '--all-environments', '--auto-approve', '--json');
    expect(rerun.code).toBe(0);
    const doc = JSON.parse(rerun.stdout) as { formatVersion: number; environments: { environment: string; ok: boolean; summary: { created: number } }[] };
    expect(doc.formatVersion).toBe(1);
    expect(doc.environments.map((e) => [e.environment, e.ok, e.summary.created])).toEqual([
      ['us', true, 0],
      ['eu', true, 3],
      ['in', true, 0],
    ]);
  });

  it('skips an environment whose state is locked by another run, and applies the rest', async () => {
    await writeManifest();
    await mkdir(join(dir, '.agentsync'), { recursive: true });
    const lock = { pid: process.pid, host: hostname(), since: new Date().toISOString(), token: 'held-by-the-test' };
    await writeFile(join(dir, '.agentsync', 'in.state.json.lock'), JSON.stringify(lock) + '\n');
    const result = await cli('apply', '-e', 'us,in', '--auto-approve', '--json');
    expect(result.code).toBe(1);
    const doc = JSON.parse(result.stdout) as { environments: Record<string, unknown>[] };
    expect(doc.environments[0]).toMatchObject({ environment: 'us', ok: true, summary: { created: 3 } });
    expect(doc.environments[1]).toMatchObject({ environment: 'in', ok: false, error: { code: 'state_locked', message: expect.stringContaining(`pid ${process.pid}`) } });
    expect(await serverTools('us')).toEqual(['t_common', 't_us']);
    expect(await requests('in')).toEqual([]);
    // The lock that was not ours is still there.
    expect(JSON.parse(await readFile(join(dir, '.agentsync', 'in.state.json.lock'), 'utf8'))).toEqual(lock);
  });

  it('marks an environment whose apply failed part-way, with what it did', async () => {
    await writeManifest();
    // A tool that only eu's server has: us's server refuses the agent that names it (400), after us's tools are done.
    const eu = emulators.eu;
    await fetch(`${eu.url}/ai-agents/tools`, {
      method: 'POST',
      headers: { apikey: keyOf('eu'), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'placeholder', displayName: 'P', executionText: 'p', description: 'p', doNotExecute: true }),
    });
    await writeFile(
      join(dir, 'agents.yaml'),
      (await readFile(join(dir, 'agents.yaml'), 'utf8'))
        .replace('integrateWith: gpt-4o', 'integrateWith: gpt-4o\n    tools: [placeholder]')
        .replace('agents:', 'external: { tools: [placeholder] }\nagents:'),
    );
    await fetch(`${eu.origin}/__emulator/requests`, { method: 'DELETE' });
    // placeholder exists on eu only, so us's server answers 400 for the agent: us fails part-way.
    const result = await cli('apply', '-e', 'us', '-e', 'eu', '--auto-approve');
    expect(result.code).toBe(1);
    expect(lastLines(result.stdout, 4)).toEqual([
      'Environment  Created  Updated  Forgotten',
      'us           failed: apply failed: 1 failed, 0 not attempted; 2 changes were applied and recorded',
      'eu                 3        0          0',
      'Apply failed in 1 of 2 environments (us). The others completed: 3 created, 0 updated, 0 forgotten.',
    ]);
    const us = JSON.parse(await readFile(join(dir, '.agentsync', 'us.state.json'), 'utf8')) as { resources: Record<string, unknown> };
    expect(Object.keys(us.resources).sort()).toEqual(['tool.t_common', 'tool.t_us']);
  });

  it('refuses without --auto-approve when stdin is not a terminal, a saved plan and --wait with several environments, before any call', async () => {
    await writeManifest();
    const ask = await cli('apply', '--all-environments');
    expect(ask.code).toBe(1);
    expect(ask.stderr).toBe('Error: stdin is not a terminal, so apply cannot ask for confirmation; pass --auto-approve to apply without asking\n');
    const saved = await cli('apply', 'plan.json', '-e', 'us,eu', '--auto-approve');
    expect(saved.code).toBe(1);
    expect(saved.stderr).toBe('Error: a saved plan holds one environment; apply plan.json on its own (agentsync apply plan.json), without several -e or --all-environments\n');
    const wait = await cli('apply', '--all-environments', '--auto-approve', '--wait');
    expect(wait.code).toBe(1);
    expect(wait.stderr).toBe('Error: --wait follows the indexing of one environment; with several, run agentsync apply -e NAME --wait for each (or agentsync kb status -e NAME afterwards)\n');
    for (const name of NAMES) expect(await requests(name)).toEqual([]);
  });

  it('asks once for every environment on a terminal, then applies them all', async () => {
    await writeManifest();
    const declined = await applyOnTerminal('no', '--all-environments');
    expect(declined.code).toBe(1);
    expect(declined.questions).toBe(1);
    expect(declined.output).toContain('Do you want to apply these changes to 3 environments (us, eu, in)?');
    expect(declined.output).toContain('Error: apply cancelled; nothing was changed');
    for (const name of NAMES) expect((await requests(name)).filter((r) => r.method !== 'GET')).toEqual([]);

    const accepted = await applyOnTerminal('yes', '--all-environments');
    expect(accepted.code).toBe(0);
    expect(accepted.questions).toBe(1);
    // On a terminal, sections are whole blocks under their header, without prefixes.
    expect(accepted.output).toContain('=== Environment "eu" (app app-eu, region eu) ===');
    expect(accepted.output).not.toContain('[eu] ');
    expect(accepted.output).toContain('Apply complete in 3 environments: 7 created, 0 updated, 0 forgotten.');
    expect(await serverTools('eu')).toEqual(['t_common', 't_eu']);
  });

  it('works on --parallel environments at a time', async () => {
    await writeManifest();
    for (const name of NAMES) await emulators[name].configure({ latencyMs: 20 });
    try {
      const result = await cli('apply', '--all-environments', '--auto-approve', '--parallel', '1');
      expect(result.code).toBe(0);
      // One environment at a time: the servers' busy spans never overlap.
      const spans = await Promise.all(
        NAMES.map(async (name) => {
          const log = await requests(name);
          return { name, start: Math.min(...log.map((r) => Date.parse(r.time))), end: Math.max(...log.map((r) => Date.parse(r.time) + (r.durationMs ?? 0))) };
        }),
      );
      spans.sort((a, b) => a.start - b.start);
      for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end);
    } finally {
      for (const name of NAMES) await emulators[name].configure({ latencyMs: 0 });
    }
    const bad = await cli('apply', '--all-environments', '--auto-approve', '--parallel', '0');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('Error: --parallel must be a whole number from 1 to 64 (got "0")\n');
  });

  it('never prints or stores an API key or a secret', async () => {
    await writeManifest();
    const manifest = await readFile(join(dir, 'agents.yaml'), 'utf8');
    await writeFile(join(dir, 'agents.yaml'), manifest.replace('description: Everywhere', 'description: "Token ${secret:SHARED_TOKEN}"'));
    const secretEnv = { ...env, SHARED_TOKEN: 'tok-9d8e7f-secret' };
    const result = await runCli(['apply', '--all-environments', '--auto-approve'], { cwd: dir, env: secretEnv });
    const json = await runCli(['plan', '--all-environments', '--json'], { cwd: dir, env: secretEnv });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('(sensitive)');
    const states = await Promise.all(NAMES.map((name) => readFile(join(dir, '.agentsync', `${name}.state.json`), 'utf8')));
    for (const text of [result.stdout, result.stderr, json.stdout, json.stderr, ...states]) {
      expect(text).not.toContain('tok-9d8e7f-secret');
      for (const name of NAMES) expect(text).not.toContain(keyOf(name));
    }
  });
});
