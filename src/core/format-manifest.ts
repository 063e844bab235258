// `agentsync fmt`: the manifest in its canonical form, as `terraform fmt` does for HCL. It edits the
// text in place, at the ranges yaml's Document API gives for each node, so everything it does not
// mean to change (comments, their alignment, blank lines, indentation, flow or block style) stays
// byte for byte. What it changes:
//   - set-like lists (an agent's tools/actions/platformTools, parameters.required, a website's
//     exclude, external.tools) are sorted as validate sorts them, so reordering is never a diff; a
//     comment on an item's line moves with the item;
//   - quoting is normalised: a one-line quoted string that reads the same without quotes loses
//     them, and a single-quoted one that needs quotes gets double quotes.
// The result is parsed again and must hold the same data, lists sorted; otherwise it is refused.
import { isMap, isPair, isScalar, isSeq, parseDocument, Scalar, visit, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import { canonicalJson } from './canonical.js';
import { KIND_SET_PATHS } from './kinds/index.js';
import { appendAll } from './arrays.js';
import { isSingleLine, writesPlain, type ScalarContext } from './plain-scalar.js';

/** Where set-like lists live; `*` is any map key. The kinds' own come from their field tables. */
const SET_LIKE_PATHS: readonly (readonly string[])[] = [...KIND_SET_PATHS, ['tools', '*', 'parameters', 'required'], ['external', 'tools']];

export type FormatResult = { ok: true; text: string; changed: boolean } | { ok: false; problem: string };

interface Edit {
  from: number;
  to: number;
  text: string;
}

/**
 * The canonical text of a manifest; never throws for bad input (a problem is returned instead).
 * `parsed`: the document of exactly this text, when the caller already parsed it without errors.
 */
export function formatManifest(text: string, parsed?: Document.Parsed): FormatResult {
  const doc = parsed && isMap(parsed.contents) ? parsed : parse(text);
  if ('problem' in doc) return doc;
  const canonical = canonicalScalars(doc, text);
  const edits: Edit[] = [];
  const inSortedList = new Set<Scalar>();
  for (const path of SET_LIKE_PATHS) {
    for (const list of nodesAt(doc.contents, path)) appendAll(edits, sortEdits(list, text, canonical, inSortedList));
  }
  for (const [node, replacement] of canonical) {
    if (inSortedList.has(node) || !node.range) continue;
    edits.push({ from: node.range[0], to: node.range[1], text: replacement });
  }
  const formatted = applyEdits(text, edits);
  if (formatted === text) return { ok: true, text, changed: false };
  const check = parse(formatted);
  if ('problem' in check || sameData(doc, check) === false) return { ok: false, problem: 'formatting would change what the file means (please report this)' };
  return { ok: true, text: formatted, changed: true };
}

function parse(text: string): Document.Parsed | { ok: false; problem: string } {
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { uniqueKeys: false });
  } catch (err) {
    return { ok: false, problem: err instanceof Error ? err.message : String(err) };
  }
  const error = doc.errors[0];
  if (error) return { ok: false, problem: error.message.split('\n')[0] ?? error.code };
  if (!isMap(doc.contents)) return { ok: false, problem: 'the file is not a YAML map (a manifest starts with `version: 1`)' };
  return doc;
}

function sameData(before: Document.Parsed, after: Document.Parsed): boolean {
  const data = (doc: Document.Parsed): string => {
    for (const path of SET_LIKE_PATHS) for (const list of nodesAt(doc.contents, path)) sortSetLikeInPlace(list);
    return canonicalJson(doc.toJS({ maxAliasCount: 10_000 }));
  };
  try {
    return data(before) === data(after);
  } catch {
    return false;
  }
}

function sortSetLikeInPlace(node: unknown): void {
  if (isSeq(node) && node.items.every((item) => isScalar(item) && typeof item.value === 'string')) {
    node.items.sort((a, b) => compare((a as Scalar<string>).value, (b as Scalar<string>).value));
  }
}

