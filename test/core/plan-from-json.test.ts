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

  it('keeps moves, a rename conflict and a conflict listed without an id', () => {
    const plan = samplePlan();
    plan.moves = [{ from: 'agent.old', to: 'agent.new', type: 'agent', remoteId: 'u-1' }];
    const creates = plan.changes.filter((c) => c.action === 'create');
    if (creates[0]) creates[0].conflict = { remoteId: 'u-2', movedFrom: 'agent.gone' };
    if (creates[1]) creates[1].conflict = {};
    const back = planFromJson(JSON.parse(JSON.stringify(planToJson(plan))) as Record<string, unknown>, 'plan.json');
    expect(planToJson(back)).toEqual(planToJson(plan));
    expect(renderPlanText(back, { color: false })).toBe(renderPlanText(plan, { color: false }));
    expect(renderPlanText(back, { color: false })).toContain('agent.old → agent.new (moved)');
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
