// Property-based checks of the diff over random manifests (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/core/diff.js';
import type { Desired } from '../../src/core/desired.js';
import type { Plan } from '../../src/core/plan.js';
import { foldEntry, type State } from '../../src/core/state.js';
import { planToJson } from '../../src/render/plan-json.js';
import { APPLIED_AT, desiredOf, digest, stateOf, type SensitiveMap } from './diff-fixtures.js';

const key = fc.constantFrom('a', 'b', 'c', 'get_weather', 'x-1', '$z', 'B', 'long_name_9');
const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('line one\nline two', 'a\n\nb\n'));
const word = fc.string({ minLength: 1, maxLength: 6 }).filter((s) => s !== '__proto__');
const nameList = fc.array(fc.constantFrom('t1', 't2', 't3', 'search_web', 'Zed'), { maxLength: 4 });

const parametersArb = fc.dictionary(word, fc.record({ type: fc.constantFrom('string', 'number'), description: text }), { maxKeys: 3 }).chain((properties) =>
  fc.record({
    type: fc.constant('object' as const),
    properties: fc.constant(properties),
    required: fc.shuffledSubarray(Object.keys(properties)),
  }),
);

const toolArb = fc.oneof(
  fc.record({ displayName: text, executionText: text, description: text, parameters: fc.oneof(parametersArb, fc.constant({})) }),
  fc.record({ displayName: text, executionText: text, doNotExecute: fc.constant(true) }, { requiredKeys: ['displayName', 'executionText', 'doNotExecute'] }),
);

const agentArb = fc.record(
  {
    name: word,
    integrationType: fc.constant('llm' as const),
    integrateWith: fc.constantFrom('gpt-4o', 'claude'),
    isActive: fc.boolean(),
    tools: nameList,
    actions: nameList,
    instruction: text,
    suggestions: fc.array(text, { maxLength: 3 }),
    platformTools: nameList,
    integrationMeta: fc.record({ headers: fc.oneof(word, fc.dictionary(word, word, { maxKeys: 2 })) }, { requiredKeys: [] }),
    metaData: fc.dictionary(word, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  },
  { requiredKeys: ['name', 'integrationType', 'integrateWith'] },
);

const websiteArb = fc.record({ parentUniqueId: word, exclude: fc.array(word, { maxLength: 4 }) });

/** A random manifest body, plus sensitive paths on some agents (headers, as the resolver marks them). */
const desiredArb: fc.Arbitrary<Desired> = fc
  .record({
    tools: fc.dictionary(key, toolArb, { maxKeys: 5 }),
    agents: fc.dictionary(key, agentArb, { maxKeys: 5 }),
    websites: fc.dictionary(key, websiteArb, { maxKeys: 3 }),
    secretMetaData: fc.boolean(),
  })
  .map(({ tools, agents, websites, secretMetaData }) => {
    const sensitive: SensitiveMap = {};
    for (const [k, agent] of Object.entries(agents)) {
      const paths = [];
      if (agent.integrationMeta?.headers !== undefined) paths.push(['integrationMeta', 'headers']);
      const metaKey = Object.keys(agent.metaData ?? {})[0];
      if (secretMetaData && metaKey !== undefined) paths.push(['metaData', metaKey]);
      sensitive[`agent.${k}`] = paths;
    }
    return desiredOf({ tools, agents, knowledgeBase: { websites } }, sensitive);
  });

const plan = (desired: Desired, state: State | null): Plan => planChanges({ desired, state, digest });
const actionsOf = (p: Plan): Set<string> => new Set(p.changes.map((c) => c.action));

/** Records what a successful apply of every change would: the plan's own redacted `after` specs. */
function recordPlan(state: State, p: Plan): State {
  for (const change of p.changes) {
    switch (change.action) {
      case 'create':
        foldEntry(state, { op: 'applied', address: change.address, type: change.type, remoteId: `new-${change.key}`, spec: change.after, appliedAt: APPLIED_AT });
        break;
      case 'update':
        foldEntry(state, { op: 'applied', address: change.address, type: change.type, remoteId: change.remoteId, spec: change.after, appliedAt: APPLIED_AT });
        break;
      case 'delete':
      case 'forget':
        foldEntry(state, { op: 'forgotten', address: change.address });
        break;
      case 'no-op':
        break;
      default: {
        const _exhaustive: never = change;
        throw new Error(String(_exhaustive));
      }
    }
  }
  return state;
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** The same value with every object's keys in reverse order. */
function reverseKeys<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v: unknown) => reverseKeys(v)) as T;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reverseKeys(v)]),
  ) as T;
}

describe('planChanges properties', () => {
  it('a state recorded from x plans only no-ops for x', () => {
    fc.assert(
      fc.property(desiredArb, (x) => {
        const p = plan(x, stateOf(x));
        expect(p.changes).toHaveLength(x.resources.length);
        expect(p.changes.every((c) => c.action === 'no-op')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('recording every change of plan(x, s) into s leaves nothing to do', () => {
    fc.assert(
      fc.property(desiredArb, desiredArb, fc.boolean(), (x, y, withPending) => {
        const s = stateOf(y);
        if (withPending) for (const r of x.resources.slice(0, 1)) s.pending[r.address] = { type: r.type, since: APPLIED_AT };
        const first = plan(x, s);
        const settled = recordPlan(s, first);
        const second = plan(x, settled);
        expect(actionsOf(second).size === 0 || (actionsOf(second).size === 1 && actionsOf(second).has('no-op'))).toBe(true);
        expect(second.summary.noop).toBe(x.resources.length);
      }),
      { numRuns: 200 },
    );
  });

  it('the JSON plan is byte-identical across runs, input order and key order', () => {
    fc.assert(
      fc.property(desiredArb, desiredArb, fc.integer(), (x, y, seed) => {
        const s = stateOf(y);
        const once = JSON.stringify(planToJson(plan(x, s)));
        expect(JSON.stringify(planToJson(plan(x, s)))).toBe(once);

        const xShuffled: Desired = {
          ...x,
          resources: shuffled(x.resources, seed).map((r) => ({ ...r, spec: reverseKeys(r.spec) }) as typeof r),
        };
        const sShuffled = structuredClone(s);
        sShuffled.resources = Object.fromEntries(shuffled(Object.entries(s.resources), seed + 1).map(([a, r]) => [a, { ...r, spec: reverseKeys(r.spec) }]));
        expect(JSON.stringify(planToJson(plan(xShuffled, sShuffled)))).toBe(once);
      }),
      { numRuns: 200 },
    );
  });
});
