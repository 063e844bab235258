// Walks the YAML document itself (not the plain tree), so rules can point inside a value and read
// how it was written. Aliases are not followed: what they point at is visited where it is written.
import { isMap, isPair, isScalar, isSeq, type Document, type Pair, type Scalar, type YAMLMap } from 'yaml';
import type { PathSegment } from '../diagnostics.js';
import type { YamlLocator } from '../yaml-locate.js';

export interface StringScalar {
  path: PathSegment[];
  node: Scalar;
  value: string;
  /** The key this value sits under, when its parent is a map. */
  key?: string;
}

/** Every string value (not keys) in the document, with its key path. */
export function stringScalars(doc: Document.Parsed): StringScalar[] {
  const out: StringScalar[] = [];
  const visit = (node: unknown, path: PathSegment[], key: string | undefined): void => {
    if (isScalar(node)) {
      if (typeof node.value === 'string') out.push({ path, node, value: node.value, ...(key === undefined ? {} : { key }) });
    } else if (isMap(node)) {
      for (const pair of node.items) {
        const name = keyText(pair);
        if (name !== undefined) visit(pair.value, [...path, name], name);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => visit(item, [...path, i], undefined));
    }
  };
  visit(doc.contents, [], undefined);
  return out;
}

/** Every flow mapping (`{ a: 1, b: 2 }`) in the document, with its key path. */
export function flowMaps(doc: Document.Parsed): { path: PathSegment[]; map: YAMLMap }[] {
  const out: { path: PathSegment[]; map: YAMLMap }[] = [];
  const visit = (node: unknown, path: PathSegment[]): void => {
    if (isMap(node)) {
      if (node.flow === true) out.push({ path, map: node });
      for (const pair of node.items) {
        const name = keyText(pair);
        if (name !== undefined) visit(pair.value, [...path, name]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => visit(item, [...path, i]));
    }
  };
  visit(doc.contents, []);
  return out;
}

export function keyText(pair: unknown): string | undefined {
  if (!isPair(pair) || !isScalar((pair as Pair).key)) return undefined;
  const key = (pair as Pair<Scalar>).key.value;
  return key === null ? '' : String(key);
}

/**
 * The source offset of `needle` inside a scalar, found in its source text (escapes and quotes
 * make the value and the source differ); the scalar's start when it is not found there.
 */
export function offsetInside(node: Scalar, locator: YamlLocator, value: string, needleIndex: number, needle: string): number {
  const start = node.range?.[0] ?? 0;
  const end = node.range?.[1] ?? start;
  const written = locator.sourceSlice(start, end);
  // The n-th occurrence in the value is usually the n-th in the source.
  const before = value.slice(0, needleIndex).split(needle).length - 1;
  let at = -1;
  for (let i = 0; i <= before; i++) {
    at = written.indexOf(needle, at + 1);
    if (at === -1) return start;
  }
  return start + at;
}
