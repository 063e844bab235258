import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/core/diff.js';
import { jsonEqual } from '../../src/core/json-equal.js';
import type { Desired } from '../../src/core/desired.js';

describe('jsonEqual', () => {
  it.each([
    [{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [[1, 2], [2, 1], false],
    [{ a: [] }, { a: {} }, false],
    [null, {}, false],
    ['x', 'x', true],
    // JSON data, not objects with methods: these used to make fast-deep-equal throw or lie.
    [{ valueOf: 'x' }, { valueOf: 'x' }, true],
    [{ valueOf: 'x' }, { valueOf: 'y' }, false],
    [{ toString: 'a' }, { toString: 'b' }, false],
  ])('%j vs %j → %s', (a, b, expected) => {
    expect(jsonEqual(a, b)).toBe(expected);
  });

  it('lets a metaData key named valueOf or toString through the diff', () => {
    const spec = { name: 'A', isActive: true, integrateWith: 'm', integrationType: 'llm' as const, tools: [], actions: [], metaData: { valueOf: 'v', toString: 't' } };
    const desired: Desired = {
      environment: { name: 'local', appId: 'local', region: 'us', baseUrl: 'http://127.0.0.1:1/v3', apiKeyEnv: 'K' },
      resources: [{ type: 'agent', key: 'a', address: 'agent.a', spec, sensitive: [] }],
      externalTools: [],
    };
    const state = {
      version: 1 as const,
      lineage: '00000000-0000-4000-8000-000000000000',
      serial: 1,
      environment: 'local',
      appId: 'local',
      region: 'us' as const,
      salt: 'c2FsdHNhbHRzYWx0c2FsdA==',
      pending: {},
      resources: { 'agent.a': { type: 'agent' as const, remoteId: 'u1', spec: { ...spec, metaData: { valueOf: 'v', toString: 'OLD' } }, appliedAt: 't' } },
    };
    const plan = planChanges({ desired, state, digest: (t) => t });
    expect(plan.changes[0]).toMatchObject({ action: 'update', fields: [{ path: 'metaData.toString', before: 'OLD', after: 't' }] });
  });
});
