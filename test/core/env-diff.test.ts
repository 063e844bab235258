// core/env-diff: two environments compared through their plans, table by table, no I/O. Each side
// is what app/diff.ts hands it: the environment's desired resources, its plan against a state that
// stands for the refreshed server, and the server records no state tracks.
import { describe, expect, it } from 'vitest';
import type { DesiredResource, DesiredTool } from '../../src/core/desired.js';
import { planChanges } from '../../src/core/diff.js';
import { compareEnvironments, type ManagedSide } from '../../src/core/env-diff/compare.js';
import { compareLive } from '../../src/core/env-diff/records.js';
import type { RemoteRecord } from '../../src/core/kinds/kind.js';
import type { UntrackedIndex } from '../../src/core/refresh.js';
import { redactSpec } from '../../src/core/redact.js';
import type { State } from '../../src/core/state.js';

const SECRET_US = 'us-secret-value-1';
const SECRET_EU = 'eu-secret-value-2';

function tool(name: string, description: string, extra: Partial<DesiredTool['spec']> = {}, sensitive: DesiredTool['sensitive'] = []): DesiredTool {
  return {
    type: 'tool',
    key: name,
    address: `tool.${name}`,
    spec: { name, displayName: name, executionText: 'Working', description, parameters: {}, doNotExecute: false, ...extra } as DesiredTool['spec'],
    sensitive,
  };
}

/** A side whose server holds `live` (by address; a state entry each), and `untracked` records no state tracks. */
function side(name: string, resources: DesiredResource[], live: Record<string, DesiredResource['spec']>, untracked: RemoteRecord[] = []): ManagedSide {
  const state: State = {
    version: 1,
    lineage: '7d0f4c1e-2b8a-4d7e-9f3a-1c2b3d4e5f60',
    serial: 1,
    environment: name,
    appId: `app-${name}`,
    region: 'us',
    salt: 'c2FsdHNhbHRzYWx0c2FsdA==',
    resources: Object.fromEntries(
      Object.entries(live).map(([address, spec]) => [address, { type: 'tool', remoteId: `id-${name}-${address}`, spec: spec as never, appliedAt: '2026-01-01T00:00:00Z' }]),
    ),
    pending: {},
  };
  const index: UntrackedIndex = { tool: new Map(untracked.map((record) => [record.identity ?? '', [record]])), agent: new Map() };
  const desired = { environment: { name, appId: `app-${name}`, region: 'us' as const, baseUrl: 'https://x.example/v3', apiKeyEnv: 'KEY' }, resources, externalTools: [] };
  const plan = planChanges({ desired, state, digest, refresh: { drift: [], warnings: [], untracked: index } });
  return { info: { name, appId: `app-${name}`, region: 'us' }, resources, plan, untracked: index };
}

/** Stands for the state's keyed digest; like it, it differs for different values. */
function digest(canonical: string): string {
  let hash = 0;
  for (const char of canonical) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `hmac-sha256:${hash.toString(16).padStart(64, '0')}`;
}

const record = (name: string, description: string): RemoteRecord => ({
  identity: name,
  remoteId: `rid-${name}`,
  spec: { name, displayName: name, executionText: 'Working', description, parameters: {} },
});

