// planFromJson: a JSON plan read back renders exactly as the plan it was made from; bad input is a
// plan_invalid error, never a crash.
import { describe, expect, it } from 'vitest';
import { isUserError } from '../../src/core/errors.js';
import { planFromJson } from '../../src/core/plan-from-json.js';
import { planToJson } from '../../src/render/plan-json.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import { samplePlan } from '../render/plan-fixtures.js';

const roundTrip = () => planFromJson(JSON.parse(JSON.stringify(planToJson(samplePlan()))) as Record<string, unknown>, 'plan.json');

describe('planFromJson', () => {
  it('renders the same text and markdown as the plan it was saved from', () => {
    expect(renderPlanText(roundTrip(), { color: false })).toBe(renderPlanText(samplePlan(), { color: false }));
    expect(renderPlanMarkdown(roundTrip())).toBe(renderPlanMarkdown(samplePlan()));
    expect(planToJson(roundTrip())).toEqual(planToJson(samplePlan()));
  });

  it.each([
    ['no changes list', { changes: 3 }, 'changes is not a list of objects'],
    ['an unknown action', { changes: [{ address: 'tool.x', type: 'tool', action: 'explode', fields: [] }] }, 'tool.x has an unknown action "explode"'],
    ['an unknown type', { changes: [{ address: 'db.x', type: 'db', action: 'create', fields: [] }] }, 'unknown resource type "db"'],
    ['an unknown region', { region: 'mars' }, 'unknown region "mars"'],
    ['an update without remoteId', { changes: [{ address: 'tool.x', type: 'tool', action: 'update', fields: [] }] }, 'tool.x remoteId is missing'],
  ])('refuses %s', (_name, patch, message) => {
    const json = { ...(JSON.parse(JSON.stringify(planToJson(samplePlan()))) as Record<string, unknown>), ...patch };
    let error: unknown;
    try {
      planFromJson(json, 'plan.json');
    } catch (err) {
      error = err;
    }
    expect(isUserError(error)).toBe(true);
    expect((error as Error).message).toBe(`plan.json is not a plan agentsync can show: ${message}`);
  });
});
