// Issue 13, "a newcomer's first hour": each rough edge, through the built CLI against the emulator
// on port 0. The terminal behaviour (rows 1 and 2) is in terminal.test.ts.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';

const ROOT = join(import.meta.dirname, '..', '..');
const KEY = 'local-dev-key';

let emu: TestEmulator;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  emu = await startTestEmulator({ apiKey: KEY });
});
afterAll(async () => {
  await emu.close();
});
beforeEach(async () => {
  await emu.reset();
  dir = mkdtempSync(join(tmpdir(), 'agentsync-first-hour-'));
  env = { COMETCHAT_API_KEY: KEY, AGENTSYNC_BASE_URL: emu.url };
  return () => rmSync(dir, { recursive: true, force: true });
});

const cli = (args: readonly string[], extra: NodeJS.ProcessEnv = env) => runCli(args, { cwd: dir, env: extra });

async function serverAgents(): Promise<{ name: string }[]> {
  const res = await fetch(`${emu.url}/ai-agents/agents`, { headers: { apikey: KEY } });
  return (await res.json()) as { name: string }[];
}

const TWO_ENVS = `version: 1
environments:
  us: { appId: acme-us, region: us }
  eu: { appId: acme-eu, region: eu }
tools:
  lookup: { displayName: Lookup, executionText: Looking, doNotExecute: true }
`;

describe('row 3: the plan header says where the plan applies', () => {
  it('names the environment, app, region and base URL, and marks an AGENTSYNC_BASE_URL override', async () => {
    expect((await cli(['init'])).code).toBe(0);
    const overridden = await cli(['plan']);
    expect(overridden.code).toBe(0);
    expect(overridden.stdout.split('\n')[0]).toBe(`Target: environment "local" (app local, region us) at ${emu.url}, from AGENTSYNC_BASE_URL`);

    const manifest = readFileSync(join(dir, 'agents.yaml'), 'utf8').replace('http://127.0.0.1:4010/v3', emu.url);
    writeFileSync(join(dir, 'agents.yaml'), manifest);
    const own = await cli(['plan'], { COMETCHAT_API_KEY: KEY });
    expect(own.stdout.split('\n')[0]).toBe(`Target: environment "local" (app local, region us) at ${emu.url}`);
  });

  it('never prints a password in the base URL', async () => {
    await cli(['init']);
    const result = await cli(['plan', '--offline'], { AGENTSYNC_BASE_URL: 'http://deploy:Hunter2Pass@127.0.0.1:9/v3' });
    // Credentials in a base URL are refused outright; the refusal shows the URL masked.
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('http://deploy:***@127.0.0.1:9/v3');
    expect(result.stdout + result.stderr).not.toContain('Hunter2Pass');
  });
});

describe('row 5: plan output flags mean what they say', () => {
  beforeEach(async () => {
    await cli(['init']);
  });

  it('--format markdown --out writes markdown, says it cannot be applied, and apply refuses it clearly', async () => {
    const result = await cli(['plan', '--format', 'markdown', '--out', 'plan.md']);
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'plan.md'), 'utf8')).toMatch(/^### agentsync plan for environment `local`/);
    expect(result.stdout).toContain('Saved the markdown plan to plan.md. It is for reading');
    const applied = await cli(['apply', 'plan.md']);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toBe(
      'Error: plan.md is not a plan file agentsync can apply (it looks like a plan rendered for reading, with --format text or markdown); save one with `agentsync plan --out plan.json` (without --format) and apply that\n',
    );
    expect(await serverAgents()).toEqual([]);
  });

  it('--format text --out writes the text plan; --out without --format writes the plan file apply takes', async () => {
    await cli(['plan', '--format', 'text', '--out', 'plan.txt']);
    expect(readFileSync(join(dir, 'plan.txt'), 'utf8')).toContain('Plan: 2 to create, 0 to update, 0 to forget.');
    const saved = await cli(['plan', '--out', 'plan.json']);
    expect(saved.stdout).toContain('Saved the plan to plan.json. Apply exactly it with: agentsync apply plan.json');
    expect(JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8'))).toMatchObject({ formatVersion: 1, savedPlan: { kind: 'agentsync-plan' } });
    await cli(['plan', '--format', 'json', '--out', 'plan2.json']);
    expect(JSON.parse(readFileSync(join(dir, 'plan2.json'), 'utf8'))).toMatchObject({ savedPlan: { kind: 'agentsync-plan' } });
  });

  it.each([
    [['--json', '--format', 'markdown'], '--json means --format json, so it cannot be combined with --format markdown; pass one of them'],
    [['--json', '--format', 'text'], '--json means --format json, so it cannot be combined with --format text; pass one of them'],
    [['--format', 'markdwon'], '--format must be one of text, json, markdown (got "markdwon"); did you mean "markdown"?'],
  ])('plan %j is a usage error', async (flags, message) => {
    const result = await cli(['plan', ...flags]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`Error: ${message}\n`);
  });

  it('--json with --format json is fine', async () => {
    const result = await cli(['plan', '--json', '--format', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ formatVersion: 1 });
  });

  it('each command lists only the options it uses', async () => {
    const help = async (...command: string[]) => (await cli([...command, '--help'])).stdout;
    expect(await help('validate')).not.toContain('--state');
    expect(await help('validate')).toContain('--no-color');
    for (const sub of ['list', 'show', 'rm', 'mv', 'migrate']) expect(await help('state', sub)).not.toContain('--no-color');
    for (const command of ['plan', 'apply', 'import', 'send']) expect(await help(command)).toContain('--state');
    expect(await help('fmt')).not.toMatch(/--state|--json|--env/);
  });
});

