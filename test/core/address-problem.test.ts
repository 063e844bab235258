// A new address (state mv's target) must be one a manifest key could have: the key rules are the
// schema's own (core/schema.ts ADDRESS_KEY_PATTERN, api-types TOOL_NAME_PATTERN).
import { describe, expect, it } from 'vitest';
import { addressProblem } from '../../src/core/kinds/index.js';

describe('addressProblem', () => {
  it.each(['agent.billing_bot', 'agent.9lives', 'agent.a.b-c$', 'website.docs.v2', 'tool.get_weather', 'tool.$x-y', 'tool._private'])('accepts %s', (address) => {
    expect(addressProblem(address)).toBeUndefined();
  });

  it.each([
    ['agent.x\u001b[2Jy', /agent key must match/],
    ['agent..hidden', /agent key must match/],
    ['agent.-x', /agent key must match/],
    ['tool.look.up', /tool key must match/],
    ['tool.9lives', /tool key must match/],
    ['website.a/b', /website key must match/],
    ['widget.x', /addresses look like/],
    ['agent.', /addresses look like/],
    ['agent.a b', /addresses look like/],
  ])('refuses %j', (address, problem) => {
    expect(addressProblem(address)).toMatch(problem);
  });
});
