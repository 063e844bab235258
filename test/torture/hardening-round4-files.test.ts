// Issue 40, hostile review round 4, the manifest files and what export and plan --out write: a
// folder too large in total (item 5), a part whose name is not UTF-8 (6), export output that fmt
// would rewrite (7), export --split into a folder it must not write (8), plan --out over a file the
// run needs (9), a reference list long enough to overflow the stack (10), YAML errors said where
// they start (3.7). The CLI runs in-process on real files; the emulator is real, on port 0.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../support/cli.js';
import { makeWorkspace, STACK_TRACE, type Workspace } from './helpers.js';

let ws: Workspace;

beforeAll(() => {
  ws = makeWorkspace('agentsync-round4-files-');
});

afterAll(() => ws?.remove());

/** A new folder in the workspace, with `files` written into it. */
function project(name: string, files: Record<string, string | Buffer> = {}): string {
  const dir = ws.path(name);
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function cliIn(dir: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(args, { cwd: dir, env, timeoutMs: 60_000 });
}

function expectNoCrash(result: CliResult): void {
  expect(result.stderr).not.toMatch(/internal error/);
  expect(result.stderr).not.toMatch(STACK_TRACE);
}

const ENVIRONMENTS = `version: 1
environments:
  local:
    appId: local
    region: us
`;

describe('item 10: a long reference list is reported, not a crash', () => {
  it('an agent listing 200,000 unknown actions: validate and lint show the first 100 and count the rest', async () => {
    const names = Array.from({ length: 200_000 }, (_, i) => `x${i}`);
    const dir = project('long-list', {
      'agents.yaml': `${ENVIRONMENTS}agents:\n  a:\n    name: A\n    integrationType: llm\n    integrateWith: gpt-4o\n    instruction: hi\n    actions: [${names.join(', ')}]\n`,
    });
    for (const command of ['validate', 'lint']) {
      const result = await cliIn(dir, [command]);
      expectNoCrash(result);
      expect(result.code, result.stderr).toBe(1);
      const output = result.stdout + result.stderr;
      expect(output).toContain('unknown action "x99"');
      expect(output).not.toContain('unknown action "x101"');
      expect(output).toMatch(/and 199,900 more like the 100 above, not shown \(the next: unknown action "x100"/);
    }
  });

  it('200,000 actions of the wrong type (numbers): one diagnostic at the list, not a stack overflow inside the schema check', async () => {
    const numbers = Array.from({ length: 200_000 }, (_, i) => i);
    const dir = project('long-wrong-list', {
      'agents.yaml': `${ENVIRONMENTS}agents:\n  a:\n    name: A\n    integrationType: llm\n    integrateWith: gpt-4o\n    instruction: hi\n    actions: [${numbers.join(', ')}]\n`,
    });
    for (const command of ['validate', 'lint']) {
      const result = await cliIn(dir, [command]);
      expectNoCrash(result);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout + result.stderr).toMatch(
        /agents\.yaml:12:14: error: this has 200,000 entries, too many wrong ones to list one by one; compare them with what the schema allows here.* \(at agents\.a\.actions\)/,
      );
    }
  });
});
