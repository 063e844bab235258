// Interpolation with explicit environments: nothing is read from process.env.
import { describe, expect, it } from 'vitest';
import { interpolate, openingOffsets, type InterpolationContext } from '../../src/core/interpolate.js';

const ctx = (over: Partial<InterpolationContext> = {}): InterpolationContext => ({
  env: { HOME_REGION: 'eu', EMPTY: '', TOKEN: 's3cret' },
  vars: { model: 'gpt-4o', retries: 3, beta: false },
  environmentName: 'prod',
  secretsAllowed: true,
  ...over,
});

describe('interpolate', () => {
  it.each([
    ['plain text', 'plain text'],
    ['${HOME_REGION}', 'eu'],
    ['region ${HOME_REGION}!', 'region eu!'],
    ['${MISSING:-fallback}', 'fallback'],
    ['${EMPTY:-fallback}', 'fallback'],
    ['${EMPTY}', ''],
    ['${MISSING:-}', ''],
    ['${MISSING:-a b: c}', 'a b: c'],
    ['${var.model}', 'gpt-4o'],
    ['${var.retries} / ${var.beta}', '3 / false'],
    ['$${HOME_REGION}', '${HOME_REGION}'],
    ['cost: $5 and $${x}', 'cost: $5 and ${x}'],
    ['$$${HOME_REGION}', '$${HOME_REGION}'],
  ])('%s → %s', (input, expected) => {
    const result = interpolate(input, ctx());
    expect(result.problems).toEqual([]);
    expect(result.value).toBe(expected);
    expect(result.sensitive).toBe(false);
  });

  it('marks values from ${secret:…} as sensitive', () => {
    expect(interpolate('Bearer ${secret:TOKEN}', ctx())).toEqual({ value: 'Bearer s3cret', sensitive: true, secrets: ['s3cret'], problems: [] });
  });

  it.each([
    ['${NOPE}', 'unset', 0],
    ['a ${HOME_REGION} b ${NOPE}', 'unset', 1],
    ['${secret:NOPE}', 'unset-secret', 0],
    ['${var.nope}', 'unknown-var', 0],
    ['${not valid}', 'syntax', 0],
    ['${unterminated', 'syntax', 0],
    ['${}', 'syntax', 0],
  ])('%s is a %s problem at opening %i', (input, kind, ordinal) => {
    const { problems } = interpolate(input, ctx());
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind, token: { ordinal } });
  });

  it('refuses ${var.…} where vars are not available and secrets outside resources', () => {
    expect(interpolate('${var.model}', ctx({ vars: undefined })).problems[0]?.kind).toBe('not-allowed');
    expect(interpolate('${secret:TOKEN}', ctx({ secretsAllowed: false })).problems[0]?.kind).toBe('not-allowed');
  });

  it('does not leak process.env', () => {
    process.env.AGENTSYNC_LEAK_CHECK = 'leaked';
    try {
      expect(interpolate('${AGENTSYNC_LEAK_CHECK}', ctx()).problems[0]?.kind).toBe('unset');
    } finally {
      delete process.env.AGENTSYNC_LEAK_CHECK;
    }
  });

  it('finds each opening, skipping $${', () => {
    expect(openingOffsets('$${a} ${b} x ${c}')).toEqual([6, 13]);
  });
});

describe('interpolate: the API key variable', () => {
  const keys = new Set(['COMETCHAT_API_KEY', 'DEPLOY_KEY']);
  it.each(['${COMETCHAT_API_KEY}', 'x ${COMETCHAT_API_KEY:-none}', '${secret:DEPLOY_KEY}', '${DEPLOY_KEY:-}'])('%s is refused, set or not, and contributes nothing', (input) => {
    const result = interpolate(input, ctx({ env: { COMETCHAT_API_KEY: 'k-123456', DEPLOY_KEY: 'k-654321' }, apiKeyVariables: keys }));
    expect(result.problems.map((p) => p.kind)).toEqual(['api-key']);
    expect(result.problems[0]?.message).toMatch(/holds the API key/);
    expect(result.value).not.toMatch(/k-\d/);
    expect(result.secrets).toEqual([]);
  });

  it('leaves other variables alone and reports the secret values it used', () => {
    const result = interpolate('${HOME_REGION} ${secret:TOKEN}', ctx({ apiKeyVariables: keys }));
    expect(result).toEqual({ value: 'eu s3cret', sensitive: true, secrets: ['s3cret'], problems: [] });
  });
});
