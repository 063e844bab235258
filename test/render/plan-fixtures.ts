// A plan with every kind of change, built through the real diff, for the renderer tests.
import { planChanges } from '../../src/core/diff.js';
import type { Plan } from '../../src/core/plan.js';
import { baseBody, desiredOf, digest, editRecorded, stateOf, supportAgent, weatherTool } from '../core/diff-fixtures.js';

export const SECRET = 'Bearer sk-live-DO-NOT-PRINT';
const sensitive = { 'agent.support': [['integrationMeta', 'headers']] };

export function samplePlan(): Plan {
  const withSecret = (secret: string) => ({ ...supportAgent, integrationMeta: { headers: { Authorization: secret } } });
  const before = desiredOf(
    { ...baseBody, agents: { support: withSecret('Bearer old-token') }, knowledgeBase: { websites: { docs: baseBody.knowledgeBase!.websites!.docs!, old: { parentUniqueId: 'web_9', exclude: [] } } } },
    sensitive,
  );
  const state = stateOf(before);
  editRecorded(state, 'tool.get_weather', (spec) => {
    spec.description = 'Weather for a city';
  });
  state.pending['agent.ghost'] = { type: 'agent', since: '2025-03-04T05:06:07.000Z' };
  const after = desiredOf(
    {
      ...baseBody,
      tools: {
        get_weather: {
          ...weatherTool,
          parameters: { ...weatherTool.parameters, properties: { ...weatherTool.parameters.properties, city: { type: 'string', description: 'City name, e.g. "Paris"' } } },
        },
        new_tool: { displayName: 'New', executionText: 'Working', doNotExecute: true },
      },
      agents: {
        support: {
          ...withSecret(SECRET),
          isActive: false,
          // Written as a block scalar: the one newline it adds is the only one the old text lacked.
          instruction: 'You help customers.\nBe brief and kind.\nNever guess.\nEscalate refunds.\n',
          metaData: { team: 'care', 'a.b': 2 },
        },
        // A block scalar's final newline ends its last line; it is no empty line of its own.
        ghost: { name: 'Ghost', integrationType: 'llm', integrateWith: 'gpt-4o', instruction: 'Line one\nLine two\n' },
      },
    },
    sensitive,
  );
  return planChanges({ desired: after, state, digest });
}

export function noChangePlan(): Plan {
  const desired = desiredOf(baseBody);
  return planChanges({ desired, state: stateOf(desired), digest });
}

/** A website re-crawled (its maxPages changed: -/+) beside an in-place update of a tool. */
export function replacePlan(): Plan {
  const site = (maxPages: number) => ({ url: 'https://docs.example.com/', maxPages });
  const before = desiredOf({ ...baseBody, knowledgeBase: { websites: { site: site(10) } } });
  const state = stateOf(before);
  editRecorded(state, 'tool.get_weather', (spec) => {
    spec.description = 'Weather for a city';
  });
  return planChanges({ desired: desiredOf({ ...baseBody, knowledgeBase: { websites: { site: site(20) } } }), state, digest });
}
