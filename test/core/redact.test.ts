import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical.js';
import type { DesiredResource } from '../../src/core/desired.js';
import { containsDigest, isDigest, isSensitivePath, redactSpec, redactSpecShared, touchesSensitive } from '../../src/core/redact.js';
import { digest } from './diff-fixtures.js';

const agent = (spec: Record<string, unknown>, sensitive: DesiredResource['sensitive']): DesiredResource => ({ type: 'agent', key: 'a', address: 'agent.a', spec, sensitive }) as DesiredResource;

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1], c: null } })).toBe('{"a":{"c":null,"d":[3,1]},"b":1}');
    expect(canonicalJson({ a: { c: null, d: [3, 1] }, b: 1 })).toBe(canonicalJson({ b: 1, a: { d: [3, 1], c: null } }));
  });
  it('drops undefined members like JSON does', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, 'x'] })).toBe('{"b":[null,"x"]}');
    expect(canonicalJson('line\nbreak')).toBe('"line\\nbreak"');
  });
});

describe('redactSpec', () => {
  const spec = { name: 'A', integrationMeta: { baseUrl: 'https://x', headers: { Authorization: 'Bearer s3cr3t' } }, metaData: { token: 'tok-123', list: ['a', 'pw'] } };

  it('replaces a string and a whole subtree by the digest of their canonical JSON', () => {
    const redacted = redactSpec(
      agent(spec, [
        ['integrationMeta', 'headers'],
        ['metaData', 'token'],
      ]),
      digest,
    );
    expect(redacted).toEqual({
      name: 'A',
      integrationMeta: { baseUrl: 'https://x', headers: digest(canonicalJson({ Authorization: 'Bearer s3cr3t' })) },
      metaData: { token: digest('"tok-123"'), list: ['a', 'pw'] },
    });
    expect(JSON.stringify(redacted)).not.toMatch(/s3cr3t|tok-123/);
  });

  it('digests a path given twice only once (a digest of a digest would never match)', () => {
    const once = redactSpec(agent(spec, [['metaData', 'token']]), digest);
    expect(
      redactSpec(
        agent(spec, [
          ['metaData', 'token'],
          ['metaData', 'token'],
        ]),
        digest,
      ),
    ).toEqual(once);
    expect(
      redactSpecShared(
        agent(spec, [
          ['metaData', 'token'],
          ['metaData', 'token'],
        ]),
        digest,
      ),
    ).toEqual(once);
  });

  it('redacts an array element by index and ignores paths that do not exist', () => {
    const redacted = redactSpec(agent(spec, [['metaData', 'list', 1], ['metaData', 'nope', 'x'], ['icon']]), digest);
    expect(redacted.metaData).toEqual({ token: 'tok-123', list: ['a', digest('"pw"')] });
    expect(redacted).not.toHaveProperty('icon');
  });

  it('a path inside a redacted subtree changes nothing, whatever order the paths come in', () => {
    const a = redactSpec(agent(spec, [['integrationMeta', 'headers', 'Authorization'], ['integrationMeta']]), digest);
    const b = redactSpec(agent(spec, [['integrationMeta'], ['integrationMeta', 'headers', 'Authorization']]), digest);
    expect(a).toEqual(b);
    expect(isDigest(a.integrationMeta)).toBe(true);
  });

  it('leaves the input untouched and is stable across key order', () => {
    const input = structuredClone(spec);
    redactSpec(agent(input, [['integrationMeta', 'headers']]), digest);
    expect(input).toEqual(spec);
    const reordered = { metaData: spec.metaData, integrationMeta: { headers: { Authorization: 'Bearer s3cr3t' }, baseUrl: 'https://x' }, name: 'A' };
    expect(redactSpec(agent(reordered, [['integrationMeta', 'headers']]), digest)).toEqual(redactSpec(agent(spec, [['integrationMeta', 'headers']]), digest));
  });

  it('keeps a free-form __proto__ key as data', () => {
    const withProto = JSON.parse('{"metaData":{"__proto__":{"polluted":true}}}') as Record<string, unknown>;
    const redacted = redactSpec(agent(withProto, []), digest);
    expect(Object.keys(redacted.metaData as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('sensitive path helpers', () => {
  const sensitive = [
    ['integrationMeta', 'headers'],
    ['suggestions', 1],
  ];
  it.each([
    [['integrationMeta', 'headers'], true, true],
    [['integrationMeta', 'headers', 'Authorization'], true, true],
    [['integrationMeta'], false, true],
    [['integrationMeta', 'baseUrl'], false, false],
    [['suggestions'], false, true],
    [['suggestions', '1'], true, true],
    [['metaData'], false, false],
  ])('%j: inside %s, touches %s', (path, inside, touches) => {
    expect(isSensitivePath(path, sensitive)).toBe(inside);
    expect(touchesSensitive(path, sensitive)).toBe(touches);
  });

  it('recognizes digests, also nested', () => {
    const d = digest('"x"');
    expect(isDigest(d)).toBe(true);
    expect(isDigest('hmac-sha256:short')).toBe(false);
    expect(containsDigest({ a: [1, { b: d }] })).toBe(true);
    expect(containsDigest({ a: [1, { b: 'plain' }] })).toBe(false);
  });
});
