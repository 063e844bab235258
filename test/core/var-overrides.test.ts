// --var and --var-file parsing: NAME=VALUE, YAML maps of vars, and one clear error for bad input.
import { describe, expect, it } from 'vitest';
import { parseVarFile, parseVarFlags } from '../../src/core/var-overrides.js';

describe('parseVarFlags', () => {
  it('splits at the first =, keeps the rest as text, later flags win', () => {
    expect(parseVarFlags(['model=gpt-4o', 'url=https://x.example/?a=b', 'model=gpt-5', 'empty='])).toEqual({ model: 'gpt-5', url: 'https://x.example/?a=b', empty: '' });
  });

  it.each([
    ['model', '--var needs NAME=VALUE (got "model")'],
    ['=x', '--var "" is not a var name (letters, digits, _ and -, not starting with a digit)'],
    ['9lives=x', '--var "9lives" is not a var name (letters, digits, _ and -, not starting with a digit)'],
    ['__proto__=x', '--var "__proto__" is not a var name (letters, digits, _ and -, not starting with a digit)'],
  ])('refuses %s', (flag, message) => {
    expect(() => parseVarFlags([flag])).toThrow(message);
  });
});

describe('parseVarFile', () => {
  it('reads text, numbers, booleans, lists and maps; an empty file is no vars', () => {
    expect(parseVarFile('v.yaml', 'model: gpt-4o\nretries: 3\non: true\ntools: [a, b]\nmeta: { team: x }\n')).toEqual({
      model: 'gpt-4o',
      retries: 3,
      on: true,
      tools: ['a', 'b'],
      meta: { team: 'x' },
    });
    expect(parseVarFile('v.yaml', '')).toEqual({});
  });

  it.each([
    ['a: [\n', /^--var-file v\.yaml:1:4: this \[ is never closed; add \]/],
    ['- a\n- b\n', /^--var-file v\.yaml:1:1: a var file must be a map of NAME: value, like an environment's vars, not a list$/],
    ['a: 1\na: 2\n', /^--var-file v\.yaml:2:1: duplicate key "a"/],
    [
      'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n',
      /^--var-file v\.yaml:4:\d+: aliases expand to more than 10000 nodes/,
    ],
    ['a: null\n', /^--var-file v\.yaml: a must be text, a number, a boolean, a list or a map$/],
    ['"bad name": 1\n', /^--var-file v\.yaml: "bad name" is not a var name/],
  ])('refuses %j', (text, message) => {
    expect(() => parseVarFile('v.yaml', text)).toThrow(message);
  });
});
