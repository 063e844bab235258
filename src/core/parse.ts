// parse: YAML text → a plain JS tree, the interpolation sites in it, and a locator for positions.
// One walk over yaml's AST builds the tree (instead of doc.toJS()) so that each string that needs
// interpolation keeps its node, and so duplicate keys, alias expansion and nesting depth are
// checked in the same pass. Nothing here is quadratic.
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Scalar } from 'yaml';
import type { Diagnostic, PathSegment } from './diagnostics.js';
import type { LocalFiles } from './kinds/entry.js';
import { hasInterpolation } from './interpolate.js';
import { yamlErrorDiagnostics, yamlMessage } from './yaml-errors.js';
import { YamlLocator, type ManifestLocator } from './yaml-locate.js';
import { appendAll } from './arrays.js';

/** A string value holding `${`: resolve.ts rewrites `parent[key]` for each environment. */
export interface InterpolationSite {
  path: PathSegment[];
  template: string;
  node: Scalar;
  parent: Record<string, unknown> | unknown[];
  key: string | number;
  /** The file the string is written in: `node`'s offsets are offsets in it. */
  locator: YamlLocator;
  /** The path inside that file, when it differs from `path` (an item of a list joined from many files). */
  pathInFile?: PathSegment[];
}

export interface ParsedManifest {
  /** The manifest's name in messages: its file, or for many files the folder or the list. */
  file: string;
  /** The document as plain JS, before interpolation; undefined when it cannot be used at all. */
  value: Record<string, unknown> | undefined;
  sites: InterpolationSite[];
  diagnostics: Diagnostic[];
  locator: ManifestLocator;
  /** The local files its entries name (`file:`), once io/manifest/local-files.ts has read them. */
  localFiles?: LocalFiles;
}

/** One YAML file as parsed: a whole manifest, or one part of a manifest in many files. */
export interface ParsedFile extends ParsedManifest {
  locator: YamlLocator;
}

/** Nodes that alias expansion may add: far above any real manifest, far below an alias bomb. */
export const MAX_ALIAS_NODES = 10_000;
/**
 * Characters of text that alias expansion may add: as much as a whole manifest may hold. A count of
 * nodes alone lets one huge anchored string be copied thousands of times, which passed validate and
 * ran plan out of memory.
 */
export const MAX_ALIAS_CHARS = 10_000_000;
export const MAX_DEPTH = 256;

/** YAML allows no raw C0 control character but tab, LF and CR, and no DEL (escapes like "\0" are fine). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** What a YAML file must hold, in the words of the file it is (a manifest, a --var-file). */
export interface YamlMapShape {
  /** The error for an empty document; undefined when an empty document is an empty map. */
  empty?: string;
  /** The error for a document that is `kind` ("a list", "an alias", "a single value") instead of a map. */
  notMap(kind: string): string;
}

const MANIFEST_SHAPE: YamlMapShape = {
  empty: 'the manifest is empty; it needs at least `version: 1` and `environments`',
  notMap: (kind) => `the manifest must be a map of keys (version, environments, tools, …), not ${kind}`,
};

const PART_SHAPE: YamlMapShape = {
  notMap: (kind) => `a manifest part must be a map of keys (environments, tools, agents, …), not ${kind}`,
};

export function parseManifest(file: string, text: string): ParsedFile {
  return parseYamlMap(file, text, MANIFEST_SHAPE);
}

/** One file of a manifest in many files: an empty file is an empty part, and no key is required. */
export function parseManifestPart(file: string, text: string): ParsedFile {
  return parseYamlMap(file, text, PART_SHAPE);
}

/** Any YAML file that holds one map, with the manifest's bounds: control characters, aliases, depth, duplicate keys. */
export function parseYamlMap(file: string, text: string, shape: YamlMapShape): ParsedFile {
  const lineCounter = new LineCounter();
  const control = FORBIDDEN_CONTROL.exec(text);
  if (control) {
    // The yaml package lets these through; a NUL in a tool description would reach the API.
    lineCounter.addNewLine(0);
    for (let at = text.indexOf('\n'); at !== -1 && at < control.index; at = text.indexOf('\n', at + 1)) lineCounter.addNewLine(at + 1);
    const locator = new YamlLocator(file, text, lineCounter, undefined);
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    const message = `the file contains the control character U+${code}, which YAML does not allow; write it as an escape in a double-quoted string if you really need it`;
    return { file, value: undefined, sites: [], diagnostics: [locator.diagnosticAtOffset(control.index, [], message)], locator };
  }
  let doc: Document.Parsed | undefined;
  try {
    // uniqueKeys is off because yaml checks it by scanning the map for every key; the walk below
    // finds duplicates with one lookup each.
    doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  } catch (err) {
    const locator = new YamlLocator(file, text, lineCounter, undefined);
    const reason = err instanceof RangeError ? 'it is nested too deeply' : 'the YAML parser failed';
    return { file, value: undefined, sites: [], diagnostics: [locator.diagnosticAtOffset(0, [], `cannot parse the file: ${reason}`)], locator };
  }
  const locator = new YamlLocator(file, text, lineCounter, doc);
  const diagnostics: Diagnostic[] = [];
  for (const warning of doc.warnings) {
    // An unknown tag (!!js/function, …) would silently become a plain string: refuse it.
    const severity = warning.code === 'TAG_RESOLVE_FAILED' ? 'error' : 'warning';
    diagnostics.push(locator.diagnosticAtOffset(warning.pos[0], [], yamlMessage(warning.code, warning.message, MAX_DEPTH), severity));
  }
  appendAll(diagnostics, yamlErrorDiagnostics(doc.errors, locator, text, MAX_DEPTH));
  const result: ParsedFile = { file, value: undefined, sites: [], diagnostics, locator };
  if (diagnostics.some((d) => d.severity === 'error')) return result;

  const contents = doc.contents;
  if (contents === null || (isScalar(contents) && contents.value === null)) {
    if (shape.empty === undefined) result.value = {};
    else diagnostics.push(locator.diagnosticAtOffset(0, [], shape.empty));
    return result;
  }
  if (!isMap(contents)) {
    const kind = isSeq(contents) ? 'a list' : isAlias(contents) ? 'an alias' : 'a single value';
    diagnostics.push(locator.diagnosticAtOffset(contents.range[0], [], shape.notMap(kind)));
    return result;
  }
  const walker = new TreeWalker(doc, locator, diagnostics, result.sites);
  const value = walker.walk(contents, 0);
  if (!walker.aborted) result.value = value as Record<string, unknown>;
  return result;
}

