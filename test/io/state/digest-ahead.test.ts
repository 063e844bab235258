// Digesting sensitive values ahead, on the thread pool: the same digests the one-at-a-time digester
// makes, and a plan's redaction then finds every one of them already made.
import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sensitiveCanonicals, redactSpecShared } from '../../../src/core/redact.js';
import { createDigester, digestAhead, madeDigest } from '../../../src/io/state/digest.js';

const scryptDigest = (salt: string, value: string) => `scrypt:${scryptSync(value, Buffer.from(salt, 'base64'), 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }).toString('hex')}`;

const resources = Array.from({ length: 6 }, (_, i) => ({
  spec: { name: `agent_${i}`, integrationMeta: { headers: { Authorization: `Bearer token-${i % 4}` } }, instruction: 'plain' },
  sensitive: [['integrationMeta', 'headers', 'Authorization']],
}));

describe('digestAhead', () => {
  it('finds every value redaction will digest, once each', () => {
    expect(sensitiveCanonicals(resources).sort()).toEqual(['"Bearer token-0"', '"Bearer token-1"', '"Bearer token-2"', '"Bearer token-3"']);
    expect(sensitiveCanonicals([{ spec: { name: 'x' }, sensitive: [] }])).toEqual([]);
  });

  it('makes the digester’s own digests, so redaction after it computes none', async () => {
    const salt = randomBytes(32).toString('base64');
    const values = sensitiveCanonicals(resources);
    expect(values.map((value) => madeDigest(salt, value))).toEqual([undefined, undefined, undefined, undefined]);
    await digestAhead(salt, values);
    // Every digest exists before redaction asks, and each is the scrypt digest itself.
    for (const value of values) expect(madeDigest(salt, value)).toBe(scryptDigest(salt, value));
    const digest = createDigester(salt);
    const redacted = resources.map((r) => redactSpecShared(r, digest));
    for (const value of values) expect(digest(value)).toBe(scryptDigest(salt, value));
    expect((redacted[1] as { integrationMeta: { headers: { Authorization: string } } }).integrationMeta.headers.Authorization).toBe(scryptDigest(salt, '"Bearer token-1"'));
  });
});
