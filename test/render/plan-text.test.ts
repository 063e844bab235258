import { describe, expect, it } from 'vitest';
import { renderPlanText } from '../../src/render/plan-text.js';
import { expectGolden } from './golden.js';
import { noChangePlan, SECRET, samplePlan } from './plan-fixtures.js';

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
    expect(text).toContain(['      ~ instruction:', '          You help customers.', '        - Be brief.', '        + Be brief and kind.', '          Never guess.', '        + Escalate refunds.'].join('\n'));
  });

  it('warns about a pending create', () => {
    expect(renderPlanText(samplePlan(), { color: false })).toContain(
      'Warning: agent.ghost: a create was sent at 2025-03-04T05:06:07.000Z but its result was never recorded; a duplicate may exist on the server. Check the server, then `agentsync state rm` or re-run.',
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
});
