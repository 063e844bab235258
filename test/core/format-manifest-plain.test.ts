// fmt's and export's shortcut for "this quoted string reads back the same without quotes" (isObviouslyPlain),
// checked against the YAML parser in every place a string can stand: a block value, a key, a flow
// list item and a flow map value. A wrong shortcut would change what a manifest means.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMap, isScalar, isSeq, parseDocument, Scalar, type Pair } from 'yaml';
import { isObviouslyPlain } from '../../src/core/plain-scalar.js';

/** The plain scalar `value` reads back as in `probe`, found by `pick`; undefined when it does not. */
function readBack(probe: string, pick: (pair: Pair<unknown, unknown>) => unknown): unknown {
  const doc = parseDocument(probe);
  if (doc.errors.length > 0 || doc.warnings.length > 0 || !isMap(doc.contents)) return undefined;
  const node = pick(doc.contents.items[0] as Pair<unknown, unknown>);
  return isScalar(node) && node.type === Scalar.PLAIN ? node.value : undefined;
}

const firstOf = (collection: unknown): unknown => {
  if (isSeq(collection)) return collection.items[0];
  if (isMap(collection)) return (collection.items[0] as Pair<unknown, unknown>).value;
  return undefined;
};

function readsBackEverywhere(value: string): boolean {
  return (
    readBack(`k: ${value}\n`, (pair) => pair.value) === value &&
    readBack(`${value}: x\n`, (pair) => pair.key) === value &&
    readBack(`k: [${value}]\n`, (pair) => firstOf(pair.value)) === value &&
    readBack(`k: { x: ${value} }\n`, (pair) => firstOf(pair.value)) === value
  );
}

const alphabet = 'aZ_09 ./()-#:,[]{}&*!|>\'"%@`?~\t';
const candidate = fc.oneof(
  fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 14 }),
  fc.constantFrom('null', 'True', 'FALSE', 'Null', 'nan', 'inf', 'yes', 'No', 'on', 'x', 'a b', 'a  b', 'v1.2', 'e10', '_x', 'Tool 1 (beta)', 'a/b-c'),
);

describe('isObviouslyPlain', () => {
  it('says yes only for strings that read back as themselves, plain, wherever they stand', () => {
    fc.assert(
      fc.property(candidate, (value) => {
        if (isObviouslyPlain(value)) expect(readsBackEverywhere(value), JSON.stringify(value)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('answers the common cases without a probe', () => {
    for (const value of ['Tool 12', 'Looks up order 7 and returns its status', 'get_weather', 'v1.2', 'a/b-c (beta)']) expect(isObviouslyPlain(value), value).toBe(true);
    for (const value of ['true', 'NULL', '12', '-x', 'a: b', 'a #b', 'a,b', '', ' a', 'a ', 'x'.repeat(300)]) expect(isObviouslyPlain(value), value).toBe(false);
  });
});
