import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/api-types.js';
import { planChanges } from '../../src/core/diff.js';
import type { Desired } from '../../src/core/desired.js';
import type { Change, FieldChange, Plan } from '../../src/core/plan.js';
import type { State } from '../../src/core/state.js';
import { baseBody, desiredOf, digest, editRecorded, stateOf, supportAgent, weatherTool, type SensitiveMap } from './diff-fixtures.js';

const plan = (desired: Desired, state: State | null): Plan => planChanges({ desired, state, digest });
const changeAt = (p: Plan, address: string): Change => {
  const change = p.changes.find((c) => c.address === address);
  if (change === undefined) throw new Error(`no change for ${address}`);
  return change;
};
const fieldsOf = (change: Change): FieldChange[] => (change.action === 'create' || change.action === 'update' ? change.fields : []);
const clone = <T>(value: T): T => structuredClone(value);

describe('planChanges: spurious-diff traps are all no-ops', () => {
  const base = desiredOf(baseBody);
  const cases: { name: string; desired: () => Desired; state: () => State }[] = [
    { name: 'identical', desired: () => base, state: () => stateOf(base) },
    {
      name: 'reordered keys in the manifest',
      desired: () =>
        desiredOf({
          external: { tools: ['search_web'] },
          knowledgeBase: { websites: { docs: { exclude: ['url_9', 'url_7'], parentUniqueId: 'web_123' } } },
          agents: { support: Object.fromEntries(Object.entries(supportAgent).reverse()) as typeof supportAgent },
          tools: {
            get_weather: {
              parameters: { required: ['unit', 'city'], properties: { unit: weatherTool.parameters.properties.unit, city: { description: 'City name', type: 'string' } }, type: 'object' },
              description: weatherTool.description,
              executionText: weatherTool.executionText,
              displayName: weatherTool.displayName,
            },
          },
        }),
      state: () => stateOf(base),
    },
    {
      name: 'explicit defaults against omitted ones',
      desired: () => desiredOf({ ...baseBody, tools: { get_weather: { ...weatherTool, doNotExecute: false } }, agents: { support: { ...supportAgent, isActive: true } } }),
      state: () => stateOf(base),
    },
    {
      name: 'reordered and duplicated set arrays in the manifest',
      desired: () =>
        desiredOf({
          ...baseBody,
          tools: { get_weather: { ...weatherTool, parameters: { ...weatherTool.parameters, required: ['unit', 'city', 'unit'] } } },
          agents: { support: { ...supportAgent, tools: ['search_web', 'get_weather', 'search_web'], platformTools: ['calc', 'web'] } },
          knowledgeBase: { websites: { docs: { parentUniqueId: 'web_123', exclude: ['url_7', 'url_9', 'url_7'] } } },
        }),
      state: () => stateOf(base),
    },
    {
      name: 'reordered set arrays in state',
      desired: () => base,
      state: () => {
        const state = stateOf(base);
        editRecorded(state, 'tool.get_weather', (spec) => {
          (spec.parameters as JsonObject).required = ['unit', 'city'];
        });
        editRecorded(state, 'agent.support', (spec) => {
          spec.tools = ['search_web', 'get_weather'];
          spec.platformTools = ['web', 'calc', 'web'];
          spec.actions = ['get_weather', 'get_weather'];
        });
        return editRecorded(state, 'website.docs', (spec) => {
          spec.exclude = ['url_9', 'url_7'];
        });
      },
    },
    {
      name: 'state missing defaulted keys',
      desired: () => desiredOf({ ...baseBody, agents: { bare: { name: 'Bare', integrationType: 'llm', integrateWith: 'gpt-4o' } } }),
      state: () => {
        const state = stateOf(desiredOf({ ...baseBody, agents: { bare: { name: 'Bare', integrationType: 'llm', integrateWith: 'gpt-4o' } } }));
        editRecorded(state, 'tool.get_weather', (spec) => {
          delete spec.doNotExecute;
        });
        editRecorded(state, 'agent.bare', (spec) => {
          delete spec.isActive;
          delete spec.tools;
          delete spec.actions;
        });
        return state;
      },
    },
    {
      name: 'state key order differs',
      desired: () => base,
      state: () => {
        const state = stateOf(base);
        for (const entry of Object.values(state.resources)) entry.spec = Object.fromEntries(Object.entries(entry.spec).reverse());
        return state;
      },
    },
    {
      name: 'an unchanged secret',
      desired: () => desiredOf(baseBody, { 'agent.support': [['metaData', 'team']] }),
      state: () => stateOf(desiredOf(baseBody, { 'agent.support': [['metaData', 'team']] })),
    },
  ];

  it.each(cases)('$name', ({ desired, state }) => {
    const result = plan(desired(), state());
    expect(result.changes.length).toBeGreaterThanOrEqual(3);
    expect(new Set(result.changes.map((c) => c.action))).toEqual(new Set(['no-op']));
    expect(result.summary).toMatchObject({ create: 0, update: 0, forget: 0 });
  });
});

