// The invalid-manifest corpus, in-process: fast, and the only way to reach plan-mode rules.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasErrors } from '../../src/core/diagnostics.js';
import { parseManifest } from '../../src/core/parse.js';
import { resolveManifest } from '../../src/core/resolve.js';
import { loadCorpus, unmatched } from '../fixtures/corpus.js';

const corpus = loadCorpus().filter((f) => !f.name.startsWith('hostile-not-utf8'));

describe('invalid manifests (in-process)', () => {
  it('has at least 40 fixtures', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
  });

  it.each(corpus.map((f) => [f.name, f] as const))('%s', (_name, fixture) => {
    const text = readFileSync(fixture.file, 'utf8').replace(/^\uFEFF/, '');
    const envIndex = fixture.args.indexOf('-e');
    const environment = envIndex >= 0 ? fixture.args[envIndex + 1] : undefined;
    const result = resolveManifest(parseManifest(fixture.file, text), {
      env: fixture.env,
      mode: fixture.mode,
      ...(environment === undefined ? {} : { environment }),
    });
    expect(hasErrors(result.diagnostics)).toBe(true);
    expect(result.desired).toBeUndefined();
    expect(unmatched(fixture.diagnostics, result.diagnostics), JSON.stringify(result.diagnostics.map(({ line, column, message }) => ({ line, column, message })), null, 1)).toEqual([]);
  });
});
