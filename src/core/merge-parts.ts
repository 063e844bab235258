// A manifest in many files: each file (a part) is parsed on its own, then the parts merge by key
// into the one tree the rest of the pipeline reads, as if it had been written in one file. A key
// defined in two parts is an error that names both places; nothing is overridden silently. The
// merged manifest keeps a locator that sends every path back to the part that wrote it, so each
// diagnostic names the right file.
import { formatPath, type Diagnostic, type PathSegment, type Severity } from './diagnostics.js';
import type { JsonValue } from './api-types.js';
import { jsonEqual } from './json-equal.js';
import { MANIFEST_SECTIONS } from './kinds/index.js';
import type { InterpolationSite, ParsedFile, ParsedManifest } from './parse.js';
import type { Anchor, ManifestLocator, YamlLocator } from './yaml-locate.js';
import { appendAll } from './arrays.js';

/**
 * How each key merges: `entries` maps merge entry by entry (an entry may be in one part only),
 * `list`s are joined in part order, `agree` values must be equal wherever given, and a nested rule
 * set merges a map key by key. Any other key (`notify`, `state`, or a typo the schema will name)
 * may appear in one part only.
 */
type Rule = 'entries' | 'list' | 'agree' | Rules;
interface Rules {
  readonly [key: string]: Rule;
}

/** The manifest's own keys; each resource kind's map (`tools`, `knowledgeBase.websites`, …) is added from the kind. */
const MANIFEST_RULES: Rules = withKindSections(
  {
    version: 'agree',
    environments: 'entries',
    lint: 'entries',
    moved: 'list',
    external: { tools: 'list' },
  },
  Object.values(MANIFEST_SECTIONS),
);

/** Each section path merges entry by entry, under maps that merge key by key on the way to it. */
function withKindSections(rules: Rules, sections: readonly (readonly string[])[]): Rules {
  const out: Record<string, Rule> = { ...rules };
  for (const [head, ...rest] of sections) {
    if (head === undefined) continue;
    const inner = out[head];
    out[head] = rest.length === 0 ? 'entries' : withKindSections(typeof inner === 'object' ? inner : {}, [rest]);
  }
  return out;
}

/** Which part wrote a key: the first one, and for merged maps and lists, each entry's own part. */
interface Owner {
  part: number;
  entries?: Map<string, number>;
  /** A joined list's items: the part each came from and its index there. */
  items?: { part: number; index: number }[];
  /** Where each part's items start in the joined list (a part's items are together). */
  starts?: Map<number, number>;
  children?: Map<string, Owner>;
}

export function mergeParts(name: string, parts: readonly ParsedFile[]): ParsedManifest {
  const [only] = parts;
  if (parts.length === 1 && only !== undefined) return only;
  const merger = new PartMerger(parts);
  const diagnostics = parts.flatMap((part) => part.diagnostics);
  const usable = parts.every((part) => part.value !== undefined);
  const value: Record<string, unknown> = {};
  if (usable) parts.forEach((part, index) => merger.merge(value, part.value ?? {}, MANIFEST_RULES, merger.owners, index, []));
  appendAll(diagnostics, merger.diagnostics);
  return {
    file: name,
    value: usable ? value : undefined,
    sites: usable ? parts.flatMap((part, index) => part.sites.map((site) => merger.moveSite(site, index))) : [],
    diagnostics,
    locator: new PartsLocator(
      parts.map((part) => part.locator),
      merger.owners,
    ),
  };
}

class PartMerger {
  readonly owners = new Map<string, Owner>();
  readonly diagnostics: Diagnostic[] = [];
  /** A part's own map or list → the merged one that now holds its entries (for interpolation sites). */
  private readonly mergedContainer = new Map<object, { into: Record<string, unknown> | unknown[]; offset: number }>();

  constructor(private readonly parts: readonly ParsedFile[]) {}

  merge(target: Record<string, unknown>, source: Record<string, unknown>, rules: Rules, owners: Map<string, Owner>, part: number, path: readonly PathSegment[]): void {
    for (const [key, value] of Object.entries(source)) {
      const rule = Object.hasOwn(rules, key) ? rules[key] : undefined;
      const here = [...path, key];
      const owner = owners.get(key);
      if (owner === undefined) {
        const first: Owner = { part };
        owners.set(key, first);
        target[key] = this.firstValue(value, rule, first, part, here);
        continue;
      }
      const merged = target[key];
      if (rule === 'agree') {
        if (!jsonEqual(merged as JsonValue, value as JsonValue))
          this.conflict(part, here, owner.part, `${formatPath(here)} is ${JSON.stringify(value)} here but ${JSON.stringify(merged)} in`, 'every file must give the same value');
      } else if (rule === 'entries' && isPlainObject(merged) && owner.entries && isPlainObject(value)) {
        this.addEntries(merged, value, owner.entries, part, here);
      } else if (rule === 'list' && Array.isArray(merged) && owner.items && owner.starts && Array.isArray(value)) {
        this.addItems(merged, value, owner, part);
      } else if (typeof rule === 'object' && isPlainObject(merged) && owner.children && isPlainObject(value)) {
        this.merge(merged, value, rule, owner.children, part, here);
      } else {
        this.conflict(part, here, owner.part, `${formatPath(here)} is already defined in`, 'a key may be defined in one file only');
      }
    }
  }

