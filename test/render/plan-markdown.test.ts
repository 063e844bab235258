import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/core/diff.js';
import type { Plan } from '../../src/core/plan.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { desiredOf, digest, weatherTool } from '../core/diff-fixtures.js';
import { expectGolden } from './golden.js';
import { noChangePlan, replacePlan, SECRET, samplePlan } from './plan-fixtures.js';

/** The block structure as a markdown reader sees it: `</details>` counts only outside code fences. */
function structure(markdown: string): { opened: number; closed: number; unclosedFence: boolean } {
  let fence: string | undefined;
  let opened = 0;
  let closed = 0;
  for (const line of markdown.split('\n')) {
    const marker = /^(`{3,})/.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) fence = marker;
    else if (fence !== undefined && marker !== undefined && marker.length >= fence.length && line.trim() === marker) fence = undefined;
    else if (fence === undefined && line.startsWith('<details>')) opened++;
    else if (fence === undefined && line === '</details>') closed++;
  }
  return { opened, closed, unclosedFence: fence !== undefined };
}

function manyToolsPlan(count: number): Plan {
  const tools = Object.fromEntries(Array.from({ length: count }, (_, i) => [`tool_${String(i).padStart(5, '0')}`, weatherTool]));
  return planChanges({ desired: desiredOf({ tools }), state: null, digest });
}

describe('renderPlanMarkdown', () => {
  it('matches the golden markdown', () => {
    expectGolden('plan.md', renderPlanMarkdown(samplePlan()));
  });

  it('says "No changes." and shows no table when nothing changes', () => {
    expectGolden('plan-no-changes.md', renderPlanMarkdown(noChangePlan()));
    expect(renderPlanMarkdown(noChangePlan())).toContain('No changes. Environment "local" matches the manifest.');
  });

  it('has a summary table and one collapsible block per changed resource', () => {
    const markdown = renderPlanMarkdown(samplePlan());
    expect(markdown).toContain('| `+` create | 2 |\n| `~` update in-place | 2 |\n| `-` forget (stays on the server) | 1 |\n| unchanged | 1 |');
    // One block per changed resource, and the collapsed graph.
    expect(structure(markdown)).toEqual({ opened: 6, closed: 6, unclosedFence: false });
    expect(markdown).not.toContain(SECRET);
  });

  it('cannot be broken out of by values holding fences or HTML', () => {
    const hostile = 'a\n```\n</details>\n<script>alert(1)</script>\n````';
    const desired = desiredOf({ agents: { x: { name: '<b>x</b>', integrationType: 'llm', integrateWith: 'm', instruction: hostile } } });
    // The schema forbids such keys; the renderer must not rely on that.
    for (const resource of desired.resources) resource.address = 'agent.x</summary>';
    const plan = planChanges({ desired, state: null, digest });
    const markdown = renderPlanMarkdown(plan);
    expect(structure(markdown)).toEqual({ opened: 2, closed: 2, unclosedFence: false });
    expect(markdown).toContain('`````diff');
    expect(markdown).toContain('<code>+ agent.x&#60;/summary&#62;</code>');
    expect(markdown.split('\n').filter((line) => line.startsWith('<script>'))).toEqual([]);
  });

  it('cuts a 5,000-resource plan to 60,000 characters and says how much it left out', () => {
    const plan = manyToolsPlan(5000);
    const markdown = renderPlanMarkdown(plan);
    expect(markdown.length).toBeLessThanOrEqual(60_000);
    expect(markdown.length).toBeGreaterThan(55_000);
    const { opened, closed, unclosedFence } = structure(markdown);
    expect(unclosedFence).toBe(false);
    expect(opened).toBe(closed);
    expect(markdown).toContain(`_… ${5000 - opened} more resources not shown; run \`agentsync plan\` for the full plan._`);
    expect(markdown).toContain('| `+` create | 5000 |');
  });

  it('honours a smaller maxLength and keeps everything when it fits', () => {
    const plan = manyToolsPlan(40);
    const full = renderPlanMarkdown(plan);
    expect(full).not.toContain('not shown');
    expect(structure(full).opened).toBe(41);
    const short = renderPlanMarkdown(plan, { maxLength: 3_000 });
    expect(short.length).toBeLessThanOrEqual(3_000);
    expect(short).toMatch(/_… \d+ more resources not shown/);
  });
});

// Issue 40 §3.3: a replacement is counted as one, not as an update.
describe('renderPlanMarkdown of a replacement', () => {
  it('counts it on its own row and in the summary line', () => {
    const markdown = renderPlanMarkdown(replacePlan());
    expect(markdown).toContain('**Plan: 0 to create, 1 to update, 1 to replace, 0 to forget.**');
    expect(markdown).toContain('| `~` update in-place | 1 |\n| `-/+` replace | 1 |\n| `-` forget (stays on the server) | 0 |');
  });
});
