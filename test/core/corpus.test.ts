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
/**
 * A fixture's CLI arguments as the use case takes them. `-e NAME` is the only one the corpus uses; any
 * other would be ignored here while the CLI honours it, so it fails the test instead.
 */
const environmentOf = (args: readonly string[]): { environment?: string } => {
  if (args.length === 0) return {};
  const [flag, environment, ...rest] = args;
  if (flag !== '-e' || environment === undefined || rest.length > 0) throw new Error(`the in-process corpus takes only "-e NAME" as arguments, not ${JSON.stringify(args)}`);
  return { environment };
};

describe('invalid manifests', () => {
  it('has at least 40 fixtures, most of them for validate', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    expect(corpus.filter((f) => f.mode === 'validate').length).toBeGreaterThan(corpus.length / 2);
  });

  it.each(corpus.filter((f) => f.mode === 'validate').map((f) => [f.name, f] as const))('%s: validate --json', async (_name, fixture) => {
    const validation = await validateManifest({ file: fixture.file, env: fixture.env, ...environmentOf(fixture.args) });
    expect(validation.valid).toBe(false);
    // What `validate --json` prints for it: the two keys, each diagnostic with exactly its six.
    const output = JSON.parse(renderDiagnosticsJson(validation.diagnostics)) as { valid: boolean; diagnostics: (ActualDiagnostic & Record<string, unknown>)[] };
    expect(Object.keys(output)).toEqual(['valid', 'diagnostics']);
    expect(output.valid).toBe(false);
    for (const d of output.diagnostics) expect(Object.keys(d).sort()).toEqual(['column', 'file', 'line', 'message', 'path', 'severity']);
    expect(unmatched(fixture.diagnostics, output.diagnostics), JSON.stringify(output.diagnostics, null, 1)).toEqual([]);
  });

  it.each(corpus.filter((f) => f.mode === 'plan').map((f) => [f.name, f] as const))('%s: plan-mode rules', (_name, fixture) => {
    const text = readFileSync(fixture.file, 'utf8').replace(/^\uFEFF/, '');
    const result = resolveManifest(parseManifest(fixture.file, text), { env: fixture.env, mode: 'plan', ...environmentOf(fixture.args) });
    expect(hasErrors(result.diagnostics)).toBe(true);
    expect(result.desired).toBeUndefined();
    expect(
      unmatched(fixture.diagnostics, result.diagnostics),
      JSON.stringify(
        result.diagnostics.map(({ line, column, message }) => ({ line, column, message })),
        null,
        1,
      ),
    ).toEqual([]);
  });
});
