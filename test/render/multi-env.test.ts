// The renderers of a run over several environments: prefixes, the closing tables, the combined
// JSON and markdown, and the live line on a terminal.
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/core/plan.js';
import type { ApplyEvent, ApplyResult } from '../../src/core/apply-types.js';
import { multiApplyJson, multiPlanJson, prefixLines, renderApplyTable, renderPlanTable, type EnvironmentOutcome } from '../../src/render/multi-env.js';
import { renderMultiPlanMarkdown } from '../../src/render/multi-env-markdown.js';
import { createMultiProgress } from '../../src/render/multi-env-progress.js';
import { replacePlan, samplePlan, SECRET } from './plan-fixtures.js';

const info = (name: string) => ({ name, appId: `app-${name}`, region: 'us' });
const planOf = (name: string): Plan => ({ ...samplePlan(), environment: name, appId: `app-${name}` });
const failure = { code: 'state_locked', message: 'the state .agentsync/eu.state.json is locked by pid 42 on ci-1 since 2025-01-01T00:00:00.000Z' };

describe('prefixLines', () => {
  it('prefixes every line, and an empty line with the tag alone', () => {
    expect(prefixLines('a\n\n  b\n', 'us')).toBe('[us] a\n[us]\n[us]   b\n');
    expect(prefixLines('no newline', 'eu')).toBe('[eu] no newline\n');
  });
});

describe('closing tables', () => {
  it('plan: counts per environment, a failure across the columns, and a total line', () => {
    const outcomes: EnvironmentOutcome<Plan>[] = [
      { environment: info('us'), value: planOf('us') },
      { environment: info('eu'), failure },
    ];
    const s = planOf('us').summary;
    expect(renderPlanTable(outcomes, { color: false })).toBe(
      [
        'Environment  Create  Update  Forget  Unchanged',
        `us           ${String(s.create).padStart(6)}  ${String(s.update).padStart(6)}  ${String(s.forget).padStart(6)}  ${String(s.noop).padStart(9)}`,
        `eu           failed: ${failure.message}`,
        '2 environments: 1 with changes, 0 without, 1 failed.',
        '',
      ].join('\n'),
    );
  });

  it('apply: what each did, and which failed', () => {
    const ok: ApplyResult = {
      environment: 'us',
      ok: true,
      prune: false,
      counts: { created: 12, updated: 1, deleted: 0, forgotten: 0 },
      done: [],
      failed: [],
      notAttempted: [],
      notify: { status: 'skipped', reason: 'not-configured' },
      total: 13,
    };
    const table = renderApplyTable(
      [
        { environment: info('us'), value: ok },
        { environment: info('a-long-name'), failure },
      ],
      { color: false },
    );
    expect(table).toBe(
      [
        'Environment  Created  Updated  Forgotten',
        'us                12        1          0',
        `a-long-name  failed: ${failure.message}`,
        'Apply failed in 1 of 2 environments (a-long-name). The others completed: 12 created, 1 updated, 0 forgotten.',
        '',
      ].join('\n'),
    );
  });
});

// Issue 40 §3.3: a replacement has its own column, only when some environment has one.
describe('closing tables with a replacement', () => {
  it('plan, markdown and apply count it apart from updates', () => {
    const outcomes: EnvironmentOutcome<Plan>[] = [
      { environment: info('us'), value: { ...replacePlan(), environment: 'us' } },
      { environment: info('eu'), value: planOf('eu') },
    ];
    expect(renderPlanTable(outcomes, { color: false }).split('\n').slice(0, 3)).toEqual([
      'Environment  Create  Update  Replace  Forget  Unchanged',
      'us                0       1        1       0          1',
      'eu                2       2        0       1          1',
    ]);
    expect(renderMultiPlanMarkdown(outcomes)).toContain('| Environment | Create | Update | Replace | Forget | Unchanged |\n| :-- | --: | --: | --: | --: | --: |\n| `us` | 0 | 1 | 1 | 0 | 1 |');
    const applied: ApplyResult = {
      environment: 'us',
      ok: true,
      prune: false,
      counts: { created: 0, updated: 1, replaced: 1, deleted: 0, forgotten: 0 },
      done: [],
      failed: [],
      notAttempted: [],
      notify: { status: 'skipped', reason: 'not-configured' },
      total: 2,
    };
    expect(renderApplyTable([{ environment: info('us'), value: applied }], { color: false })).toBe(
      [
        'Environment  Created  Updated  Replaced  Forgotten',
        'us                 0        1         1          0',
        'Apply complete in 1 environment: 0 created, 1 updated, 1 replaced, 0 forgotten.',
        '',
      ].join('\n'),
    );
  });
});

