// Hostile local files the other suites do not reach: a state, journal, lock or saved plan too large
// to read into one string, or nested deeper than the code that reads it back can recurse. Each
// must end in one line on stderr naming the file, exit 1, and leave the state as it was.
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineRefusal, HOSTILE_MANIFEST, useHostileProject } from '../support/hostile-project.js';

const project = useHostileProject('agentsync-hostile-files-');
const cli = project.cli;

describe('a state, journal, lock or plan file too large to be one', () => {
  // Sparse files: 300 MB on paper, nothing on disk. Before, each was read whole into one string
  // and the run ended in "internal error: Invalid string length" (or, for a plan, the RangeError's
  // text), after reading and holding hundreds of megabytes.
  const HUGE = 300 * 1024 * 1024;

  it('a huge state file is refused by plan, apply and state list, naming it and its backup', async () => {
    const other = join(project.dir, 'huge-state');
    const state = join(other, 'local.state.json');
    await cli(['state', 'migrate', '--to', state]);
    writeFileSync(join(other, 'local.state.json.backup'), readFileSync(state));
    truncateSync(state, HUGE);
    await project.emulator.clearRequests();
    for (const args of [
      ['plan', '--offline'],
      ['apply', '--auto-approve'],
      ['state', 'list'],
    ]) {
      const result = await cli([...args, '--state', state]);
      expectOneLineRefusal(
        result,
        /state file .*local\.state\.json cannot be used: it is 300\.0 MB, more than the 256\.0 MB a state file may be\. It was left unchanged\. The previous version is kept at/,
      );
    }
    expect(await project.emulator.apiRequests()).toEqual([]);
  });

  it('a huge journal beside the state is refused, and the state is not folded or written', async () => {
    const other = join(project.dir, 'huge-journal');
    const state = join(other, 'local.state.json');
    await cli(['state', 'migrate', '--to', state]);
    const before = readFileSync(state, 'utf8');
    writeFileSync(`${state}.journal`, '');
    truncateSync(`${state}.journal`, HUGE);
    const result = await cli(['state', 'rm', 'tool.lookup', '--state', state]);
    expectOneLineRefusal(result, /journal .*local\.state\.json\.journal is 300\.0 MB, more than the 256\.0 MB a journal may be/);
    expect(readFileSync(state, 'utf8')).toBe(before);
  });

  it('a huge lock file is refused as not a lock, and the state is unchanged', async () => {
    const other = join(project.dir, 'huge-lock');
    const state = join(other, 'local.state.json');
    await cli(['state', 'migrate', '--to', state]);
    const before = readFileSync(state, 'utf8');
    writeFileSync(`${state}.lock`, '');
    truncateSync(`${state}.lock`, HUGE);
    const result = await cli(['state', 'rm', 'tool.lookup', '--state', state]);
    expectOneLineRefusal(result, /lock .*local\.state\.json\.lock is 300\.0 MB, far more than a lock agentsync writes; if no agentsync run is using this state, remove it/);
    expect(readFileSync(state, 'utf8')).toBe(before);
  });

  it('a huge saved plan is refused by show and apply, naming it; a missing one says "no such file"', async () => {
    const plan = join(project.dir, 'huge.plan.json');
    writeFileSync(plan, '');
    truncateSync(plan, HUGE);
    for (const command of ['show', 'apply']) {
      const result = await cli([command, plan]);
      expectOneLineRefusal(result, /cannot read plan file .*huge\.plan\.json: it is 300\.0 MB, more than the 256\.0 MB a plan file may be/);
    }
    const missing = await cli(['show', 'missing.plan.json']);
    expectOneLineRefusal(missing, /^Error: cannot read plan file missing\.plan\.json: no such file\n$/);
  });
});

describe('a state, journal line or saved plan nested thousands of levels deep', () => {
  // JSON.parse reads any depth, and the schemas let free-form fields (spec, metaData, parameters)
  // through; the diff, the digests and the renderers then recursed until "internal error: Maximum
  // call stack size exceeded" (plan, state show, state rm, show, apply PLANFILE).
  const DEPTH = 20_000;
  const deep = (): string => '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);
  /** The spec of tool.lookup in `state`, with a metaData nested DEPTH levels. */
  const withDeepSpec = (text: string): string => {
    const state = JSON.parse(text) as { resources: Record<string, { spec: Record<string, unknown> }> };
    const lookup = state.resources['tool.lookup'];
    if (!lookup) throw new Error('tool.lookup is not in the state');
    lookup.spec.metaData = '@@DEEP@@';
    return JSON.stringify(state).replace('"@@DEEP@@"', deep());
  };

  it('a deep state: plan, state show and state rm refuse it in one line, and it is left as it was', async () => {
    const other = join(project.dir, 'deep-state');
    const state = join(other, 'local.state.json');
    await cli(['state', 'migrate', '--to', state]);
    const text = withDeepSpec(readFileSync(state, 'utf8'));
    writeFileSync(state, text);
    for (const args of [
      ['plan', '--offline'],
      ['state', 'show', 'tool.lookup'],
      ['state', 'rm', 'tool.lookup'],
    ]) {
      const result = await cli([...args, '--state', state]);
      expectOneLineRefusal(result, /state file .* cannot be used: it is nested more than 1000 levels deep/);
    }
    expect(readFileSync(state, 'utf8')).toBe(text);
  });

  it('a deep journal line: refused with its line number, nothing folded or written', async () => {
    const other = join(project.dir, 'deep-journal');
    const state = join(other, 'local.state.json');
    await cli(['state', 'migrate', '--to', state]);
    const before = readFileSync(state, 'utf8');
    const { lineage } = JSON.parse(before) as { lineage: string };
    const line = JSON.stringify({ lineage, op: 'applied', address: 'tool.lookup', type: 'tool', remoteId: 'r1', spec: { metaData: '@@DEEP@@' }, appliedAt: '2026-01-01T00:00:00Z' });
    writeFileSync(`${state}.journal`, line.replace('"@@DEEP@@"', deep()) + '\n');
    const result = await cli(['state', 'show', 'tool.lookup', '--state', state]);
    expectOneLineRefusal(result, /has a damaged line 1 \(nested more than 1000 levels deep\)/);
    expect(readFileSync(state, 'utf8')).toBe(before);
  });

  it('a deep saved plan: show and apply refuse it in one line, with no call', async () => {
    writeFileSync(join(project.dir, 'agents.yaml'), HOSTILE_MANIFEST.replace('Looks up an order by its number.', 'Looks up one order by its number.'));
    try {
      const made = await cli(['plan', '--out', 'deep.plan.json']);
      expect(made.code, made.stderr).toBe(0);
      const plan = JSON.parse(readFileSync(join(project.dir, 'deep.plan.json'), 'utf8')) as { changes: { after?: Record<string, unknown> | null }[] };
      const change = plan.changes.find((c) => c.after);
      if (!change?.after) throw new Error('no change with an after record');
      change.after.parameters = '@@DEEP@@';
      writeFileSync(join(project.dir, 'deep.plan.json'), JSON.stringify(plan).replace('"@@DEEP@@"', deep()));
      await project.emulator.clearRequests();
      for (const command of ['show', 'apply']) {
        const result = await cli([command, 'deep.plan.json']);
        expectOneLineRefusal(result, /plan file deep\.plan\.json is nested more than 1000 levels deep/);
      }
      expect(await project.emulator.apiRequests()).toEqual([]);
    } finally {
      writeFileSync(join(project.dir, 'agents.yaml'), HOSTILE_MANIFEST);
    }
  });
});
