// A JSON document as YAML, for `agentsync export`: block style, keys sorted below the top level
// (whose order the caller chose), two-space indents, and the same bytes for the same document.
// Only the JSON subset is ever written, and every scalar is written so that YAML 1.2 reads back
// exactly that value: plain when nothing could misread it (by fmt's rule, core/plain-scalar.ts), a literal block for readable
// multi-line text, JSON's double-quoted form otherwise (valid YAML, with a few more escapes).
import type { JsonObject, JsonValue } from '../core/api-types.js';
import { looksLikeOtherType, writesPlain } from '../core/plain-scalar.js';
import { appendAll } from '../core/arrays.js';

const INDENT = '  ';

/** The document as YAML text ending with a newline; `comments` go above it, `trailer` below. */
/** `keyOrder`: for the map at a path, the keys to write first, in that order (the rest follow, sorted). */
export type KeyOrder = (path: readonly string[]) => readonly string[] | undefined;

export function renderManifestYaml(document: JsonObject, options: { header?: readonly string[]; trailer?: readonly string[]; keyOrder?: KeyOrder } = {}): string {
  const order: KeyOrder = options.keyOrder ?? (() => undefined);
  const lines: string[] = [];
  for (const line of options.header ?? []) lines.push(commentLine(line));
  const keys = Object.keys(document);
  if (keys.length === 0) lines.push('{}');
  keys.forEach((key, i) => {
    // A blank line between top-level sections, as people write manifests.
    if (i > 0) lines.push('');
    pushEntry(lines, '', [key], document[key] as JsonValue, order);
  });
  if ((options.trailer ?? []).length > 0) lines.push('');
  for (const line of options.trailer ?? []) lines.push(commentLine(line));
  return lines.join('\n') + '\n';
}

/** A comment holds one line whatever its text: line breaks and control characters are made visible. */
function commentLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const safe = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return safe === '' ? '#' : `# ${safe}`;
}

/** Keys in `first`'s order, then the rest sorted: the same map always gives the same order. */
function orderedKeys(value: JsonObject, first: readonly string[] | undefined): string[] {
  const keys = Object.keys(value).sort();
  if (first === undefined) return keys;
  return [...first.filter((key) => Object.hasOwn(value, key)), ...keys.filter((key) => !first.includes(key))];
}

function pushEntry(lines: string[], indent: string, path: readonly string[], value: JsonValue, order: KeyOrder): void {
  const key = path[path.length - 1] as string;
  const head = `${indent}${formatKey(key)}:`;
  if (isObject(value)) {
    const keys = orderedKeys(value, order(path));
    if (keys.length === 0) {
      lines.push(`${head} {}`);
      return;
    }
    lines.push(head);
    for (const member of keys) pushEntry(lines, indent + INDENT, [...path, member], value[member] as JsonValue, order);
    return;
  }
  if (Array.isArray(value)) {
    const flow = flowList(value);
    if (flow !== undefined) {
      lines.push(`${head} ${flow}`);
      return;
    }
    lines.push(head);
    pushItems(lines, indent + INDENT, value, path, order);
    return;
  }
  pushScalar(lines, head, indent + INDENT, value);
}

function pushItems(lines: string[], indent: string, items: readonly JsonValue[], path: readonly string[], order: KeyOrder): void {
  for (const item of items) {
    if (isObject(item) && Object.keys(item).length > 0) {
      // `- ` then the first member on the same line; the rest line up under it.
      const sub: string[] = [];
      for (const member of orderedKeys(item, undefined)) pushEntry(sub, indent + INDENT, [...path, '*', member], item[member] as JsonValue, order);
      lines.push(`${indent}- ${(sub[0] as string).slice(indent.length + INDENT.length)}`);
      appendAll(lines, sub.slice(1));
    } else if (Array.isArray(item) && item.length > 0 && flowList(item) === undefined) {
      lines.push(`${indent}-`);
      pushItems(lines, indent + INDENT, item, path, order);
    } else if (isObject(item)) lines.push(`${indent}- {}`);
    else if (Array.isArray(item)) lines.push(`${indent}- ${flowList(item) as string}`);
    else pushScalar(lines, `${indent}-`, indent + INDENT, item);
  }
}

/** `head value`, or `head |` followed by the text's lines at `blockIndent`. */
function pushScalar(lines: string[], head: string, blockIndent: string, value: Exclude<JsonValue, JsonObject | JsonValue[]>): void {
  if (typeof value === 'string' && literalBlockFits(value)) {
    const body = value.endsWith('\n') ? value.slice(0, -1) : value;
    lines.push(`${head} ${value.endsWith('\n') ? '|' : '|-'}`);
    for (const line of body.split('\n')) lines.push(line === '' ? '' : `${blockIndent}${line}`);
    return;
  }
  lines.push(`${head} ${formatScalar(value)}`);
}

/** `[a, b]` for a short list of plain strings (tool names, ids); undefined when block style reads better. */
function flowList(items: readonly JsonValue[]): string | undefined {
  if (items.length === 0) return '[]';
  if (!items.every((item) => typeof item === 'string' && PLAIN_IN_FLOW.test(item) && !looksLikeOtherType(item))) return undefined;
  const text = `[${items.join(', ')}]`;
  return text.length <= 100 ? text : undefined;
}

/** Plain exactly when `fmt` would leave it plain (core/plain-scalar.ts), so an export passes `fmt --check`. */
function formatScalar(value: string | number | boolean | null): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  return writesPlain(value, 'block') ? value : doubleQuoted(value);
}

function formatKey(key: string): string {
  return writesPlain(key, 'key') ? key : doubleQuoted(key);
}

/**
 * JSON's string syntax is YAML's double-quoted style, except that YAML also folds or rejects a few
 * characters JSON leaves raw (NEL, the line and paragraph separators, other C1 controls, BOM, DEL).
 */
function doubleQuoted(text: string): string {
  return JSON.stringify(text).replace(/[\u007f-\u009f\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A literal block keeps the text exactly when: it has a line break; no line starts with a space
 * (that would need an indentation indicator); there is at most one final newline (`|` keeps one,
 * `|-` none); no line is only spaces (a block reads those as empty); and every character is
 * printable in YAML (tabs are fine inside the text, carriage returns are not).
 */
function literalBlockFits(text: string): boolean {
  if (!text.includes('\n') || text.endsWith('\n\n') || text === '\n') return false;
  if (/[^\t\n\u0020-\u007e\u00a0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u.test(text) || /[\ufeff]/.test(text)) return false;
  const lines = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  return lines.every((line) => !line.startsWith(' ') && !line.startsWith('\t') && (line === '' || line.trim() !== ''));
}

/** In a flow list nothing that could end or open a flow collection or a mapping. */
const PLAIN_IN_FLOW = /^[A-Za-z0-9_$./][A-Za-z0-9_$./@-]*$/;

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