describe('compareEnvironments', () => {
  it('counts identical resources and lists nothing', () => {
    const ping = tool('ping', 'Ping');
    const diff = compareEnvironments(side('us', [ping], { 'tool.ping': ping.spec }), side('eu', [ping], { 'tool.ping': ping.spec }));
    expect(diff.resources).toEqual([]);
    expect(diff.summary).toEqual({ differ: 0, drift: [0, 0], only: [0, 0], differs: 0, intended: 0, identical: 1 });
  });

  it('shows values the manifest gives each environment as intended, not as a difference', () => {
    const [us, eu] = [tool('ping', 'Ping from us'), tool('ping', 'Ping from eu')];
    const diff = compareEnvironments(side('us', [us], { 'tool.ping': us.spec }), side('eu', [eu], { 'tool.ping': eu.spec }));
    expect(diff.resources).toEqual([
      {
        address: 'tool.ping',
        type: 'tool',
        group: 'intended',
        sides: [
          { environment: 'us', declared: true, present: true },
          { environment: 'eu', declared: true, present: true },
        ],
        fields: [
          {
            path: 'description',
            group: 'intended',
            sides: [
              { environment: 'us', manifest: 'Ping from us', live: 'Ping from us' },
              { environment: 'eu', manifest: 'Ping from eu', live: 'Ping from eu' },
            ],
          },
        ],
      },
    ]);
    expect(diff.summary).toMatchObject({ differ: 0, intended: 1 });
  });

  it('names drift with the environment, its manifest value and its live one, even where the manifests also differ', () => {
    const [us, eu] = [tool('ping', 'Ping from us'), tool('ping', 'Ping from eu')];
    const diff = compareEnvironments(side('us', [us], { 'tool.ping': us.spec }), side('eu', [eu], { 'tool.ping': { ...eu.spec, description: 'edited by hand' } }));
    expect(diff.resources[0]).toMatchObject({ address: 'tool.ping', group: 'drift', driftIn: ['eu'] });
    expect(diff.resources[0]!.fields).toEqual([
      {
        path: 'description',
        group: 'drift',
        driftIn: ['eu'],
        sides: [
          { environment: 'us', manifest: 'Ping from us', live: 'Ping from us' },
          { environment: 'eu', manifest: 'Ping from eu', live: 'edited by hand' },
        ],
      },
    ]);
    expect(diff.summary).toMatchObject({ differ: 1, drift: [0, 1] });
  });

  it('counts a drifting resource with an intended field among the intended differences too, and labels that field', () => {
    const [us, eu] = [tool('ping', 'Ping from us', { displayName: 'Ping' }), tool('ping', 'Ping from eu', { displayName: 'Ping' })];
    const diff = compareEnvironments(side('us', [us], { 'tool.ping': us.spec }), side('eu', [eu], { 'tool.ping': { ...eu.spec, displayName: 'Edited' } }));
    expect(diff.resources[0]).toMatchObject({ address: 'tool.ping', group: 'drift', driftIn: ['eu'] });
    expect(diff.resources[0]!.fields.map((field) => [field.path, field.group])).toEqual([
      ['description', 'intended'],
      ['displayName', 'drift'],
    ]);
    expect(diff.summary).toMatchObject({ differ: 1, drift: [0, 1], intended: 1, identical: 0 });
  });

  it('names a declared resource missing from a server as drift there; one declared for a single environment is intended', () => {
    const [ping, only] = [tool('ping', 'Ping'), tool('us_only', 'Only in us')];
    const diff = compareEnvironments(side('us', [ping, only], { 'tool.ping': ping.spec, 'tool.us_only': only.spec }), side('eu', [ping], {}));
    expect(diff.resources.map((r) => [r.address, r.group, r.driftIn ?? []])).toEqual([
      ['tool.ping', 'drift', ['eu']],
      ['tool.us_only', 'intended', []],
    ]);
    expect(diff.resources[0]!.sides[1]).toEqual({ environment: 'eu', declared: true, present: false });
    expect(diff.resources[1]!.sides[1]).toEqual({ environment: 'eu', declared: false, present: false });
  });

  it('finds by name what no state holds, and compares it with the manifest', () => {
    const ping = tool('ping', 'Ping');
    const diff = compareEnvironments(side('us', [ping], { 'tool.ping': ping.spec }), side('eu', [ping], {}, [record('ping', 'made by hand')]));
    expect(diff.resources).toHaveLength(1);
    expect(diff.resources[0]).toMatchObject({ address: 'tool.ping', group: 'drift', driftIn: ['eu'], fields: [{ path: 'description', sides: [{ live: 'Ping' }, { live: 'made by hand' }] }] });
  });

  it('matches unmanaged records across the servers: one side only, the same, or different', () => {
    const diff = compareEnvironments(
      side('us', [], {}, [record('scratch', 'x'), record('same', 'same'), record('other', 'us text')]),
      side('eu', [], {}, [record('same', 'same'), record('other', 'eu text')]),
    );
    expect(diff.resources.map((r) => [r.address, r.group, r.onlyIn])).toEqual([
      ['tool.other', 'differs', undefined],
      ['tool.scratch', 'only', 'us'],
    ]);
    expect(diff.summary).toEqual({ differ: 2, drift: [0, 0], only: [1, 0], differs: 1, intended: 0, identical: 1 });
  });

  it('compares sensitive values whole and says they differ, without either value', () => {
    const headers = ['parameters', 'properties'] as const;
    const us = tool('hook', 'Hook', { parameters: { properties: { token: { type: 'string', description: SECRET_US } } } }, [[...headers]]);
    const eu = tool('hook', 'Hook', { parameters: { properties: { token: { type: 'string', description: SECRET_EU } } } }, [[...headers]]);
    // The refreshed state holds the server's sensitive values digested, as the plan compares them.
    const diff = compareEnvironments(side('us', [us], { 'tool.hook': redactSpec(us, digest) as never }), side('eu', [eu], { 'tool.hook': redactSpec(eu, digest) as never }));
    expect(diff.resources[0]!.fields).toEqual([
      {
        path: 'parameters.properties',
        group: 'intended',
        sensitive: true,
        sides: [
          { environment: 'us', manifest: '(sensitive)', live: '(sensitive)' },
          { environment: 'eu', manifest: '(sensitive)', live: '(sensitive)' },
        ],
      },
    ]);
    const text = JSON.stringify(diff);
    for (const secret of [SECRET_US, SECRET_EU]) expect(text).not.toContain(secret);
  });

  it('is linear: 10,000 resources per side compare in well under a second', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => tool(`t${i}`, i % 2 === 0 ? 'even' : 'odd'));
    const live = Object.fromEntries(many.map((t) => [t.address, t.spec]));
    const [a, b] = [side('us', many, live), side('eu', many, live)];
    const started = performance.now();
    const diff = compareEnvironments(a, b);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(diff.summary.identical).toBe(10_000);
  });
});

