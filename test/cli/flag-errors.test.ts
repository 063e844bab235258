// A mistake in the command line is a usage error that names the flag, never "the manifest is not
// valid" (issue 40, 3.5): an unknown -e, and flags from other tools' habits.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentsync-flag-errors-'));
  await writeFile(join(dir, 'agents.yaml'), 'version: 1\nenvironments:\n  dev: { appId: local, region: us }\n  staging: { appId: local, region: us }\ntools: {}\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const cli = (args: string[]) => runCli(args, { cwd: dir, env: { COMETCHAT_API_KEY: 'unused-key' } });

describe('an unknown -e names the flag', () => {
  it.each([
    [['plan', '-e', 'prod'], 'Error: -e prod: unknown environment "prod"; the manifest defines dev, staging'],
    [['plan', '--env=prod'], 'Error: -e prod: unknown environment "prod"; the manifest defines dev, staging'],
    [['plan', '-e', 'stagin'], 'Error: -e stagin: unknown environment "stagin"; the manifest defines dev, staging; did you mean "staging"?'],
    [['apply', '-e', 'prod', '--auto-approve'], 'Error: -e prod: unknown environment "prod"; the manifest defines dev, staging'],
    [['validate', '-e', 'prod'], 'Error: -e prod: unknown environment "prod"; the manifest defines dev, staging'],
    [['graph', '-e', 'prod'], 'Error: -e prod: unknown environment "prod"; the manifest defines dev, staging'],
    [['plan', '-e', 'prod', '-e', 'dev'], 'Error: -e prod: unknown environment "prod"; the manifest defines dev, staging'],
    [['plan', '-e', 'prod', '-e', 'stagin'], 'Error: -e prod, -e stagin: unknown environments "prod", "stagin" (did you mean "staging"?); the manifest defines dev, staging'],
    [['state', 'list', '-e', 'prod'], 'Error: -e prod: unknown environment "prod"; agents.yaml defines dev, staging'],
  ])('%j', async (args, line) => {
    const result = await cli(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`${line}\n`);
  });

  it('--json carries it as an environment_invalid error', async () => {
    const result = await cli(['plan', '-e', 'prod', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      error: { code: 'environment_invalid', message: '-e prod: unknown environment "prod"; the manifest defines dev, staging', environments: ['dev', 'staging'] },
    });
  });
});

describe("other tools' flags get a did you mean", () => {
  it.each([
    [['plan', '--environment', 'dev'], "Error: unknown option '--environment'; did you mean -e/--env?"],
    [['apply', '--environment=dev'], "Error: unknown option '--environment=dev'; did you mean -e/--env?"],
    [['apply', '--dry-run'], "Error: unknown option '--dry-run'; did you mean agentsync plan?"],
    [['plan', '--dry-run'], "Error: unknown option '--dry-run'; did you mean agentsync plan?"],
    // The same habits misspelled: commander's own spelling distance knows only agentsync's flags.
    [['plan', '--enviroment', 'dev'], "Error: unknown option '--enviroment'; did you mean -e/--env?"],
    [['apply', '--dryrun'], "Error: unknown option '--dryrun'; did you mean agentsync plan?"],
    [['apply', '--dry_run'], "Error: unknown option '--dry_run'; did you mean agentsync plan?"],
    [['plan', '--bogus'], "Error: unknown option '--bogus'"],
  ])('%j', async (args, line) => {
    const result = await cli(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`${line}\n`);
  });
});
