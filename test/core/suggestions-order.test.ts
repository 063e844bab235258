// docs/spec/server.md#how-records-compare: `suggestions` is an ordered list (users see the prompts
// in that order), unlike `tools` or `actions`. Reordering it is a change, the diff shows the new
// order, normalization and export keep it, and a server record that holds another order has
// drifted.
import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/core/diff.js';
import { exportManifest } from '../../src/core/export-manifest.js';
import { normalizeSpec } from '../../src/core/normalize.js';
import type { JsonObject } from '../../src/core/api-types.js';
import { baseBody, desiredOf, digest, stateOf, supportAgent } from './diff-fixtures.js';

const withSuggestions = (suggestions: string[]) => desiredOf({ ...baseBody, agents: { support: { ...supportAgent, suggestions } } });

describe('suggestions keep their order', () => {
  it('normalization leaves the order (and a repeated prompt) as written', () => {
    const spec = normalizeSpec('agent', { name: 'A', integrationType: 'llm', integrateWith: 'm', suggestions: ['Where is my order?', 'Refund', 'Refund'] });
    expect(spec.suggestions).toEqual(['Where is my order?', 'Refund', 'Refund']);
  });

  it('a reordering is an update whose field diff shows both orders', () => {
    const applied = withSuggestions(['Where is my order?', 'Refund']);
    const plan = planChanges({ desired: withSuggestions(['Refund', 'Where is my order?']), state: stateOf(applied), digest });
    const change = plan.changes.find((c) => c.address === 'agent.support');
    expect(change?.action).toBe('update');
    expect(change?.action === 'update' ? change.fields : []).toEqual([{ path: 'suggestions', before: ['Where is my order?', 'Refund'], after: ['Refund', 'Where is my order?'] }]);
  });

  it('the same order is no change', () => {
    const applied = withSuggestions(['b', 'a']);
    const plan = planChanges({ desired: withSuggestions(['b', 'a']), state: stateOf(applied), digest });
    expect(plan.changes.find((c) => c.address === 'agent.support')?.action).toBe('no-op');
  });

  it('export writes the server order', () => {
    const record = {
      remoteId: 'u1',
      identity: 'Support',
      spec: { name: 'Support', integrationType: 'llm', integrateWith: 'gpt-4o', isActive: true, tools: [], actions: [], suggestions: ['z first', 'a second'] },
    };
    const exported = exportManifest({ agent: { records: [record], matchable: true }, tool: { records: [], matchable: true } }, { name: 'us', appId: 'acme', region: 'us' });
    const agents = exported.document.agents as JsonObject;
    expect((agents.support as JsonObject).suggestions).toEqual(['z first', 'a second']);
  });
});