describe('combined JSON', () => {
  it('plan: formatVersion and one entry per environment, a failed one with its error', () => {
    const doc = multiPlanJson([
      { environment: info('us'), value: planOf('us') },
      { environment: info('eu'), failure },
    ]) as { environments: Record<string, unknown>[] };
    expect(Object.keys(doc)).toEqual(['formatVersion', 'environments']);
    expect(doc.environments[0]).toMatchObject({ formatVersion: 1, environment: 'us', appId: 'app-us', summary: { delete: 0 } });
    expect(doc.environments[1]).toEqual({ formatVersion: 1, environment: 'eu', appId: 'app-eu', region: 'us', ok: false, error: failure });
    expect(JSON.stringify(doc)).not.toContain(SECRET);
  });

  it('apply: a part-way failure keeps its result and adds the error', () => {
    const partial: ApplyResult = {
      environment: 'us',
      ok: false,
      prune: false,
      counts: { created: 1, updated: 0, deleted: 0, forgotten: 0 },
      done: [],
      failed: [],
      notAttempted: [],
      notify: { status: 'skipped', reason: 'apply-failed' },
      total: 2,
    };
    const doc = multiApplyJson([{ environment: info('us'), value: partial, failure: { code: 'apply_failed', message: 'apply failed' } }]) as { environments: Record<string, unknown>[] };
    expect(doc.environments[0]).toMatchObject({ ok: false, environment: 'us', summary: { created: 1 }, error: { code: 'apply_failed' } });
  });
});

describe('markdown over several environments', () => {
  it('shares the budget: every environment gets a block, and the whole stays under the limit', () => {
    const outcomes: EnvironmentOutcome<Plan>[] = ['us', 'eu', 'in', 'ap'].map((name) => ({ environment: info(name), value: planOf(name) }));
    outcomes.push({ environment: info('broken'), failure });
    const full = renderMultiPlanMarkdown(outcomes);
    expect(full.match(/<details><summary><code>/g)?.length).toBeGreaterThan(5);
    for (const maxLength of [60_000, 12_000, 6_000, 3_000]) {
      const md = renderMultiPlanMarkdown(outcomes, { maxLength });
      expect(md.length).toBeLessThanOrEqual(maxLength);
      expect(md).toContain('| `broken` | **failed: the state .agentsync/eu.state.json is locked by pid 42 on ci-1 since 2025-01-01T00:00:00.000Z** |');
      expect(md).not.toContain(SECRET);
      // Every <details> that opens also closes.
      expect(md.split('<details>').length).toBe(md.split('</details>').length);
    }
    expect(renderMultiPlanMarkdown(outcomes, { maxLength: 6_000 })).toContain('does not fit here; run `agentsync plan -e');
  });
});

describe('the live line on a terminal', () => {
  it('shows every environment, prints failures above it, and clears it at the end', () => {
    let out = '';
    const live = createMultiProgress({ color: false, write: (text) => (out += text) });
    const us = live.environment('us', 2);
    const eu = live.environment('eu', 1);
    const tool = { address: 'tool.t', type: 'tool', action: 'create' } as const;
    const events: [typeof us, ApplyEvent][] = [
      [us, { kind: 'start', ...tool }],
      [us, { kind: 'done', ...tool, ms: 3, remoteId: 'x', retries: 0 }],
      [eu, { kind: 'retry', ...tool, call: 'POST /ai-agents/tools', retry: 1, delayMs: 10, reason: '503' }],
      [eu, { kind: 'failed', ...tool, failure: { call: 'POST /ai-agents/tools', status: 503, code: 'HTTP_503', message: 'busy', attempts: 3, maybeCreated: false } }],
    ];
    for (const [progress, event] of events) progress.onEvent(event);
    expect(out).toContain('\r\u001b[KApplying: us 1/2 · eu 0/1 (retrying)');
    expect(out).toContain('\r\u001b[K[eu] failed tool.t: POST /ai-agents/tools (503)\n');
    eu.finish();
    expect(out.endsWith('\r\u001b[KApplying: us 1/2 · eu failed')).toBe(true);
    us.finish();
    expect(out.endsWith('\r\u001b[K')).toBe(true);
  });

  it('never wraps: the line is cut to the terminal width', () => {
    let out = '';
    const live = createMultiProgress({ color: false, write: (text) => (out += text), columns: 20 });
    live.environment('a-very-long-environment-name', 1000);
    const last = out.split('\r\u001b[K').at(-1) ?? '';
    expect(last.length).toBeLessThanOrEqual(19);
  });
});
