// --prune and --target in the diff: what becomes a delete, what stays a forget, what a target pulls
// in, and how an unknown target is refused.
import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/core/diff.js';
import type { Desired } from '../../src/core/desired.js';
import { isUserError } from '../../src/core/errors.js';
import type { Plan } from '../../src/core/plan.js';
import { goneFromServer, selectTargets } from '../../src/core/plan-scope.js';
import { foldEntry, type State } from '../../src/core/state.js';
import { desiredOf, digest, stateOf } from './diff-fixtures.js';

const tools = {
  lookup: { displayName: 'Lookup', executionText: 'Looking', description: 'Looks up', parameters: {} },
  card: { displayName: 'Card', executionText: 'Showing', doNotExecute: true },
  old_tool: { displayName: 'Old', executionText: 'Old', description: 'Old', parameters: {} },
};
const agents = {
  helper: { name: 'Helper', integrationType: 'llm' as const, integrateWith: 'gpt-4o', actions: ['lookup'], tools: ['card'] },
  old_agent: { name: 'Old agent', integrationType: 'llm' as const, integrateWith: 'gpt-4o', actions: ['old_tool'] },
};
const websites = { docs: { parentUniqueId: 'web_demo', exclude: [] } };

const full = desiredOf({ tools, agents, knowledgeBase: { websites } });
const kept = desiredOf({ tools: { lookup: tools.lookup, card: tools.card }, agents: { helper: agents.helper } });
const recorded = stateOf(full);

const actions = (plan: Plan): Record<string, string> => Object.fromEntries(plan.changes.filter((c) => c.action !== 'no-op').map((c) => [c.address, c.action]));

describe('--prune', () => {
  it('without it, what left the manifest is forgotten; with it, deleted, except kinds the API cannot delete', () => {
    expect(actions(planChanges({ desired: kept, state: recorded, digest }))).toEqual({ 'tool.old_tool': 'forget', 'agent.old_agent': 'forget', 'website.docs': 'forget' });
    const pruned = planChanges({ desired: kept, state: recorded, digest, scope: { prune: true, targets: [] } });
    expect(actions(pruned)).toEqual({ 'tool.old_tool': 'delete', 'agent.old_agent': 'delete', 'website.docs': 'forget' });
    expect(pruned.prune).toBe(true);
    expect(pruned.summary).toEqual({ create: 0, update: 0, replace: 0, delete: 2, forget: 1, noop: 3 });
    const website = pruned.changes.find((c) => c.address === 'website.docs');
    expect(website).toMatchObject({ action: 'forget', undeletable: true });
    const agent = pruned.changes.find((c) => c.address === 'agent.old_agent');
    expect(agent).toMatchObject({ action: 'delete', remoteId: 'agent-old_agent-id' });
  });

  it('never deletes what was never in the state', () => {
    const plan = planChanges({ desired: kept, state: null, digest, scope: { prune: true, targets: [] } });
    expect(plan.summary).toMatchObject({ create: 3, delete: 0, forget: 0 });
    const partial = stateOf(kept);
    expect(planChanges({ desired: kept, state: partial, digest, scope: { prune: true, targets: [] } }).summary).toMatchObject({ delete: 0, noop: 3 });
  });

  it('drops a resource the refresh found deleted on the server without a call: a gone delete with --prune, a gone forget without', () => {
    const refreshed = structuredClone(recorded);
    delete refreshed.resources['agent.old_agent'];
    const gone = goneFromServer(recorded, { 'agent.old_agent': null });
    expect(Object.keys(gone)).toEqual(['agent.old_agent']);
    const plan = planChanges({ desired: kept, state: refreshed, digest, scope: { prune: true, targets: [] }, goneFromServer: gone });
    expect(plan.changes.find((c) => c.address === 'agent.old_agent')).toMatchObject({ action: 'delete', gone: true, remoteId: 'agent-old_agent-id' });
    const unpruned = planChanges({ desired: kept, state: refreshed, digest, goneFromServer: gone });
    expect(unpruned.changes.find((c) => c.address === 'agent.old_agent')).toMatchObject({ action: 'forget', gone: true, remoteId: 'agent-old_agent-id' });
    expect(unpruned.summary).toMatchObject({ delete: 0 });
  });

  it('a pending DELETE is warned about as a delete, and never adopted as a create', () => {
    const state: State = structuredClone(recorded);
    foldEntry(state, { op: 'pending', address: 'agent.old_agent', type: 'agent', since: '2025-01-01T00:00:00.000Z', action: 'delete' });
    const plan = planChanges({ desired: kept, state, digest, scope: { prune: true, targets: [] } });
    expect(plan.pending).toEqual([{ address: 'agent.old_agent', type: 'agent', since: '2025-01-01T00:00:00.000Z', action: 'delete' }]);
    // The same address back in the manifest, gone from the server, and an untracked agent of that name: a conflict, not an adoption.
    const back = desiredOf({ tools, agents });
    delete state.resources['agent.old_agent'];
    const untracked = { agent: new Map([['Old agent', [{ remoteId: 'someone-else', identity: 'Old agent', spec: {}, createdAtMs: Date.parse('2025-06-01') }]]]) };
    const replanned = planChanges({ desired: back, state, digest, refresh: { drift: [], warnings: [], untracked } });
    expect(replanned.changes.find((c) => c.address === 'agent.old_agent')).toMatchObject({ action: 'create', conflict: { remoteId: 'someone-else' } });
  });
});

