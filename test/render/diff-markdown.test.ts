// The markdown diff stays within GitHub's comment limit, says what it left out, and keeps data
// (a value with `|`, a mention) from breaking the table or pinging anyone: values stay in code spans.
import { describe, expect, it } from 'vitest';
import type { EnvironmentsDiff, ResourceDiff } from '../../src/core/env-diff/types.js';
import { renderDiffMarkdown } from '../../src/render/diff-markdown.js';

function drifted(i: number, description: string): ResourceDiff {
  return {
    address: `tool.t${i}`,
    type: 'tool',
    group: 'drift',
    driftIn: ['eu'],
    sides: [
      { environment: 'us', declared: true, present: true },
      { environment: 'eu', declared: true, present: true },
    ],
    fields: [
      {
        path: 'description',
        group: 'drift',
        driftIn: ['eu'],
        sides: [
          { environment: 'us', manifest: description, live: description },
          { environment: 'eu', manifest: description, live: `${description} (edited)` },
        ],
      },
    ],
  };
}

function diffOf(resources: ResourceDiff[]): EnvironmentsDiff {
  return {
    mode: 'manifest',
    environments: [
      { name: 'us', appId: 'app-us', region: 'us' },
      { name: 'eu', appId: 'app-eu', region: 'eu' },
    ],
    resources,
    summary: { differ: resources.length, drift: [0, resources.length], only: [0, 0], differs: 0, intended: 0, identical: 0 },
    warnings: [],
    unreadable: [],
  };
}

describe('renderDiffMarkdown', () => {
  it('stays within GitHub comment limit and counts the resources it left out', () => {
    const text = renderDiffMarkdown(diffOf(Array.from({ length: 5000 }, (_, i) => drifted(i, 'x'.repeat(150)))));
    expect(text.length).toBeLessThanOrEqual(60_000);
    const shown = text.split('\n').filter((line) => line.startsWith('| `tool.')).length;
    expect(shown).toBeGreaterThan(10);
    expect(text).toContain(`_… ${5000 - shown} more resources not shown; run \`agentsync diff\` for the whole comparison._`);
  });

  it('keeps a value with | inside its cell, and a mention inside a code span (where it pings no one)', () => {
    const text = renderDiffMarkdown(diffOf([drifted(1, 'a | b @team')]));
    const row = text.split('\n').find((line) => line.startsWith('| `tool.t1`')) ?? '';
    // Five cells: the unescaped pipes are exactly the six borders.
    expect(row.replaceAll('\\|', '').split('|')).toHaveLength(7);
    expect(row).toContain('`"a \\| b @team"`');
    expect(text.replaceAll(/`[^`]*`/g, '')).not.toContain('@team');
  });

  it('stays within the limit with thousands of unreadable resources, and counts those it does not list', () => {
    const diff = diffOf([drifted(1, 'x')]);
    diff.unreadable = Array.from({ length: 3000 }, (_, i) => ({
      environment: 'eu',
      address: `website.site_${i}`,
      message: `GET /ai-agents/agent-builder/knowledge-base/website/${i}/discovered-urls answered 500`,
    }));
    const text = renderDiffMarkdown(diff);
    expect(text.length).toBeLessThanOrEqual(60_000);
    const listed = text.split('\n').filter((line) => line.startsWith('> - ')).length;
    expect(listed).toBeGreaterThan(10);
    expect(text).toContain(`> … and ${3000 - listed} more; run \`agentsync diff\` for the whole list.`);
  });
});
