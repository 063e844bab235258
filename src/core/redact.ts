// Sensitive values (from ${secret:…}) never leave the process in clear: the state stores, and the
// diff compares, a copy of each spec where every sensitive value is replaced by its keyed digest.
// A changed secret therefore still shows as a change, but nothing can print it.
import type { JsonObject, JsonValue } from './api-types.js';
import { canonicalJson } from './canonical.js';
import type { SensitivePath, SpecJson } from './desired.js';

/** A spec and where its sensitive values are: a desired resource, or a server record being refreshed. */
export interface Redactable {
  spec: object;
  sensitive: readonly SensitivePath[];
}

/** Keyed digest of a canonical JSON text; io/state/digest.ts gives `scrypt:<hex>`. */
export type Digest = (canonical: string) => string;

export type PathSegment = string | number;

/** scrypt is current; hmac-sha256 digests are in states written before it and must still read as digests. */
const DIGEST_PATTERN = /^(?:scrypt|hmac-sha256):[0-9a-f]{64}$/;

/** True for a string that is a digest of a sensitive value (as stored in state). */
export function isDigest(value: unknown): boolean {
  return typeof value === 'string' && DIGEST_PATTERN.test(value);
}

/** True when a digest appears anywhere inside the value: printing it would say nothing useful. */
export function containsDigest(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return isDigest(value);
  if (typeof value !== 'object') return false;
  const items = Array.isArray(value) ? value : Object.values(value);
  return items.some((item) => containsDigest(item));
}

/** A deep copy of the spec with each sensitive value replaced by `digest(canonicalJson(value))`. */
export function redactSpec(resource: Redactable, digest: Digest): SpecJson {
  const copy = cloneJson(resource.spec as SpecJson) as JsonObject;
  for (const path of shortestFirst(resource.sensitive)) replaceAt(copy, path, digest);
  return copy;
}

/**
 * Every canonical value that redacting these resources will digest, once each: what io/ digests
 * ahead, in parallel, before the diff asks for them one at a time (a digest is slow on purpose).
 */
export function sensitiveCanonicals(resources: readonly Redactable[]): string[] {
  const found = new Set<string>();
  const record: Digest = (canonical) => {
    found.add(canonical);
    return canonical;
  };
  for (const resource of resources) if (resource.sensitive.length > 0) redactSpecShared(resource, record);
  return [...found];
}

/**
 * The same redaction without the deep copy: only the objects along each sensitive path are copied,
 * the rest is shared with the input. For the diff's hot path; the result must be treated as
 * read-only. With no sensitive paths it is the spec itself.
 */
export function redactSpecShared(resource: Redactable, digest: Digest): SpecJson {
  const spec = resource.spec as SpecJson;
  if (resource.sensitive.length === 0) return spec;
  const root = { ...spec };
  for (const path of shortestFirst(resource.sensitive)) replaceAlongCopies(root, path, digest);
  return root;
}

/**
 * Shorter paths first, each path once, and none inside another: once a subtree is a digest it is
 * done. (The same path can arrive twice, e.g. from the manifest and from the state's own digests
 * during a refresh; digesting it again would digest the digest.)
 */
function shortestFirst(paths: readonly SensitivePath[]): SensitivePath[] {
  const sorted = [...paths].sort((a, b) => a.length - b.length);
  return sorted.filter((path, i) => !sorted.slice(0, i).some((earlier) => isPrefix(earlier, path)));
}

/** Like replaceAt, but copies each container on the way down before writing into it. */
function replaceAlongCopies(root: JsonObject, path: SensitivePath, digest: Digest): void {
  if (path.length === 0) return;
  let node: JsonValue = root;
  for (let i = 0; i < path.length - 1; i++) {
    const segment = path[i] as PathSegment;
    const next = childOf(node, segment);
    if (next === undefined || next === null || typeof next !== 'object') return;
    const copy: JsonValue = Array.isArray(next) ? [...next] : { ...next };
    writeChild(node, segment, copy);
    node = copy;
  }
  const last = path[path.length - 1] as PathSegment;
  const value = childOf(node, last);
  if (value !== undefined) writeChild(node, last, digest(canonicalJson(value)));
}

function writeChild(node: JsonValue, segment: PathSegment, value: JsonValue): void {
  if (Array.isArray(node)) node[Number(segment)] = value;
  else if (node !== null && typeof node === 'object') setMember(node, String(segment), value);
}

/** True when `path` is a sensitive path or lies inside one. */
export function isSensitivePath(path: readonly PathSegment[], sensitive: readonly SensitivePath[]): boolean {
  return sensitive.some((s) => s.length <= path.length && isPrefix(s, path));
}

/**
 * True when a field at `path` is sensitive or holds a sensitive value below it. The diff treats
 * arrays and changed subtrees as single fields, so a secret inside one makes the whole field secret.
 */
export function touchesSensitive(path: readonly PathSegment[], sensitive: readonly SensitivePath[]): boolean {
  return sensitive.some((s) => (s.length <= path.length ? isPrefix(s, path) : isPrefix(path, s)));
}

function isPrefix(prefix: readonly PathSegment[], path: readonly PathSegment[]): boolean {
  // Segments compare as text: a YAML path may say 0 where a key path says "0".
  return prefix.every((segment, i) => String(segment) === String(path[i]));
}

function replaceAt(root: JsonObject, path: SensitivePath, digest: Digest): void {
  if (path.length === 0) return;
  let node: JsonValue = root;
  for (let i = 0; i < path.length - 1; i++) {
    const next = childOf(node, path[i] as PathSegment);
    if (next === undefined) return;
    node = next;
  }
  const last = path[path.length - 1] as PathSegment;
  const value = childOf(node, last);
  if (value === undefined) return;
  writeChild(node, last, digest(canonicalJson(value)));
}

function childOf(node: JsonValue, segment: PathSegment): JsonValue | undefined {
  if (Array.isArray(node)) {
    const index = Number(segment);
    return Number.isInteger(index) && index >= 0 && index < node.length ? node[index] : undefined;
  }
  if (node !== null && typeof node === 'object' && Object.hasOwn(node, String(segment))) return node[String(segment)];
  return undefined;
}

/** Deep copy of plain JSON; members that are undefined are dropped, as JSON would. */
export function cloneJson(value: JsonValue): JsonValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => cloneJson(item));
  const copy: JsonObject = {};
  for (const key of Object.keys(value)) {
    const member = value[key];
    if (member !== undefined) setMember(copy, key, cloneJson(member));
  }
  return copy;
}

/** Assigns an own member; a free-form `__proto__` key stays data instead of changing the prototype. */
export function setMember(target: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
