import { describe, expect, it } from 'vitest';
import { planToJson } from '../../src/render/plan-json.js';
import { expectGolden } from './golden.js';
import { noChangePlan, SECRET, samplePlan } from './plan-fixtures.js';

describe('planToJson', () => {
  it('matches the golden JSON', () => {
    expectGolden('plan.json', JSON.stringify(planToJson(samplePlan()), null, 2) + '\n');
  });

  it('has exactly the contract keys, lists no-ops, and keeps remote ids off creates', () => {
    const json = planToJson(samplePlan());
    expect(Object.keys(json)).toEqual(['formatVersion', 'environment', 'appId', 'region', 'refreshed', 'drift', 'warnings', 'prune', 'changes', 'summary', 'pending']);
    expect(json).toMatchObject({ formatVersion: 1, environment: 'local', appId: 'local', region: 'us', summary: { create: 2, update: 2, forget: 1, noop: 1 } });
    for (const change of json.changes) {
      expect(Object.keys(change)).toEqual(change.action === 'create' ? ['address', 'type', 'action', 'fields'] : ['address', 'type', 'action', 'fields', 'remoteId']);
    }
    expect(json.changes.find((c) => c.action === 'no-op')).toEqual({ address: 'website.docs', type: 'website', action: 'no-op', fields: [], remoteId: 'website-docs-id' });
    expect(planToJson(noChangePlan()).changes.map((c) => c.action)).toEqual(['no-op', 'no-op', 'no-op']);
  });

  it('marks sensitive fields and never holds a secret or its digest', () => {
    const text = JSON.stringify(planToJson(samplePlan()));
    expect(text).toContain('{"path":"integrationMeta.headers","before":"(sensitive)","after":"(sensitive)","sensitive":true}');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('hmac-sha256');
  });
});