describe('planChanges: field kinds of an update', () => {
  const base = desiredOf(baseBody);
  const cases: { name: string; address: string; desired: () => Desired; fields: FieldChange[] }[] = [
    {
      name: 'scalar',
      address: 'tool.get_weather',
      desired: () => desiredOf({ ...baseBody, tools: { get_weather: { ...weatherTool, description: 'Weather now' } } }),
      fields: [{ path: 'description', before: 'Current weather for a city', after: 'Weather now' }],
    },
    {
      name: 'boolean',
      address: 'agent.support',
      desired: () => desiredOf({ ...baseBody, agents: { support: { ...supportAgent, isActive: false } } }),
      fields: [{ path: 'isActive', before: true, after: false }],
    },
    {
      name: 'nested object',
      address: 'tool.get_weather',
      desired: () => {
        const tool = clone(weatherTool);
        tool.parameters.properties.city.description = 'The city';
        return desiredOf({ ...baseBody, tools: { get_weather: tool } });
      },
      fields: [{ path: 'parameters.properties.city.description', before: 'City name', after: 'The city' }],
    },
    {
      name: 'ordered list with a member removed',
      address: 'agent.support',
      desired: () => desiredOf({ ...baseBody, agents: { support: { ...supportAgent, suggestions: ['Refund'] } } }),
      fields: [{ path: 'suggestions', before: ['Where is my order?', 'Refund'], after: ['Refund'] }],
    },
    {
      name: 'set array with a member added',
      address: 'website.docs',
      desired: () => desiredOf({ ...baseBody, knowledgeBase: { websites: { docs: { parentUniqueId: 'web_123', exclude: ['url_7', 'url_8', 'url_9'] } } } }),
      fields: [{ path: 'exclude', before: ['url_7', 'url_9'], after: ['url_7', 'url_8', 'url_9'] }],
    },
    {
      name: 'optional field added',
      address: 'agent.support',
      desired: () => desiredOf({ ...baseBody, agents: { support: { ...supportAgent, icon: 'https://example.com/a.png' } } }),
      fields: [{ path: 'icon', after: 'https://example.com/a.png' }],
    },
    {
      name: 'optional field removed',
      address: 'agent.support',
      desired: () => {
        const { suggestions: _removed, ...agent } = supportAgent;
        return desiredOf({ ...baseBody, agents: { support: agent } });
      },
      fields: [{ path: 'suggestions', before: ['Where is my order?', 'Refund'] }],
    },
    {
      name: 'odd key in a free-form object',
      address: 'agent.support',
      desired: () => desiredOf({ ...baseBody, agents: { support: { ...supportAgent, metaData: { team: 'care', 'a.b': 2 } } } }),
      fields: [{ path: 'metaData["a.b"]', before: 1, after: 2 }],
    },
    {
      name: 'object added where none was',
      address: 'agent.support',
      desired: () => desiredOf({ ...baseBody, agents: { support: { ...supportAgent, integrationMeta: { region: 'eu', nested: { on: true } } } } }),
      fields: [
        { path: 'integrationMeta.nested.on', after: true },
        { path: 'integrationMeta.region', after: 'eu' },
      ],
    },
    {
      name: 'empty object added inside a free-form object',
      address: 'agent.support',
      desired: () => desiredOf({ ...baseBody, agents: { support: { ...supportAgent, metaData: { ...supportAgent.metaData, extra: {} } } } }),
      fields: [{ path: 'metaData.extra', after: {} }],
    },
    {
      name: 'several fields, in key order',
      address: 'tool.get_weather',
      desired: () => desiredOf({ ...baseBody, tools: { get_weather: { ...weatherTool, executionText: 'Looking', displayName: 'Weather' } } }),
      fields: [
        { path: 'displayName', before: 'Get weather', after: 'Weather' },
        { path: 'executionText', before: 'Checking the weather', after: 'Looking' },
      ],
    },
  ];

  it.each(cases)('$name', ({ address, desired, fields }) => {
    const result = plan(desired(), stateOf(base));
    const change = changeAt(result, address);
    expect(change.action).toBe('update');
    expect(fieldsOf(change)).toEqual(fields);
    expect(result.summary).toEqual({ create: 0, update: 1, replace: 0, delete: 0, forget: 0, noop: 2 });
    if (change.action === 'update') expect(change.remoteId).toBe(`${change.type}-${change.key}-id`);
  });
});

