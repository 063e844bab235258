// How a --prune plan reads in text, markdown and JSON, and how an apply that deleted ends.
import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/core/diff.js';
import type { ApplyResult } from '../../src/core/apply-types.js';
import { applyResultToJson, renderApplySummary } from '../../src/render/apply-summary.js';
import { planToJson } from '../../src/render/plan-json.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import { createProgress } from '../../src/render/progress.js';
import { desiredOf, digest, stateOf } from '../core/diff-fixtures.js';

const lookup = { displayName: 'Lookup', executionText: 'Looking', description: 'Looks up', parameters: {} };
const old = desiredOf({
  tools: { lookup, old_tool: lookup },
  agents: { old_agent: { name: 'Old', integrationType: 'llm', integrateWith: 'gpt-4o', actions: ['old_tool'] } },
  knowledgeBase: { websites: { docs: { parentUniqueId: 'web_demo', exclude: [] } } },
});
const now = desiredOf({ tools: { lookup } });
const state = stateOf(old);
const pruned = planChanges({ desired: now, state, digest, scope: { prune: true, targets: [] } });
const unpruned = planChanges({ desired: now, state, digest });

describe('a --prune plan', () => {
  it('text: `- delete` in the legend, one line per deletion, a website forgotten with the reason, and the four-count summary', () => {
    const text = renderPlanText(pruned, { color: false });
    expect(text).toContain('  - delete\n');
    expect(text).toContain('  - agent.old_agent (uid agent-old_agent-id) will be deleted from the server\n');
    expect(text).toContain('  - tool.old_tool (_id tool-old_tool-id) will be deleted from the server\n');
    expect(text).toContain('  - website.docs (batchId website-docs-id) websites cannot be deleted through the API, so it is only forgotten and stays on the server\n');
    expect(text.trimEnd().split('\n').at(-1)).toBe('Plan: 0 to create, 0 to update, 2 to delete, 1 to forget.');
  });

  it("text without --prune keeps the contract's three-count summary", () => {
    const text = renderPlanText(unpruned, { color: false });
    expect(text).not.toContain('delete');
    expect(text.trimEnd().split('\n').at(-1)).toBe('Plan: 0 to create, 0 to update, 3 to forget.');
  });

  it('markdown: a delete row and a block per deletion', () => {
    const markdown = renderPlanMarkdown(pruned);
    expect(markdown).toContain('**Plan: 0 to create, 0 to update, 2 to delete, 1 to forget.**');
    expect(markdown).toContain('| `-` delete | 2 |');
    expect(markdown).toContain('<code>- agent.old_agent</code> delete (uid agent-old_agent-id)');
    expect(renderPlanMarkdown(unpruned)).not.toContain('delete');
  });

  it('JSON: `delete` counted in the summary (0 without --prune), delete actions with their remote ids', () => {
    const json = planToJson(pruned);
    expect(json.summary).toEqual({ create: 0, update: 0, replace: 0, delete: 2, forget: 1, noop: 1 });
    expect(json.prune).toBe(true);
    expect(json.changes.filter((c) => c.action === 'delete')).toMatchObject([
      { address: 'tool.old_tool', type: 'tool', action: 'delete', fields: [], remoteId: 'tool-old_tool-id' },
      { address: 'agent.old_agent', type: 'agent', action: 'delete', fields: [], remoteId: 'agent-old_agent-id' },
    ]);
    // The record being deleted comes whole, for policies that check what is removed.
    for (const change of json.changes.filter((c) => c.action === 'delete')) expect(change.before).toEqual(expect.any(Object));
    expect(json.changes.find((c) => c.address === 'website.docs')).toMatchObject({ action: 'forget', undeletable: true });
    expect(planToJson(unpruned).summary).toEqual({ create: 0, update: 0, replace: 0, delete: 0, forget: 3, noop: 1 });
  });
});

describe('an apply that deleted', () => {
  const result: ApplyResult = {
    environment: 'local',
    prune: true,
    ok: true,
    total: 2,
    counts: { created: 0, updated: 0, deleted: 2, forgotten: 0 },
    done: [
      { address: 'agent.old_agent', type: 'agent', action: 'delete', remoteId: 'u1', call: 'DELETE /ai-agents/agents/u1', ms: 3, retries: 0 },
      { address: 'tool.old_tool', type: 'tool', action: 'delete', remoteId: 't1', call: 'DELETE /ai-agents/tools/old_tool', ms: 2, retries: 0, gone: true },
    ],
    failed: [],
    notAttempted: [],
    notify: { status: 'skipped', reason: 'not-configured' },
  };

  it('ends with the summary that counts deletions, and says so in JSON', () => {
    expect(renderApplySummary(result, { color: false })).toBe('Apply complete: 0 created, 0 updated, 2 deleted, 0 forgotten.\n');
    expect(applyResultToJson(result).summary).toMatchObject({ created: 0, updated: 0, deleted: 2, forgotten: 0 });
  });

  it('prints a plain progress line per deletion, saying when it was already gone', () => {
    const lines: string[] = [];
    const progress = createProgress({ tty: false, color: false, total: 2, write: (t) => lines.push(t) });
    for (const item of result.done) progress.onEvent({ kind: 'done', ...item });
    expect(lines).toEqual(['deleted agent.old_agent (DELETE, 3 ms)\n', 'deleted tool.old_tool (DELETE, 2 ms, already gone from the server)\n']);
  });
});