function nodesAt(node: unknown, path: readonly string[]): unknown[] {
  if (path.length === 0) return [node];
  if (!isMap(node)) return [];
  const [head, ...rest] = path;
  const pairs = (node as YAMLMap<unknown, unknown>).items.filter((pair) => head === '*' || (isScalar(pair.key) && pair.key.value === head));
  return pairs.flatMap((pair) => nodesAt(pair.value, rest));
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Edits that sort a list of plain strings; a list holding anything else (an alias, a map,
 * `${var.list}`) is left alone. Item i's slot receives the item that sorts i-th, with the comment
 * that was on that item's line.
 */
function sortEdits(node: unknown, text: string, canonical: ReadonlyMap<Scalar, string>, claimed: Set<Scalar>): Edit[] {
  if (!isSeq(node)) return [];
  const items = node.items;
  if (!items.every((item): item is Scalar<string> => isScalar(item) && typeof item.value === 'string' && item.range !== undefined && item.range !== null)) return [];
  const sorted = [...items].sort((a, b) => compare(a.value, b.value));
  if (sorted.every((item, i) => item === items[i])) return [];
  const piece = (item: Scalar<string>): { from: number; to: number; text: string } => {
    const [start, valueEnd, nodeEnd] = item.range!;
    const tail = text.slice(valueEnd, nodeEnd).replace(/[\r\n]+$/, '');
    const own = tail.includes('#') ? tail : '';
    return { from: start, to: valueEnd + own.length, text: (canonical.get(item) ?? text.slice(start, valueEnd)) + own };
  };
  return items.map((item, i) => {
    claimed.add(item);
    const slot = piece(item);
    return { from: slot.from, to: slot.to, text: piece(sorted[i]!).text };
  });
}

/** The new text of every quoted scalar whose canonical form differs from its source. */
function canonicalScalars(doc: Document.Parsed, text: string): Map<Scalar, string> {
  const out = new Map<Scalar, string>();
  visit(doc, {
    Scalar(key, node: Scalar, path) {
      if (typeof node.value !== 'string' || !node.range) return;
      if (node.type !== Scalar.QUOTE_SINGLE && node.type !== Scalar.QUOTE_DOUBLE) return;
      // A quoted string over several lines is left as written.
      if (!isSingleLine(node.value)) return;
      const inFlow = isInFlow(path);
      // A key inside a flow map is rare enough to leave as written.
      if (key === 'key' && inFlow) return;
      const context: ScalarContext = key === 'key' ? 'key' : inFlow ? 'flow' : 'block';
      const replacement = writesPlain(node.value, context) ? node.value : node.type === Scalar.QUOTE_SINGLE ? JSON.stringify(node.value) : undefined;
      if (replacement !== undefined && replacement !== text.slice(node.range[0], node.range[1])) out.set(node, replacement);
    },
  });
  return out;
}

function isInFlow(path: readonly unknown[]): boolean {
  return path.some((ancestor) => (isSeq(ancestor) || isMap(ancestor)) && ancestor.flow === true);
}

/**
 * The edits never overlap (each is one node, or one item's slot of a sorted list), so the text is
 * rebuilt in one pass from the pieces between them. Splicing each edit into the whole text made
 * fmt quadratic: 2,400 tools took 17 s.
 */
function applyEdits(text: string, edits: readonly Edit[]): string {
  const pieces: string[] = [];
  let at = 0;
  for (const edit of [...edits].sort((a, b) => a.from - b.from)) {
    pieces.push(text.slice(at, edit.from), edit.text);
    at = edit.to;
  }
  pieces.push(text.slice(at));
  return pieces.join('');
}

/** The comments of a text as yaml reads them, sorted: fmt must keep every one. */
export function commentsOf(text: string): string[] {
  const doc = parseDocument(text);
  const out: string[] = [];
  const add = (comment: string | null | undefined): void => {
    if (comment)
      appendAll(
        out,
        comment
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== ''),
      );
  };
  add(doc.commentBefore);
  visit(doc, {
    Node(_key, node: Node) {
      add(node.commentBefore);
      add(node.comment);
    },
    Pair(_key, pair: Pair) {
      if (isPair(pair) && isScalar(pair.key)) {
        add(pair.key.commentBefore);
        add(pair.key.comment);
      }
    },
  });
  add(doc.comment);
  return out.sort();
}
