// The export's YAML writer: whatever JSON goes in, YAML 1.2 (the yaml package, and agentsync's own
// manifest parser) reads exactly that JSON back; the same document gives the same bytes.
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../src/core/api-types.js';
import { formatManifest } from '../../src/core/format-manifest.js';
import { parseManifest } from '../../src/core/parse.js';
import { renderManifestYaml } from '../../src/render/manifest-yaml.js';

const tricky = [
  '',
  ' ',
  'true',
  'False',
  'yes',
  'NO',
  'on',
  'y',
  'null',
  '~',
  '1',
  '-1',
  '1.5',
  '.5',
  '1e3',
  '0x1F',
  '0o7',
  '1_000',
  '12:30',
  '.inf',
  '-.NaN',
  '2025-01-01',
  '- item',
  '? key',
  ': colon',
  'a: b',
  'a:',
  'a #b',
  '#comment',
  '"quoted"',
  "'single'",
  '[list]',
  '{map}',
  '&anchor',
  '*alias',
  '!tag',
  '|',
  '>',
  '%directive',
  '@at',
  '`tick`',
  'https://example.com/a?b=c#d',
  'C:\\path',
  'tab\there',
  'line\nbreak',
  'ends with newline\n',
  'two newlines\n\n',
  '\nleading newline',
  ' leading space\nx',
  'x\n  indented line',
  'carriage\r\nreturn',
  'nel\u0085here',
  'ls\u2028ps\u2029',
  'bom\ufeff',
  'del\u007f',
  'nul\u0000',
  'emoji 🙂',
  'accents éà',
  'only spaces line\n   \nafter',
  '${not interpolated here}',
  '...',
  '---',
  '???',
  'Ünïcødé agent',
  "it's",
  'a, b',
  'x!',
  'what? no',
  '50% off',
  '(beta) tool',
  '-x',
  'x-',
  '$x',
];

const jsonValue: fc.Arbitrary<JsonValue> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('scalar'), tie('array'), tie('object')),
  scalar: fc.oneof(fc.constantFrom(...tricky), fc.string(), fc.string({ unit: 'binary' }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(fc.constantFrom(...tricky), fc.string()), tie('value'), { maxKeys: 4 }),
})).value as fc.Arbitrary<JsonValue>;

/** What JSON itself keeps (-0 becomes 0, as in any JSON round trip). */
const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('renderManifestYaml', () => {
  it('round-trips any JSON object through the yaml package', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), jsonValue, { maxKeys: 6 }), (document) => {
        const text = renderManifestYaml(document as JsonObject);
        expect(viaJson(parse(text))).toEqual(viaJson(document));
      }),
      { numRuns: 400 },
    );
  });

  it("round-trips every tricky string as a value, a key and a list item, through agentsync's own parser too", () => {
    const document: JsonObject = {
      values: Object.fromEntries(tricky.map((s, i) => [`k${i}`, s])),
      keys: Object.fromEntries(tricky.map((s) => [s, s])),
      list: tricky,
      nested: [{ a: tricky, b: { c: 'x\ny' } }, [], {}, [['deep']]],
    };
    const text = renderManifestYaml(document);
    expect(parse(text)).toEqual(document);
    const parsed = parseManifest('export.yaml', text);
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.value).toEqual(document);
  });

  it('writes what fmt would write: its output passes fmt --check, whatever the names and values (one rule for plain scalars)', () => {
    const name = fc.oneof(fc.constantFrom(...tricky), fc.string(), fc.string({ unit: fc.constantFrom(...'aÜ?!:#,-\'"[]{}&*|>%@` .') }));
    fc.assert(
      fc.property(fc.dictionary(name, fc.oneof(name, fc.array(name, { maxLength: 3 })), { maxKeys: 5 }), (tools) => {
        const text = renderManifestYaml({ version: 1, tools: Object.fromEntries(Object.entries(tools).map(([key, value]) => [key, { displayName: key, value }])) });
        const formatted = formatManifest(text);
        expect(formatted.ok && !formatted.changed, `${text}\n→\n${formatted.ok ? formatted.text : formatted.problem}`).toBe(true);
      }),
      { numRuns: 300 },
    );
    for (const key of ['???', 'Ünïcødé agent']) {
      const text = renderManifestYaml({ agents: { [key]: { name: key, tools: [key] } } });
      expect(formatManifest(text)).toEqual({ ok: true, text, changed: false });
    }
  });

  it('writes plain, readable YAML where it can, with comments above and below', () => {
    const text = renderManifestYaml(
      { version: 1, tools: { b: { url: 'https://x.example/a', names: ['a', 'b_2'], text: 'Two\nlines\n', empty: {}, none: [] }, a: { size: 1.5, flag: false } } },
      { header: ['where it came from', 'line\nbreak'], trailer: ['the end'] },
    );
    expect(text).toBe(
      [
        '# where it came from',
        '# line\\u000abreak',
        'version: 1',
        '',
        'tools:',
        '  a:',
        '    flag: false',
        '    size: 1.5',
        '  b:',
        '    empty: {}',
        '    names: [a, b_2]',
        '    none: []',
        '    text: |',
        '      Two',
        '      lines',
        '    url: https://x.example/a',
        '',
        '# the end',
        '',
      ].join('\n'),
    );
  });

  it('gives the same bytes for the same document, whatever order its keys were built in', () => {
    const a = renderManifestYaml({ version: 1, tools: { x: { b: 1, a: 2 }, y: {} } });
    const b = renderManifestYaml({ version: 1, tools: { y: {}, x: { a: 2, b: 1 } } });
    expect(a).toBe(b);
  });
});