describe('row 6: init says what to run next, in lines that work when pasted', () => {
  it('uses npx, says cd when it wrote into another folder, and ends with the local loop', async () => {
    // Without the key in the environment: the output filter hides the key's value, and here it is the emulator's.
    const noKey = { AGENTSYNC_BASE_URL: emu.url };
    const here = await cli(['init'], noKey);
    expect(here.stdout).toContain('\nNext steps:\n  npx --no-install agentsync validate ');
    expect(here.stdout).not.toContain('  cd ');
    expect(here.stdout).toMatch(/^ {2}npx --no-install agentsync emulator +# in a second terminal/m);
    expect(here.stdout).toMatch(/^ {2}COMETCHAT_API_KEY=local-dev-key npx --no-install agentsync apply -e local +#/m);

    const there = await cli(['init', 'my agents'], noKey);
    expect(there.stdout).toContain("Next steps:\n  cd 'my agents'\n  npx --no-install agentsync validate");
  });

  it('the starter applies to the emulator as written, with the key the next steps give', async () => {
    await cli(['init']);
    const applied = await cli(['apply', '-e', 'local', '--auto-approve']);
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toContain('Apply complete: 2 created, 0 updated, 0 forgotten.');
  });

  it.each([
    ['plan', ['plan']],
    ['apply', ['apply', '--auto-approve']],
    ['import', ['import']],
    ['send', ['send', '--to', 'group:ops', '--text', 'hi']],
  ])('a missing key makes %s name the variable to set, and the emulator key for a local URL', async (_name, args) => {
    await cli(['init']);
    const result = await cli(args, {});
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: the API key is missing: set COMETCHAT_API_KEY to the REST API key of app "local" \(for the local emulator: COMETCHAT_API_KEY=local-dev-key\)/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('row 7: every example applies to the emulator, and counts read right', () => {
  const examples = readdirSync(join(ROOT, 'examples')).filter((f) => f.endsWith('.yaml'));

  it('finds the examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  it.each(examples)('examples/%s applies cleanly to the default data, in every environment', async (example) => {
    const text = readFileSync(join(ROOT, 'examples', example), 'utf8');
    writeFileSync(join(dir, 'agents.yaml'), text);
    const environments = Object.keys((await import('yaml')).parse(text).environments as Record<string, unknown>);
    for (const environment of environments) {
      await emu.reset();
      const keys = { COMETCHAT_EU_API_KEY: KEY, COMETCHAT_IN_API_KEY: KEY, LANGGRAPH_TOKEN: 'example-token' };
      const result = await cli(['apply', '-e', environment, '--auto-approve'], { ...env, ...keys });
      expect(result.stderr, `${example} -e ${environment}`).toBe('');
      expect(result.stdout, `${example} -e ${environment}`).toMatch(/Apply complete: \d+ created, 0 updated, 0 forgotten\.\n$/);
    }
  });

  it('a failed apply with one change done says "1 change was applied"', async () => {
    writeFileSync(
      join(dir, 'agents.yaml'),
      `version: 1
environments:
  local: { appId: local, region: us }
tools:
  lookup: { displayName: Lookup, executionText: Looking, description: Finds, parameters: {} }
agents:
  bot: { name: Bot, integrationType: llm, integrateWith: gpt-4o, actions: [lookup, not_on_server] }
external: { tools: [not_on_server] }
`,
    );
    const result = await cli(['apply', '--auto-approve']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Apply failed: 1 of 2 changes done, 1 failed, 0 not attempted.');
    expect(result.stderr).toContain('1 change was applied and recorded');
  });
});

describe('row 8: several environments and no -e', () => {
  it('asks for an environment instead of calling the manifest invalid', async () => {
    writeFileSync(join(dir, 'agents.yaml'), TWO_ENVS);
    for (const args of [['plan'], ['apply', '--auto-approve'], ['state', 'list']]) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toBe('Error: agents.yaml defines several environments; choose an environment with -e: us, eu\n');
    }
    const json = await cli(['plan', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ error: { code: 'environment_invalid', message: expect.stringContaining('choose an environment with -e: us, eu'), environments: ['us', 'eu'] } });
  });

  it('still reports a broken manifest as broken', async () => {
    writeFileSync(join(dir, 'agents.yaml'), `${TWO_ENVS}  bad: [\n`);
    const result = await cli(['plan']);
    expect(result.stderr).toMatch(/^Error: agents.yaml is not valid/);
  });
});

describe('row 9: a saved plan that went stale says what changed', () => {
  beforeEach(async () => {
    await cli(['init']);
    expect((await cli(['plan', '--out', 'plan.json'])).code).toBe(0);
  });

  const stale = async (extra: NodeJS.ProcessEnv = env) => {
    const result = await cli(['apply', 'plan.json'], extra);
    expect(result.code).toBe(1);
    expect(await serverAgents()).toEqual([]);
    return result.stderr;
  };

  it('the manifest', async () => {
    const file = join(dir, 'agents.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('name: Assistant', 'name: Helper'));
    expect(await stale()).toBe('Error: saved plan plan.json is stale: the manifest changed after the plan was made; run `agentsync plan --out plan.json` again\n');
  });

  it('a variable', async () => {
    const file = join(dir, 'agents.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('name: Assistant', 'name: ${BOT_NAME:-Assistant}'));
    expect((await cli(['plan', '--out', 'plan.json'])).code).toBe(0);
    expect(await stale({ ...env, BOT_NAME: 'Helper' })).toContain('is stale: a variable changed: the manifest file is the same, but a value it reads from the environment');
  });

  it('the target URL', async () => {
    const other = await startTestEmulator({ apiKey: KEY });
    try {
      expect(await stale({ ...env, AGENTSYNC_BASE_URL: other.url })).toContain(`is stale: the target URL changed (${emu.url} → ${other.url}; check AGENTSYNC_BASE_URL and the manifest's baseUrl)`);
    } finally {
      await other.close();
    }
  });

  it('the state', async () => {
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const result = await cli(['apply', 'plan.json']);
    expect(result.stderr).toContain('is stale: a state was created after it was made');
    await cli(['plan', '--out', 'plan.json']);
    await cli(['state', 'rm', 'tool.get_weather']);
    expect((await cli(['apply', 'plan.json'])).stderr).toContain('is stale: the state changed (serial 1 → 2): another apply ran after the plan was made');
  });

  it('a current saved plan applies without asking, even with no terminal', async () => {
    const result = await cli(['apply', 'plan.json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Apply complete: 2 created, 0 updated, 0 forgotten.');
  });
});

describe('row 11: the schema file the manifests point at', () => {
  it('agentsync.schema.json in the repository root is what `agentsync schema` prints', async () => {
    const printed = await runCli(['schema'], { cwd: ROOT });
    expect(readFileSync(join(ROOT, 'agentsync.schema.json'), 'utf8')).toBe(printed.stdout);
    expect(readFileSync(join(ROOT, 'agents.yaml'), 'utf8')).toMatch(/^# yaml-language-server: \$schema=\.\/agentsync\.schema\.json$/m);
  });
});

describe('row 12: a state of another environment gets advice that fits', () => {
  it("says to pass this environment's own state, not to restore a backup", async () => {
    writeFileSync(join(dir, 'agents.yaml'), TWO_ENVS);
    expect((await cli(['apply', '-e', 'us', '--auto-approve'])).code).toBe(0);
    // An absolute path: the run's folder is not this process's, so a relative one would be named absolutely.
    const usState = join(dir, '.agentsync', 'us.state.json');
    const result = await cli(['plan', '-e', 'eu', '--state', usState]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Error: state file ${usState} cannot be used:` +
        ' it belongs to environment "us" (appId acme-us, region us), but this run targets environment "eu", appId "acme-eu", region "eu"; ' +
        "pass this environment's own state file with --state (by default .agentsync/eu.state.json beside the manifest). It was left unchanged.\n",
    );
    expect(result.stderr).not.toContain('cp ');
  });
});

describe('did you mean', () => {
  it.each([
    [['plna'], "Error: unknown command 'plna'; did you mean plan?"],
    [['state', 'lst'], "Error: unknown command 'lst'; did you mean list?"],
    [['plan', '--detailed-exit-code'], "Error: unknown option '--detailed-exit-code'; did you mean --detailed-exitcode?"],
    [['apply', '--auto-aprove'], "Error: unknown option '--auto-aprove'; did you mean --auto-approve?"],
    [['state', 'rm', 'tool.x', '--lock-timout', '1'], "Error: unknown option '--lock-timout'; did you mean --lock-timeout?"],
    [['completion', 'bsh'], "Error: command-argument value 'bsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish; did you mean bash?"],
  ])('%j', async (args, line) => {
    const result = await cli(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`${line}\n`);
  });
});

it('leaves no temporary files behind in the project', () => {
  expect(existsSync(join(ROOT, 'plan.md'))).toBe(false);
});
