// Finds where a key path lives in the YAML source. Used only when a diagnostic needs a position,
// so lookups are lazy; map indexes are built once per map and cached, which keeps many
// diagnostics on one big map linear.
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Pair } from 'yaml';
import type { Diagnostic, PathSegment, Severity } from './diagnostics.js';
import { formatPath } from './diagnostics.js';

export interface Position {
  line: number;
  column: number;
}

/** 'key' points at the key of the last path segment; 'value' at its value (the key when the value is empty). */
export type Anchor = 'key' | 'value';

/**
 * Where a key path of the manifest is written. A manifest in one file is one YamlLocator; a
 * manifest in many files (core/merge-parts.ts) finds the part that defines each path and asks it.
 */
export interface ManifestLocator {
  /** A diagnostic at a key path, in the file that defines it. */
  diagnostic(path: readonly PathSegment[], message: string, severity?: Severity, anchor?: Anchor): Diagnostic;
  /** The file that defines a path, and the path inside that file. */
  partAt(path: readonly PathSegment[]): { locator: YamlLocator; path: readonly PathSegment[] };
  /** Every file, in order: for checks that read the YAML itself (lint) rather than the merged tree. */
  readonly parts: readonly YamlLocator[];
}

export class YamlLocator implements ManifestLocator {
  private readonly mapIndexes = new WeakMap<object, Map<string, Pair>>();

  constructor(
    readonly file: string,
    private readonly text: string,
    private readonly lineCounter: LineCounter,
    /** The parsed document: for checks that read the YAML syntax itself (core/lint), and for fmt, which formats it without parsing the text again. */
    readonly doc: Document.Parsed | undefined,
  ) {}

  get parts(): readonly YamlLocator[] {
    return [this];
  }

  partAt(path: readonly PathSegment[]): { locator: YamlLocator; path: readonly PathSegment[] } {
    return { locator: this, path };
  }

  position(offset: number): Position {
    const { line, col } = this.lineCounter.linePos(Math.max(0, Math.min(offset, this.text.length)));
    return { line, column: col };
  }

  sourceSlice(start: number, end: number): string {
    return this.text.slice(start, end);
  }

  /** The offset where a 1-based line starts. */
  lineStart(line: number): number {
    return this.lineCounter.lineStarts[line - 1] ?? this.text.length;
  }

  lineText(line: number): string {
    const starts = this.lineCounter.lineStarts;
    const start = starts[line - 1] ?? 0;
    const next = starts[line];
    return this.text.slice(start, next === undefined ? this.text.length : next).replace(/\r?\n$/, '');
  }

  /** The offset of a path; when part of it does not exist, the deepest part that does. */
  offsetOf(path: readonly PathSegment[], anchor: Anchor = 'value'): number {
    let node: unknown = this.doc?.contents;
    let pair: Pair | undefined;
    for (const segment of path) {
      const child = this.child(node, segment);
      if (child === undefined) return pair ? (startOf(pair.key) ?? 0) : (startOf(node) ?? 0);
      node = child.node;
      pair = child.pair;
    }
    if (pair && (anchor === 'key' || isEmptyNode(node))) return startOf(pair.key) ?? 0;
    return startOf(node) ?? startOf(pair?.key) ?? 0;
  }

  diagnosticAtOffset(offset: number, path: readonly PathSegment[], message: string, severity: Severity = 'error'): Diagnostic {
    const { line, column } = this.position(offset);
    return { file: this.file, line, column, path: formatPath(path), message, severity, lineText: this.lineText(line) };
  }

  diagnostic(path: readonly PathSegment[], message: string, severity: Severity = 'error', anchor: Anchor = 'value'): Diagnostic {
    return this.diagnosticAtOffset(this.offsetOf(path, anchor), path, message, severity);
  }

  private child(node: unknown, segment: PathSegment): { node: unknown; pair?: Pair } | undefined {
    const target = isAlias(node) && this.doc ? node.resolve(this.doc) : node;
    if (isSeq(target) && typeof segment === 'number') {
      return segment < target.items.length ? { node: target.items[segment] } : undefined;
    }
    if (!isMap(target)) return undefined;
    const pair = this.indexOf(target.items).get(String(segment));
    if (pair === undefined) return undefined;
    const value = isAlias(pair.value) && this.doc ? pair.value.resolve(this.doc) : pair.value;
    return { node: value, pair };
  }

  private indexOf(items: readonly unknown[]): Map<string, Pair> {
    let index = this.mapIndexes.get(items);
    if (index === undefined) {
      index = new Map();
      for (const item of items) {
        if (!isPair(item) || !isScalar(item.key)) continue;
        const key = item.key.value === null ? '' : String(item.key.value);
        if (!index.has(key)) index.set(key, item);
      }
      this.mapIndexes.set(items, index);
    }
    return index;
  }
}

function startOf(node: unknown): number | undefined {
  if (node === null || typeof node !== 'object' || !('range' in node)) return undefined;
  const range = (node as { range?: readonly number[] | null }).range;
  return range?.[0];
}

function isEmptyNode(node: unknown): boolean {
  if (node === null || node === undefined) return true;
  const range = (node as { range?: readonly number[] | null }).range;
  return isScalar(node) && node.value === null && (range === undefined || range === null || range[0] === range[1]);
}