describe('planChanges: sensitive values', () => {
  const secretBody = (secret: string) => ({ ...baseBody, agents: { support: { ...supportAgent, integrationMeta: { headers: { Authorization: secret }, baseUrl: 'https://x.test' } } } });
  const sensitive: SensitiveMap = { 'agent.support': [['integrationMeta', 'headers']] };

  it('a changed secret is an update that prints (sensitive) on both sides and never the value', () => {
    const before = stateOf(desiredOf(secretBody('Bearer old-secret'), sensitive));
    const result = plan(desiredOf(secretBody('Bearer new-secret'), sensitive), before);
    const change = changeAt(result, 'agent.support');
    expect(change.action).toBe('update');
    expect(fieldsOf(change)).toEqual([{ path: 'integrationMeta.headers', before: '(sensitive)', after: '(sensitive)', sensitive: true }]);
    const text = JSON.stringify(result);
    expect(text).not.toContain('old-secret');
    expect(text).not.toContain('new-secret');
  });

  it('a create shows the secret field as (sensitive) and keeps only its digest in the spec', () => {
    const result = plan(desiredOf(secretBody('Bearer s3cr3t'), sensitive), null);
    const change = changeAt(result, 'agent.support');
    expect(fieldsOf(change)).toContainEqual({ path: 'integrationMeta.headers', after: '(sensitive)', sensitive: true });
    expect(fieldsOf(change)).toContainEqual({ path: 'integrationMeta.baseUrl', after: 'https://x.test' });
    expect(JSON.stringify(result)).not.toContain('s3cr3t');
    if (change.action === 'create') expect((change.after.integrationMeta as JsonObject).headers).toMatch(/^scrypt:[0-9a-f]{64}$/);
  });

  it('a value that was secret and is now plain still hides the old digest', () => {
    const before = stateOf(desiredOf(secretBody('Bearer old'), sensitive));
    const result = plan(desiredOf(secretBody('Bearer old')), before);
    expect(fieldsOf(changeAt(result, 'agent.support'))).toEqual([{ path: 'integrationMeta.headers', before: '(sensitive)', after: '(sensitive)', sensitive: true }]);
  });

  it('a secret inside an array field hides the whole field', () => {
    const paths: SensitiveMap = { 'agent.support': [['suggestions', 1]] };
    const before = stateOf(desiredOf(baseBody, paths));
    const result = plan(desiredOf({ ...baseBody, agents: { support: { ...supportAgent, suggestions: ['Where is my order?', 'Refund', 'More'] } } }, paths), before);
    expect(fieldsOf(changeAt(result, 'agent.support'))).toEqual([{ path: 'suggestions', before: '(sensitive)', after: '(sensitive)', sensitive: true }]);
  });
});

