import { describe, expect, it } from 'vitest';
import { planToJson } from '../../src/render/plan-json.js';
import { expectGolden } from './golden.js';
import { noChangePlan, replacePlan, SECRET, samplePlan } from './plan-fixtures.js';

describe('planToJson', () => {
  it('matches the golden JSON', () => {
    expectGolden('plan.json', JSON.stringify(planToJson(samplePlan()), null, 2) + '\n');
  });

  it('has exactly the contract keys, lists no-ops, and keeps remote ids off creates', () => {
    const json = planToJson(samplePlan());
    expect(Object.keys(json)).toEqual(['formatVersion', 'environment', 'appId', 'region', 'refreshed', 'drift', 'warnings', 'prune', 'changes', 'summary', 'pending']);
    expect(json).toMatchObject({ formatVersion: 1, environment: 'local', appId: 'local', region: 'us', summary: { create: 2, update: 2, replace: 0, forget: 1, noop: 1 } });
    for (const change of json.changes) {
      // Terraform's JSON habit: the side that does not exist is null, so a policy can test for it.
      const keys = {
        // Both creates of the sample leave empty defaults out of the manifest (`defaulted`).
        create: ['address', 'type', 'action', 'fields', 'before', 'after', 'defaulted'],
        update: ['address', 'type', 'action', 'fields', 'remoteId', 'before', 'after'],
        'no-op': ['address', 'type', 'action', 'fields', 'remoteId'],
        delete: ['address', 'type', 'action', 'fields', 'remoteId', 'before', 'after'],
        forget: ['address', 'type', 'action', 'fields', 'remoteId', 'before', 'after'],
      };
      expect(Object.keys(change)).toEqual(keys[change.action]);
    }
    expect(json.changes.find((c) => c.action === 'no-op')).toEqual({ address: 'website.docs', type: 'website', action: 'no-op', fields: [], remoteId: 'website-docs-id' });
    expect(planToJson(noChangePlan()).changes.map((c) => c.action)).toEqual(['no-op', 'no-op', 'no-op']);
  });

  it("carries each change's whole before and after record, sensitive values as (sensitive)", () => {
    const json = planToJson(samplePlan());
    for (const change of json.changes) {
      for (const record of [change.before, change.after]) if (record !== undefined && record !== null) expect(typeof record).toBe('object');
    }
    const withHeaders = json.changes.filter((c) => JSON.stringify(c.after ?? null).includes('headers'));
    expect(withHeaders.length).toBeGreaterThan(0);
    for (const change of withHeaders) expect((change.after as { integrationMeta: { headers: unknown } }).integrationMeta.headers).toBe('(sensitive)');
    for (const change of json.changes) {
      if (change.action === 'create') expect(change.before).toBeNull();
      if (change.action === 'delete' || change.action === 'forget') expect(change.after).toBeNull();
    }
    const update = json.changes.find((c) => c.action === 'update');
    expect(update?.before).toBeDefined();
    expect(update?.after).toBeDefined();
  });

  it('marks sensitive fields and never holds a secret or its digest', () => {
    const text = JSON.stringify(planToJson(samplePlan()));
    expect(text).toContain('{"path":"integrationMeta.headers","before":"(sensitive)","after":"(sensitive)","sensitive":true}');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('hmac-sha256');
  });
});

// Issue 40 §3.3: a replacement is counted as one, not as an update.
describe('planToJson summary of a replacement', () => {
  it('counts it under `replace`, apart from in-place updates, and keeps every other key', () => {
    const json = planToJson(replacePlan());
    expect(json.summary).toEqual({ create: 0, update: 1, replace: 1, delete: 0, forget: 0, noop: 1 });
    expect(json.changes.find((c) => c.address === 'website.site')).toMatchObject({ action: 'update', replace: true });
  });
});
