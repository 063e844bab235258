// `agentsync schema` is a JSON Schema 2020-12 document that accepts every example as written.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../support/cli.js';

const manifests = [
  ...readdirSync(join(ROOT, 'examples'))
    .filter((n) => n.endsWith('.yaml'))
    .map((n) => join('examples', n)),
  'agents.yaml',
];

describe('agentsync schema', () => {
  let validate: ValidateFunction;
  let schema: Record<string, unknown>;

  beforeAll(async () => {
    const result = await runCli(['schema']);
    expect(result.code).toBe(0);
    schema = JSON.parse(result.stdout) as Record<string, unknown>;
    validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
  });

  it('declares draft 2020-12, an $id and a title', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toEqual(expect.any(String));
    expect(schema.title).toContain('agentsync');
  });

  it.each(manifests)('accepts %s', (file) => {
    const ok = validate(parse(readFileSync(join(ROOT, file), 'utf8')));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it.each([
    ['an unknown key', { version: 1, environments: { a: { appId: 'a', region: 'us' } }, tools: { t: { displayname: 'x', displayName: 'x', executionText: 'y', description: 'd', parameters: {} } } }],
    ['a bad region', { version: 1, environments: { a: { appId: 'a', region: 'mars' } } }],
    ['a bad tool name', { version: 1, environments: { a: { appId: 'a', region: 'us' } }, tools: { '1x': { displayName: 'x', executionText: 'y', doNotExecute: true } } }],
    ['version 2', { version: 2, environments: { a: { appId: 'a', region: 'us' } } }],
  ])('rejects %s', (_what, manifest) => {
    expect(validate(manifest)).toBe(false);
  });
});

describe('agentsync schema --part', () => {
  it('validates one file of a manifest folder on its own: no top-level key is required, the rest is as strict', async () => {
    const result = await runCli(['schema', '--part']);
    expect(result.code).toBe(0);
    const schema = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(schema).toMatchObject({ $id: 'urn:agentsync:manifest-part:1', title: expect.stringContaining('part') });
    expect(schema.required).toBeUndefined();
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    const tool = { displayName: 'T', executionText: 'x', description: 'Looks it up', parameters: {} };
    expect(validate({ tools: { t: tool } })).toBe(true);
    expect(validate({})).toBe(true);
    expect(validate({ tools: { t: { ...tool, displayname: 'typo' } } })).toBe(false);
    expect(validate({ unknownSection: {} })).toBe(false);
    // The whole-manifest schema still requires version and environments.
    const whole = new Ajv2020({ strict: false, allErrors: true }).compile(JSON.parse((await runCli(['schema'])).stdout) as Record<string, unknown>);
    expect(whole({ tools: { t: tool } })).toBe(false);
  });
});
