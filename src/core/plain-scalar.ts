// When a string may be written without quotes in a manifest: the one rule `export` writes by and
// `fmt` removes quotes by, so that what export writes is already what fmt would write. A string is
// written plain when the YAML parser reads it back, plain, as exactly itself where it stands, and
// it does not look like another type to a YAML 1.1 reader either (`yes`, `on`, `1:30`, a date):
// those keep their quotes, which both tools leave in place.
import { isMap, isScalar, isSeq, parseDocument, Scalar, type Document, type Pair } from 'yaml';

/** Where a string stands: a mapping key, a block value (or block list item), or inside a flow collection. */
export type ScalarContext = 'key' | 'flow' | 'block';

/** Whether `value` is written (export) or may be left (fmt) without quotes in `context`. */
export function writesPlain(value: string, context: ScalarContext): boolean {
  return !looksLikeOtherType(value) && readsBackPlain(value, context);
}

/**
 * Letters, digits, spaces and `_ . / ( ) -`, starting with a letter or `_`: such a string holds no
 * indicator, comment or flow character and cannot be a number, so written plain it reads back as
 * itself anywhere, unless it is one of the core schema's words. Most strings are like this, and
 * answering them without parsing a probe document is most of what makes fmt and export fast on a
 * large manifest (test/core/format-manifest-plain.test.ts checks the rule against the parser).
 */
const OBVIOUSLY_PLAIN = /^[A-Za-z_][A-Za-z0-9_ ./()-]{0,199}$/;
const CORE_WORDS = new Set(['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE']);

export function isObviouslyPlain(value: string): boolean {
  return OBVIOUSLY_PLAIN.test(value) && value.trimEnd() === value && !CORE_WORDS.has(value);
}

/** A string YAML 1.2 (or a 1.1 reader) would take as a boolean, null, number or date. */
export function looksLikeOtherType(text: string): boolean {
  return (
    /^(?:true|false|yes|no|on|off|y|n|null|~|)$/i.test(text) ||
    /^[-+.]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9_]+)(?:[eE][-+]?[0-9]+)?$/.test(text) ||
    /^0[xob]/i.test(text) ||
    /^[-+]?\.(?:inf|nan)$/i.test(text) ||
    /^[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/.test(text) ||
    /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}/.test(text)
  );
}

/** Printable text with no line break, tab or other control character. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const SINGLE_LINE = /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]*$/u;

export function isSingleLine(value: string): boolean {
  return SINGLE_LINE.test(value);
}

/** Whether `value` written plain reads back as exactly that string where it stands. */
function readsBackPlain(value: string, context: ScalarContext): boolean {
  if (value === '' || value.trim() !== value || !SINGLE_LINE.test(value) || value.includes('\ufeff')) return false;
  if (isObviouslyPlain(value)) return true;
  if (context === 'flow') return readsBack(`k: [${value}]\n`, 'seq', value) && readsBack(`k: { x: ${value} }\n`, 'map', value);
  // A block value may also be a list item (`- value`): it must read back in both places.
  if (context === 'block') return readsBack(`k: ${value}\n`, 'block', value) && readsBack(`k:\n  - ${value}\n`, 'seq', value);
  return readsBack(`${value}: x\n`, 'key', value);
}

function readsBack(probe: string, where: 'key' | 'block' | 'seq' | 'map', value: string): boolean {
  let doc: Document.Parsed;
  try {
    doc = parseDocument(probe);
  } catch {
    return false;
  }
  if (doc.errors.length > 0 || doc.warnings.length > 0 || !isMap(doc.contents) || doc.contents.items.length !== 1) return false;
  const pair = doc.contents.items[0] as Pair<unknown, unknown>;
  const inner = (collection: unknown): unknown => {
    if (isSeq(collection) && collection.items.length === 1) return collection.items[0];
    if (isMap(collection) && collection.items.length === 1) return (collection.items[0] as Pair<unknown, unknown>).value;
    return undefined;
  };
  const node = where === 'key' ? pair.key : where === 'block' ? pair.value : inner(pair.value);
  return isScalar(node) && node.type === Scalar.PLAIN && node.value === value;
}
