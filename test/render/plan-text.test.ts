import { describe, expect, it } from 'vitest';
import { renderPlanText } from '../../src/render/plan-text.js';
import { expectGolden } from './golden.js';
import { noChangePlan, replacePlan, SECRET, samplePlan } from './plan-fixtures.js';
import { planChanges } from '../../src/core/diff.js';
import { desiredOf, digest } from '../core/diff-fixtures.js';

const ESC = '\u001b';

describe('renderPlanText', () => {
  it('matches the golden plan without color', () => {
    const text = renderPlanText(samplePlan(), { color: false });
    expect(text).not.toContain(ESC);
    expectGolden('plan.txt', text);
  });

  it('matches the golden plan with color, and differs from it only by escape codes', () => {
    const colored = renderPlanText(samplePlan(), { color: true });
    expect(colored).toContain(`${ESC}[32m+${ESC}[39m`);
    expect(colored.replace(new RegExp(`${ESC}\\[\\d+m`, 'g'), '')).toBe(renderPlanText(samplePlan(), { color: false }));
    expectGolden('plan-color.txt', colored.replaceAll(ESC, '<ESC>'));
  });

  it('ends with the contract summary line', () => {
    const lines = renderPlanText(samplePlan(), { color: false }).trimEnd().split('\n');
    expect(lines.at(-1)).toBe('Plan: 2 to create, 2 to update, 1 to forget.');
  });

  it('says exactly "No changes." when nothing changes', () => {
    expect(renderPlanText(noChangePlan(), { color: false })).toBe('No changes. Environment "local" matches the manifest.\n');
  });

  it('shows a changed secret as (sensitive) and never the value', () => {
    const text = renderPlanText(samplePlan(), { color: true });
    expect(text).toContain('integrationMeta.headers: (sensitive)');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('old-token');
    expect(text).not.toContain('hmac-sha256');
  });

  it('shows a multi-line instruction as a line diff', () => {
    const text = renderPlanText(samplePlan(), { color: false });
    expect(text).toContain(
      ['      ~ instruction:', '          You help customers.', '        - Be brief.', '        + Be brief and kind.', '          Never guess.', '        + Escalate refunds.'].join('\n'),
    );
  });

  it('a 2,400-line instruction with one line edited near the top and one inserted near the bottom prints those three lines', () => {
    const plan = samplePlan();
    const change = plan.changes.find((c) => c.action === 'update' && c.address === 'agent.support');
    if (change?.action !== 'update') throw new Error('fixture changed');
    const before = Array.from({ length: 2400 }, (_, i) => `Rule ${i}: be helpful.`);
    const after = [...before];
    after[10] = 'Rule 10: be very helpful.';
    after.splice(2390, 0, 'Rule 2389b: say goodbye.');
    change.fields = [{ path: 'instruction', before: before.join('\n'), after: after.join('\n') }];
    plan.changes = [change];
    const text = renderPlanText(plan, { color: false });
    const diffLines = text.split('\n').filter((line) => /^ {8}[-+] /.test(line));
    expect(diffLines).toEqual(['        - Rule 10: be helpful.', '        + Rule 10: be very helpful.', '        + Rule 2389b: say goodbye.']);
    expect(text).toContain(['          Rule 8: be helpful.', '          Rule 9: be helpful.', '        - Rule 10: be helpful.'].join('\n'));
  });

  it('warns about a pending create', () => {
    expect(renderPlanText(samplePlan(), { color: false })).toContain(
      'Warning: agent.ghost: a create was sent at 2025-03-04T05:06:07.000Z but its result was never recorded, so a duplicate may exist on the server; apply looks for it there first and adopts it instead of creating it again.',
    );
  });

  it('makes control characters in user text visible instead of sending them to the terminal', () => {
    const plan = samplePlan();
    const change = plan.changes.find((c) => c.action === 'update' && c.address === 'agent.support');
    if (change?.action !== 'update') throw new Error('fixture changed');
    change.fields.push({ path: 'instruction', before: 'a\nb', after: `a\n${ESC}[2Jb\r` });
    const text = renderPlanText(plan, { color: false });
    expect(text).not.toContain(ESC);
    expect(text).toContain('+ \\u001b[2Jb\\u000d');
  });

  // Issue 40 §3.6: a block scalar's final newline is not an empty `+ ` or `- ` line.
  it('never shows the final newline of a multi-line value as an empty diff line, and says when it alone differs', () => {
    const plan = samplePlan();
    plan.drift.push({ address: 'agent.support', type: 'agent', kind: 'changed', fields: [{ path: 'instruction', before: 'one\ntwo\n', after: 'one\ntwo' }] });
    const change = plan.changes.find((c) => c.action === 'update' && c.address === 'agent.support');
    if (change?.action !== 'update') throw new Error('fixture changed');
    change.fields.push({ path: 'greeting', before: 'Hi\nthere\n' });
    const lines = renderPlanText(plan, { color: false }).split('\n');
    expect(lines.filter((line) => /^\s*[-+]\s*$/.test(line))).toEqual([]);
    expect(lines).toContain('        - (newline at end of text)');
    expect(lines).toContain('        - there');
  });

  it("lists a create's empty defaults only where the manifest wrote them; the plan keeps every field", () => {
    const plan = samplePlan();
    const text = renderPlanText(plan, { color: false });
    const block = (address: string): string => text.slice(text.indexOf(`  + ${address}\n`)).split('\n\n')[0] ?? '';
    expect(block('tool.new_tool')).not.toMatch(/description|parameters/);
    expect(block('agent.ghost')).not.toMatch(/tools|actions/);
    expect(block('agent.ghost')).toContain('+ isActive: true');
    const ghost = plan.changes.find((c) => c.address === 'agent.ghost');
    expect(ghost?.action === 'create' ? ghost.fields.map((f) => f.path) : []).toEqual(expect.arrayContaining(['tools', 'actions']));

    const written = desiredOf({
      tools: { t: { displayName: 'T', executionText: 'Working', doNotExecute: true, description: '' } },
      agents: { a: { name: 'A', integrationType: 'llm', integrateWith: 'gpt-4o', tools: [] } },
    });
    const shown = renderPlanText(planChanges({ desired: written, state: null, digest }), { color: false });
    expect(shown).toContain('+ description: ""');
    expect(shown).toContain('+ tools: []');
    expect(shown).not.toContain('+ actions: []');
    expect(shown).not.toContain('+ parameters: {}');
  });
});

// Issue 40 §3.3: a replacement is counted as one, not as an update.
describe('renderPlanText of a replacement', () => {
  it('counts it as "to replace" in the summary line', () => {
    const text = renderPlanText(replacePlan(), { color: false });
    expect(text).toContain('-/+ website.site');
    expect(text.trimEnd().split('\n').at(-1)).toBe('Plan: 0 to create, 1 to update, 1 to replace, 0 to forget.');
  });
});