class TreeWalker {
  private readonly path: PathSegment[] = [];
  private aliasDepth = 0;
  private aliasNodes = 0;
  private aliasChars = 0;
  /** The outermost alias being expanded: where an expansion limit is reported. */
  private expanding: unknown;
  aborted = false;

  constructor(
    private readonly doc: Document.Parsed,
    private readonly locator: YamlLocator,
    private readonly diagnostics: Diagnostic[],
    private readonly sites: InterpolationSite[],
  ) {}

  walk(node: unknown, depth: number): unknown {
    if (this.aborted) return undefined;
    if (this.aliasDepth > 0 && ++this.aliasNodes > MAX_ALIAS_NODES) {
      return this.abort(this.expanding, `aliases expand to more than ${MAX_ALIAS_NODES} nodes; this looks like an alias bomb`);
    }
    if (depth > MAX_DEPTH) return this.abort(node, `the document is nested more than ${MAX_DEPTH} levels deep`);
    if (isScalar(node)) return this.scalar(node);
    if (isMap(node)) return this.map(node.items, depth);
    if (isSeq(node)) return this.seq(node.items, depth);
    if (isAlias(node)) {
      const target = node.resolve(this.doc);
      if (target === undefined) return this.abort(node, `unknown alias *${node.source}`);
      if (this.aliasDepth === 0) this.expanding = node;
      this.aliasDepth++;
      const value = this.walk(target, depth + 1);
      this.aliasDepth--;
      return value;
    }
    return null; // an empty value (`key:` with nothing after it)
  }

  private scalar(node: Scalar): unknown {
    const value = node.value;
    if (typeof value === 'string' && this.aliasDepth > 0) this.countAliasText(value.length);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
    this.diagnostics.push(this.locator.diagnosticAtOffset(node.range?.[0] ?? 0, this.path, 'unsupported YAML value; use a string, number, boolean or null'));
    return String(value);
  }

  private map(items: readonly unknown[], depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const pair of items) {
      if (!isPair(pair)) continue;
      if (!isScalar(pair.key)) {
        const offset = (pair.key as { range?: number[] } | null)?.range?.[0] ?? 0;
        this.diagnostics.push(this.locator.diagnosticAtOffset(offset, this.path, 'a key must be a plain string, not a list, map or alias'));
        continue;
      }
      const key = pair.key.value === null ? '' : String(pair.key.value);
      if (key === '__proto__') {
        // Refused rather than carried: JavaScript (zod's parse, and JSON tooling on the way to the
        // API) treats "__proto__" as the object's prototype, not as data, so it would vanish silently.
        this.diagnostics.push(
          this.locator.diagnosticAtOffset(
            pair.key.range?.[0] ?? 0,
            [...this.path, key],
            'the key "__proto__" is not allowed: JavaScript reads it as an object\'s prototype, not as data, so it would be dropped silently; rename it',
          ),
        );
        continue;
      }
      if (this.aliasDepth > 0) this.countAliasText(key.length);
      if (Object.hasOwn(out, key)) {
        const offset = pair.key.range?.[0] ?? 0;
        this.diagnostics.push(this.locator.diagnosticAtOffset(offset, [...this.path, key], `duplicate key "${key}": each key may appear only once in a map`));
        continue;
      }
      this.path.push(key);
      const value = this.walk(pair.value, depth + 1);
      if (typeof value === 'string' && hasInterpolation(value)) this.addSite(pair.value, value, out, key);
      out[key] = value;
      this.path.pop();
    }
    return out;
  }

  private seq(items: readonly unknown[], depth: number): unknown[] {
    const out: unknown[] = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      this.path.push(i);
      const value = this.walk(item, depth + 1);
      if (typeof value === 'string' && hasInterpolation(value)) this.addSite(item, value, out, i);
      out.push(value);
      this.path.pop();
    }
    return out;
  }

  private countAliasText(length: number): void {
    this.aliasChars += length;
    if (this.aliasChars > MAX_ALIAS_CHARS) {
      this.abort(
        this.expanding,
        `aliases expand to more than ${String(MAX_ALIAS_CHARS).replace(/\B(?=(\d{3})+$)/g, ',')} characters of text, as much as a whole manifest may hold; write fewer copies`,
      );
    }
  }

  private addSite(node: unknown, template: string, parent: InterpolationSite['parent'], key: string | number): void {
    const scalar = isAlias(node) ? node.resolve(this.doc) : node;
    if (isScalar(scalar)) this.sites.push({ path: [...this.path], template, node: scalar, parent, key, locator: this.locator });
  }

  private abort(node: unknown, message: string): undefined {
    if (!this.aborted) {
      const offset = (node as { range?: number[] } | null)?.range?.[0] ?? 0;
      this.diagnostics.push(this.locator.diagnosticAtOffset(offset, this.path, message));
    }
    this.aborted = true;
    return undefined;
  }
}
