// Diagnostics quote the value they are about; a quoted value that holds a secret (or is the cut-off
// start of one) is shown as "(sensitive)", and nothing else in the message is rewritten.
import { describe, expect, it } from 'vitest';
import { hideQuotedSecrets } from '../../src/core/sensitive-values.js';

const LONG = 'hunter2-0123456789-abcdefghijklmnopqrstuvwxyz';

describe('hideQuotedSecrets', () => {
  it.each([
    ['must be one of llm, agent (got "billing")', ['billing'], 'must be one of llm, agent (got "(sensitive)")'],
    ['unknown tool "x-billing-y": did you mean "billing_lookup"', ['billing'], 'unknown tool "(sensitive)": did you mean "(sensitive)"'],
    [`got "${LONG.slice(0, 37)}…"`, [LONG], 'got "(sensitive)"'],
    ['got "say \\"hi\\""', ['say "hi"'], 'got "(sensitive)"'],
    ['agents.billing_bot.integrationType: bad (got "llmx")', ['billing'], 'agents.billing_bot.integrationType: bad (got "llmx")'],
    ['got "abc"', ['abc'], 'got "abc"'],
    ['got "a…"', [LONG], 'got "a…"'],
    ['no quotes billing', ['billing'], 'no quotes billing'],
  ])('%s', (message, secrets, expected) => {
    expect(hideQuotedSecrets(message, secrets)).toBe(expected);
  });

  it('leaves a quoted manifest key as written', () => {
    expect(hideQuotedSecrets('unknown tool "x-billing": did you mean "billing_lookup"', ['billing'], new Set(['billing_lookup']))).toBe('unknown tool "(sensitive)": did you mean "billing_lookup"');
  });
});
