// docs/spec/plan-and-apply.md#renames: renames never duplicate. `moved:` entries are checked at
// file:line:col, the plan moves the state entry (an update or no-op at the new address, never a
// create), and a rename without an entry is a conflict that names the old address.
import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/core/diff.js';
import { parseManifest } from '../../src/core/parse.js';
import { resolveManifest } from '../../src/core/resolve.js';
import { baseBody, desiredOf, digest, stateOf, supportAgent } from './diff-fixtures.js';

const HEAD = 'version: 1\nenvironments:\n  local: { appId: local, region: us }\ntools:\n  t: { displayName: T, executionText: x, doNotExecute: true }\n';
const AGENTS = 'agents:\n  guide: { name: Guide, integrationType: llm, integrateWith: gpt-4o }\n  desk: { name: Desk, integrationType: llm, integrateWith: gpt-4o }\n';

function problems(moved: string): string[] {
  const text = `${HEAD}${AGENTS}moved:\n${moved}`;
  return resolveManifest(parseManifest('agents.yaml', text), { env: {}, mode: 'validate' }).diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
}

describe('moved: in the manifest', () => {
  it('accepts a move from a key that left to one that is there', () => {
    expect(problems('  - { from: agent.old_guide, to: agent.guide }\n')).toEqual([]);
  });

  it.each([
    ['  - { from: agent.x, to: tool.t }\n', '10:26 an agent cannot move to a tool: moved entries keep their kind'],
    ['  - { from: agent.x, to: agent.nowhere }\n', '10:26 agent.nowhere is not in the manifest: moved names where a resource went'],
    ['  - { from: agent.desk, to: agent.guide }\n', '10:13 agent.desk is still in the manifest: only a key that left it can have moved'],
    ['  - { from: tool.old, to: tool.t }\n', "10:13 a tool's key is its name on the server: renaming it creates a new tool, which moved cannot express"],
    ['  - { from: nonsense, to: agent.guide }\n', '10:13 "nonsense" is not an address (tool.NAME, agent.KEY or website.KEY)'],
    ['  - { from: agent.a, to: agent.guide }\n  - { from: agent.b, to: agent.guide }\n', '11:26 two entries move to agent.guide'],
  ])('refuses %j at its position', (moved, expected) => {
    expect(problems(moved)).toEqual([expected]);
  });
});

describe('planChanges with renames', () => {
  const base = desiredOf(baseBody);
  const state = stateOf(base);
  const renamed = desiredOf({ ...baseBody, agents: { helpdesk: supportAgent } });

  it('marks a rename without moved: as a conflict naming the old address', () => {
    const plan = planChanges({ desired: renamed, state, digest });
    const create = plan.changes.find((c) => c.address === 'agent.helpdesk');
    expect(create).toMatchObject({ action: 'create', conflict: { remoteId: state.resources['agent.support']?.remoteId, movedFrom: 'agent.support' } });
    expect(plan.changes.find((c) => c.address === 'agent.support')?.action).toBe('forget');
  });

  it('moves the state entry with moved:, leaving nothing to create or forget', () => {
    const plan = planChanges({ desired: { ...renamed, moved: [{ from: 'agent.support', to: 'agent.helpdesk' }] }, state, digest });
    expect(plan.moves).toEqual([{ from: 'agent.support', to: 'agent.helpdesk', type: 'agent', remoteId: state.resources['agent.support']?.remoteId }]);
    expect(plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
    expect(plan.summary).toMatchObject({ create: 0, update: 0, forget: 0 });
  });

  it('does nothing for a move the state has already made', () => {
    const plan = planChanges({ desired: { ...base, moved: [{ from: 'agent.gone', to: 'agent.support' }] }, state, digest });
    expect(plan.moves).toBeUndefined();
    expect(plan.changes.every((c) => c.action === 'no-op')).toBe(true);
  });
});
