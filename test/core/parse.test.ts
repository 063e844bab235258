// parseManifest's own limits: alias expansion (nodes and text), __proto__ keys, YAML error sentences.
import { describe, expect, it } from 'vitest';
import { MAX_ALIAS_CHARS, parseManifest } from '../../src/core/parse.js';

const errorsOf = (text: string) => parseManifest('m.yaml', text).diagnostics.filter((d) => d.severity === 'error');

describe('parseManifest: alias expansion', () => {
  it('bounds the text that aliases add, and reports it at the first alias past the bound', () => {
    const size = 3_000_000;
    const copies = Math.floor(MAX_ALIAS_CHARS / size) + 2;
    const text = `a: &big ${'x'.repeat(size)}\nb:\n${Array.from({ length: copies }, () => '  - *big').join('\n')}\n`;
    const result = parseManifest('m.yaml', text);
    expect(result.value).toBeUndefined();
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line: 3 + Math.floor(MAX_ALIAS_CHARS / size), column: 5 });
    expect(errors[0]?.message).toMatch(/aliases expand to more than 10,000,000 characters/);
  });

  it('counts keys and nested strings, and allows text below the bound', () => {
    const text = `a: &m { k: ${'y'.repeat(1000)} }\nb: [*m, *m, *m]\n`;
    const result = parseManifest('m.yaml', text);
    expect(result.diagnostics).toEqual([]);
    expect((result.value?.b as unknown[]).length).toBe(3);
  });
});

describe('parseManifest: __proto__ keys', () => {
  it.each([
    ['top level', '__proto__: 1\n', 1, 1],
    ['a free-form map', 'a:\n  meta: { x: 1, __proto__: { admin: true } }\n', 2, 17],
    ['a quoted key', 'a:\n  "__proto__": 1\n', 2, 3],
  ])('is an error in %s, at the key', (_name, text, line, column) => {
    const errors = errorsOf(text);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line, column });
    expect(errors[0]?.message).toMatch(/the key "__proto__" is not allowed/);
  });

  it('leaves no prototype changed behind', () => {
    const result = parseManifest('m.yaml', 'a: { __proto__: { polluted: true } }\n');
    expect(Object.getPrototypeOf(result.value?.a)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('parseManifest: YAML mistakes in plain words', () => {
  it.each([
    ['a key indented too far', 'a:\n  b: 1\n    c: 2\n', 3, 5, /indented further than line 2/],
    ['a key indented too little', 'a:\n  b: 1\n c: 2\n  d: 3\n', 3, 2, /does not line up/],
    ['${…} in a flow list', 'a: [x, ${y}]\n', 1, 8, /quote it, e\.g\. \["\$\{y\}"\]/],
    ['${…} in a flow map', 'a: { b: ${X} }\n', 1, 9, /quote it, e\.g\. \{ key: "\$\{X\}" \}/],
    ['${…} on its own line in a flow list', 'a: [\n  ${y}\n]\n', 2, 3, /quote it/],
    ['": " inside a value', 'region: us: eu\n', 1, 9, /unquoted ": "/],
  ])('%s', (_name, text, line, column, message) => {
    const errors = errorsOf(text);
    expect(errors.map((e) => `${e.line}:${e.column}: ${e.message}`)).toHaveLength(1);
    expect(errors[0]).toMatchObject({ line, column });
    expect(errors[0]?.message).toMatch(message);
  });

  it('keeps a quoted ${…} in a flow list valid', () => {
    expect(errorsOf('a: ["${y}", \'${z}\']\n')).toEqual([]);
  });
});

describe('parseManifest: an unclosed quote', () => {
  // Before: yaml's "Missing closing "quote" at the end of the file, after a "this { is never closed"
  // for the flow map the quote had swallowed.
  it.each([
    ['in a flow map', 'version: 1\nenvironments:\n  local: { appId: "local, region: us }\n', 3, 19, '"'],
    ['single, in a block map', "tools:\n  t:\n    displayName: 'x\n    description: y\n", 3, 18, "'"],
  ])('%s is one error, at the quote, saying what is missing', (_name, text, line, column, quote) => {
    const errors = errorsOf(text);
    expect(errors.map(({ line, column, message }) => ({ line, column, message }))).toEqual([{ line, column, message: `this ${quote} is never closed; add ${quote} where its text ends` }]);
  });

  it('keeps an error before the quote', () => {
    const errors = errorsOf('a:\n\tb: 1\nc: "x\n');
    expect(errors.map((e) => e.message)).toEqual(['tabs cannot be used for indentation in YAML; indent with spaces']);
    expect(errorsOf('a: [1, 2\nb: "x\n').map((e) => e.message)).toContain('this " is never closed; add " where its text ends');
  });
});