describe('planChanges: actions and order', () => {
  it('with no state everything is a create listing every leaf, after only', () => {
    const result = plan(desiredOf(baseBody), null);
    expect(result.changes.map((c) => `${c.action} ${c.address}`)).toEqual(['create tool.get_weather', 'create agent.support', 'create website.docs']);
    expect(fieldsOf(changeAt(result, 'website.docs'))).toEqual([
      { path: 'exclude', after: ['url_7', 'url_9'] },
      { path: 'parentUniqueId', after: 'web_123' },
    ]);
    expect(fieldsOf(changeAt(result, 'tool.get_weather')).map((f) => f.path)).toEqual([
      'description',
      'displayName',
      'doNotExecute',
      'executionText',
      'name',
      'parameters.properties.city.description',
      'parameters.properties.city.type',
      'parameters.properties.unit.description',
      'parameters.properties.unit.enum',
      'parameters.properties.unit.type',
      'parameters.required',
      'parameters.type',
    ]);
    expect(result.summary).toEqual({ create: 3, update: 0, replace: 0, delete: 0, forget: 0, noop: 0 });
    expect(result).toMatchObject({ environment: 'local', appId: 'local', region: 'us', pending: [] });
  });

  it('a resource left out of the manifest is forgotten with its remote id; changes sort by type then address', () => {
    const state = stateOf(desiredOf({ ...baseBody, tools: { get_weather: weatherTool, zeta: weatherTool, alpha: weatherTool }, agents: { support: supportAgent, old: supportAgent } }));
    const result = plan(desiredOf({ ...baseBody, agents: { support: supportAgent, new: supportAgent } }), state);
    expect(result.changes.map((c) => `${c.action} ${c.address}`)).toEqual([
      'forget tool.alpha',
      'no-op tool.get_weather',
      'forget tool.zeta',
      'create agent.new',
      'forget agent.old',
      'no-op agent.support',
      'no-op website.docs',
    ]);
    const forget = changeAt(result, 'agent.old');
    expect(forget).toMatchObject({ action: 'forget', type: 'agent', key: 'old', remoteId: 'agent-old-id' });
    expect(result.summary).toEqual({ create: 1, update: 0, replace: 0, delete: 0, forget: 3, noop: 3 });
  });

  it('a recorded resource of another type is planned as a create', () => {
    const state = stateOf(desiredOf(baseBody));
    const entry = state.resources['tool.get_weather'];
    if (entry) entry.type = 'agent';
    expect(changeAt(plan(desiredOf(baseBody), state), 'tool.get_weather').action).toBe('create');
  });

  it('pending creates become warnings, in plan order, and a pending address without a record still plans a create', () => {
    const state = stateOf(desiredOf({ tools: { get_weather: weatherTool } }));
    state.pending['website.docs'] = { type: 'website', since: '2025-02-02T00:00:00.000Z' };
    state.pending['agent.support'] = { type: 'agent', since: '2025-02-01T00:00:00.000Z' };
    const result = plan(desiredOf(baseBody), state);
    expect(result.pending).toEqual([
      { address: 'agent.support', type: 'agent', since: '2025-02-01T00:00:00.000Z', action: 'create' },
      { address: 'website.docs', type: 'website', since: '2025-02-02T00:00:00.000Z', action: 'create' },
    ]);
    expect(changeAt(result, 'agent.support').action).toBe('create');
  });

  it('does not modify the desired specs or the state it was given', () => {
    const desired = desiredOf(baseBody, { 'agent.support': [['metaData', 'team']] });
    const state = stateOf(desiredOf({ ...baseBody, agents: {} }));
    editRecorded(state, 'website.docs', (spec) => {
      spec.exclude = ['url_9', 'url_7'];
    });
    const desiredCopy = structuredClone(desired);
    const stateCopy = structuredClone(state);
    plan(desired, state);
    expect(desired).toEqual(desiredCopy);
    expect(state).toEqual(stateCopy);
  });
});
