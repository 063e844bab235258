// The invalid-manifest corpus, in-process and whole: every fixture, through the same code the CLI
// runs. Validate-mode fixtures go through the validate use case (the file read from disk, BOM,
// encoding and size checks included) and the JSON `validate --json` prints; plan-mode fixtures
// reach rules only a plan applies, so they go through the resolver in plan mode. The built CLI runs
// a sample of the corpus as a child process (test/cli/validate.test.ts): the exit code, the streams
// and the fixtures whose arguments, environment or bytes take a path of their own.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateManifest } from '../../src/app/validate.js';
import { hasErrors } from '../../src/core/diagnostics.js';
import { parseManifest } from '../../src/core/parse.js';
import { resolveManifest } from '../../src/core/resolve.js';
import { renderDiagnosticsJson } from '../../src/render/diagnostics.js';
import { loadCorpus, unmatched, type ActualDiagnostic } from '../fixtures/corpus.js';

const corpus = loadCorpus();
const environmentOf = (args: readonly string[]): string | undefined => {
  const at = args.indexOf('-e');
  return at >= 0 ? args[at + 1] : undefined;
};

describe('invalid manifests', () => {
  it('has at least 40 fixtures, most of them for validate', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    expect(corpus.filter((f) => f.mode === 'validate').length).toBeGreaterThan(corpus.length / 2);
  });

  it.each(corpus.filter((f) => f.mode === 'validate').map((f) => [f.name, f] as const))('%s: validate --json', async (_name, fixture) => {
    const environment = environmentOf(fixture.args);
    const validation = await validateManifest({ file: fixture.file, env: fixture.env, ...(environment === undefined ? {} : { environment }) });
    expect(validation.valid).toBe(false);
    // What `validate --json` prints for it: the two keys, each diagnostic with exactly its six.
    const output = JSON.parse(renderDiagnosticsJson(validation.diagnostics)) as { valid: boolean; diagnostics: (ActualDiagnostic & Record<string, unknown>)[] };
    expect(Object.keys(output)).toEqual(['valid', 'diagnostics']);
    expect(output.valid).toBe(false);
    for (const d of output.diagnostics) expect(Object.keys(d).sort()).toEqual(['column', 'file', 'line', 'message', 'path', 'severity']);
    expect(unmatched(fixture.diagnostics, output.diagnostics), JSON.stringify(output.diagnostics, null, 1)).toEqual([]);
  });

  it.each(corpus.filter((f) => f.mode === 'plan').map((f) => [f.name, f] as const))('%s: plan-mode rules', (_name, fixture) => {
    const environment = environmentOf(fixture.args);
    const text = readFileSync(fixture.file, 'utf8').replace(/^\uFEFF/, '');
    const result = resolveManifest(parseManifest(fixture.file, text), { env: fixture.env, mode: 'plan', ...(environment === undefined ? {} : { environment }) });
    expect(hasErrors(result.diagnostics)).toBe(true);
    expect(result.desired).toBeUndefined();
    expect(unmatched(fixture.diagnostics, result.diagnostics), JSON.stringify(result.diagnostics.map(({ line, column, message }) => ({ line, column, message })), null, 1)).toEqual([]);
  });
});