  private firstValue(value: unknown, rule: Rule | undefined, owner: Owner, part: number, path: readonly PathSegment[]): unknown {
    if (rule === 'entries' && isPlainObject(value)) {
      const merged: Record<string, unknown> = {};
      owner.entries = new Map();
      this.addEntries(merged, value, owner.entries, part, path);
      return merged;
    }
    if (rule === 'list' && Array.isArray(value)) {
      const merged: unknown[] = [];
      owner.items = [];
      owner.starts = new Map();
      this.addItems(merged, value, owner, part);
      return merged;
    }
    if (typeof rule === 'object' && isPlainObject(value)) {
      const merged: Record<string, unknown> = {};
      owner.children = new Map();
      this.merge(merged, value, rule, owner.children, part, path);
      return merged;
    }
    return value;
  }

  private addEntries(into: Record<string, unknown>, from: Record<string, unknown>, owners: Map<string, number>, part: number, path: readonly PathSegment[]): void {
    this.mergedContainer.set(from, { into, offset: 0 });
    for (const [name, entry] of Object.entries(from)) {
      const first = owners.get(name);
      if (first !== undefined) {
        this.conflict(part, [...path, name], first, `${formatPath([...path, name])} is already defined in`, 'each one may be defined in one file only');
        continue;
      }
      owners.set(name, part);
      into[name] = entry;
    }
  }

  private addItems(into: unknown[], from: readonly unknown[], owner: Owner, part: number): void {
    this.mergedContainer.set(from, { into, offset: into.length });
    owner.starts?.set(part, into.length);
    from.forEach((item, index) => {
      into.push(item);
      owner.items?.push({ part, index });
    });
  }

  /** An error at the later part's key, naming where the earlier part wrote it as `file:line:col`. */
  private conflict(part: number, path: readonly PathSegment[], firstPart: number, saying: string, rule: string): void {
    const first = this.partLocator(firstPart).diagnostic(path, '', 'error', 'key');
    const message = `${saying} ${first.file}:${first.line}:${first.column}; ${rule}`;
    this.diagnostics.push(this.partLocator(part).diagnostic(path, message, 'error', 'key'));
  }

  private partLocator(part: number): YamlLocator {
    const parsed = this.parts[part];
    if (parsed === undefined) throw new Error(`no manifest part ${part}`);
    return parsed.locator;
  }

  /**
   * A part's interpolation site, moved into the merged tree: resolution writes each value into its
   * parent, which for a value written directly in a merged map or list is now the merged one, and
   * its path is the merged path (a joined list's items are further along).
   */
  moveSite(site: InterpolationSite, part: number): InterpolationSite {
    const moved = this.mergedContainer.get(site.parent);
    const path = this.mergedPath(site.path, part);
    const inFile = path === site.path ? {} : { path, pathInFile: site.path };
    if (moved === undefined) return path === site.path ? site : { ...site, ...inFile };
    const key = typeof site.key === 'number' ? site.key + moved.offset : site.key;
    return { ...site, ...inFile, parent: moved.into, key };
  }

  private mergedPath(path: readonly PathSegment[], part: number): PathSegment[] {
    let owners = this.owners;
    let rules: Rules = MANIFEST_RULES;
    for (let i = 0; i < path.length; i++) {
      const segment = path[i];
      const next = path[i + 1];
      const owner = owners.get(String(segment));
      const rule = typeof segment === 'string' && Object.hasOwn(rules, segment) ? rules[segment] : undefined;
      if (owner === undefined) break;
      if (rule === 'list' && typeof next === 'number') {
        const start = owner.starts?.get(part);
        return start === undefined ? [...path] : [...path.slice(0, i + 1), start + next, ...path.slice(i + 2)];
      }
      if (typeof rule !== 'object' || owner.children === undefined) break;
      owners = owner.children;
      rules = rule;
    }
    return path as PathSegment[];
  }
}

/** Sends each path of the merged manifest to the part that wrote it. */
class PartsLocator implements ManifestLocator {
  constructor(
    readonly parts: readonly YamlLocator[],
    private readonly owners: Map<string, Owner>,
  ) {}

  diagnostic(path: readonly PathSegment[], message: string, severity: Severity = 'error', anchor: Anchor = 'value'): Diagnostic {
    const at = this.partAt(path);
    return at.locator.diagnostic(at.path, message, severity, anchor);
  }

  partAt(path: readonly PathSegment[]): { locator: YamlLocator; path: readonly PathSegment[] } {
    let owners = this.owners;
    let rules: Rules = MANIFEST_RULES;
    // A path no part wrote (a required key missing everywhere) is reported in the first file.
    let part = 0;
    for (let i = 0; i < path.length; i++) {
      const segment = path[i];
      const owner = owners.get(String(segment));
      if (owner === undefined) break;
      part = owner.part;
      const next = path[i + 1];
      if (next === undefined) break;
      const rule = typeof segment === 'string' && Object.hasOwn(rules, segment) ? rules[segment] : undefined;
      if (rule === 'entries' && owner.entries) {
        part = owner.entries.get(String(next)) ?? part;
        break;
      }
      if (rule === 'list' && owner.items && typeof next === 'number') {
        const item = owner.items[next];
        if (item === undefined) break;
        return { locator: this.part(item.part), path: [...path.slice(0, i + 1), item.index, ...path.slice(i + 2)] };
      }
      if (typeof rule !== 'object' || owner.children === undefined) break;
      owners = owner.children;
      rules = rule;
    }
    return { locator: this.part(part), path };
  }

  private part(index: number): YamlLocator {
    const locator = this.parts[index];
    if (locator === undefined) throw new Error(`no manifest part ${index}`);
    return locator;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