describe('--target', () => {
  const changed: Desired = desiredOf({
    tools: { ...tools, lookup: { ...tools.lookup, description: 'Changed' }, old_tool: { ...tools.old_tool, description: 'Changed too' } },
    agents: { ...agents, helper: { ...agents.helper, name: 'Helper 2' } },
    knowledgeBase: { websites: { docs: { parentUniqueId: 'web_demo', exclude: ['url_1'] } } },
  });

  it('limits the plan to the targets and the tools and actions they name, and says so', () => {
    const plan = planChanges({ desired: changed, state: recorded, digest, scope: { prune: false, targets: ['agent.helper'] } });
    expect(actions(plan)).toEqual({ 'tool.lookup': 'update', 'agent.helper': 'update' });
    expect(plan.changes.map((c) => c.address)).toEqual(['tool.card', 'tool.lookup', 'agent.helper']);
    expect(plan.summary).toEqual({ create: 0, update: 2, replace: 0, delete: 0, forget: 0, noop: 1 });
    expect(plan.warnings.at(-1)).toContain('limited to --target: agent.helper, tool.card, tool.lookup');
  });

  it('a tool target does not pull in the agents that use it; a state-only address can be targeted (and pruned)', () => {
    expect(actions(planChanges({ desired: changed, state: recorded, digest, scope: { prune: false, targets: ['tool.old_tool'] } }))).toEqual({ 'tool.old_tool': 'update' });
    const plan = planChanges({ desired: kept, state: recorded, digest, scope: { prune: true, targets: ['agent.old_agent'] } });
    expect(actions(plan)).toEqual({ 'agent.old_agent': 'delete' });
  });

  it('refuses an unknown address with a suggestion, and a malformed one with the address grammar', () => {
    const refused = (targets: string[]): string => {
      try {
        selectTargets(changed, Object.keys(recorded.resources), targets);
      } catch (err) {
        expect(isUserError(err)).toBe(true);
        return (err as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused(['agent.helpr'])).toBe('--target agent.helpr: the manifest and the state have no resource with that address; did you mean "agent.helper"?');
    expect(refused(['agent.zzzzzzzzzz'])).toBe('--target agent.zzzzzzzzzz: the manifest and the state have no resource with that address');
    expect(refused(['helper'])).toContain('is not an address; addresses look like tool.<name>, agent.<key> or website.<key>');
    expect(refused(['tools.lookup'])).toContain('is not an address');
  });
});
