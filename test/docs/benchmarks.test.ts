// BENCHMARKS.md is generated (bench/run.mjs, bench/lib/report.mjs): it must be exactly what
// `node bench/run.mjs --render` makes of bench/results.json and bench/misses.md, so a hand edit or a
// stale render shows here. It opens with the table and explains every missed target.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'agentsync-benchmarks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('BENCHMARKS.md', () => {
  const committed = readFileSync(join(ROOT, 'BENCHMARKS.md'), 'utf8');

  it('is what bench/run.mjs --render makes of bench/results.json and bench/misses.md', () => {
    const out = join(dir, 'BENCHMARKS.md');
    const render = spawnSync(process.execPath, [join(ROOT, 'bench', 'run.mjs'), '--render', '--out', out], { cwd: ROOT, encoding: 'utf8' });
    expect(render.status, render.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(committed);
  });

  it('opens with the table, and explains every miss in a line or two, linking the long history', () => {
    expect(committed.split('\n').slice(0, 3)).toEqual(['# Benchmarks', '', '| Scenario | Median | Floor / ideal | Ratio | Target | Met? | Notes |']);
    const misses = committed.slice(committed.indexOf('\n## What limits each miss\n'));
    expect(misses).not.toContain('Not explained yet');
    expect(misses).toContain('[bench/analysis.md](bench/analysis.md)');
    const rows = committed.split('\n').filter((line) => line.startsWith('| ') && line.includes(' | **no** | '));
    for (const row of rows) expect(misses).toContain(`**${row.slice(2, row.indexOf(' | '))}**`);
  });
});