describe('compareLive', () => {
  it('matches records by name and has no intended differences', () => {
    const info = (name: string) => ({ name, appId: `app-${name}`, region: 'us' as const });
    const diff = compareLive([info('us'), info('eu')], [{ tool: { records: [record('a', 'x'), record('b', 'y')], matchable: true } }, { tool: { records: [record('b', 'z')], matchable: true } }]);
    expect(diff.mode).toBe('live-only');
    expect(diff.resources.map((r) => [r.address, r.group])).toEqual([
      ['tool.a', 'only'],
      ['tool.b', 'differs'],
    ]);
    expect(diff.resources[1]!.fields).toEqual([
      {
        path: 'description',
        group: 'differs',
        sides: [
          { environment: 'us', live: 'y' },
          { environment: 'eu', live: 'z' },
        ],
      },
    ]);
  });
});

describe('an unreadable resource', () => {
  it('is listed as unreadable and not compared, even where the other server holds it', () => {
    const ping = tool('ping', 'Ping');
    const eu = side('eu', [ping], { 'tool.ping': ping.spec });
    eu.plan = { ...eu.plan, changes: [], unreadable: [{ address: 'tool.ping', type: 'tool', reason: 'the read failed' }] };
    const diff = compareEnvironments(side('us', [ping], { 'tool.ping': ping.spec }), eu);
    expect(diff.resources).toEqual([]);
    expect(diff.unreadable).toEqual([{ environment: 'eu', address: 'tool.ping', message: 'the read failed' }]);
  });
});
