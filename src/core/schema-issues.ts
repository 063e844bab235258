// zod issues → diagnostics a newcomer understands, each at the YAML node it is about.
import { $ZodArray, $ZodDefault, $ZodLazy, $ZodNullable, $ZodObject, $ZodOptional, $ZodPipe, $ZodRecord, type $ZodIssue, type $ZodType } from 'zod/v4/core';
import type { Diagnostic, PathSegment } from './diagnostics.js';
import { formatPath } from './diagnostics.js';
import { didYouMean } from './suggest.js';
import type { ManifestLocator } from './yaml-locate.js';

type Issue = $ZodIssue;
type Schema = $ZodType;

export interface IssueContext {
  schema: Schema;
  /** The value that was parsed, to tell a missing key from a wrong one. */
  input: unknown;
  locator: ManifestLocator;
  /** Formatted paths already reported (e.g. an unset variable); issues there are noise. */
  skip: ReadonlySet<string>;
}

export function issuesToDiagnostics(issues: readonly Issue[], ctx: IssueContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const issue of issues) {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    if (ctx.skip.has(formatPath(path))) continue;
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeys(ctx.schema, path);
      for (const key of issue.keys) {
        const hint = didYouMean(key, known) || (known.length > 0 ? `; allowed keys here: ${known.join(', ')}` : '');
        out.push(ctx.locator.diagnostic([...path, key], `unknown key "${key}"${hint}`, 'error', 'key'));
      }
      continue;
    }
    if (issue.code === 'invalid_key') {
      const key = String(path[path.length - 1]);
      const reason = issue.issues.map((inner) => inner.message).join('; ');
      out.push(ctx.locator.diagnostic(path, `invalid key "${key}": ${reason}`, 'error', 'key'));
      continue;
    }
    const actual = valueAt(ctx.input, path);
    if (actual === undefined && path.length > 0 && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) {
      out.push(ctx.locator.diagnostic(path, `missing required key "${String(path[path.length - 1])}"`));
      continue;
    }
    out.push(ctx.locator.diagnostic(path, messageFor(issue, actual)));
  }
  return out;
}

function messageFor(issue: Issue, actual: unknown): string {
  const custom = !issue.message.startsWith('Invalid ');
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${typeName(issue.expected)} (got ${describe(actual)})`;
    case 'invalid_value': {
      if (custom) return `${issue.message} (got ${describe(actual)})`;
      const values = issue.values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
      return values.length === 1 ? `must be ${values[0]} (got ${describe(actual)})` : `must be one of ${values.join(', ')} (got ${describe(actual)})`;
    }
    case 'too_small':
      return issue.origin === 'string' && Number(issue.minimum) === 1 ? 'must not be empty' : `must have at least ${String(issue.minimum)} item(s)`;
    case 'invalid_union': {
      const expected = new Set(issue.errors.flat().flatMap((inner) => (inner.code === 'invalid_type' ? [typeName(inner.expected)] : [])));
      return expected.size > 0 ? `must be ${[...expected].join(' or ')} (got ${describe(actual)})` : 'has a value of an unsupported type';
    }
    case 'invalid_format':
      return custom ? issue.message : `must match ${issue.format === 'regex' && 'pattern' in issue ? String(issue.pattern) : issue.format}`;
    default:
      return custom ? issue.message : issue.message.replace(/^Invalid input: /, '');
  }
}

const TYPE_NAMES: Partial<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  record: 'a map',
  object: 'a map',
  array: 'a list',
  null: 'null',
};

function typeName(expected: string): string {
  return TYPE_NAMES[expected] ?? expected;
}

function describe(value: unknown): string {
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return value.length > 40 ? `"${value.slice(0, 37)}…"` : JSON.stringify(value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'object':
      return 'a map';
    default:
      return typeof value;
  }
}

function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let value = root;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = Object.hasOwn(value, segment) ? (value as Record<PathSegment, unknown>)[segment] : undefined;
  }
  return value;
}

/** The keys a strict object in the schema accepts at `path` (for "did you mean"). */
export function knownKeys(schema: Schema, path: readonly PathSegment[]): string[] {
  let current: Schema | undefined = schema;
  for (const segment of path) {
    current = current === undefined ? undefined : childSchema(unwrap(current), segment);
  }
  const target = current === undefined ? undefined : unwrap(current);
  return target instanceof $ZodObject ? Object.keys(target._zod.def.shape) : [];
}

function unwrap(schema: Schema): Schema {
  let current: Schema = schema;
  for (;;) {
    if (current instanceof $ZodOptional || current instanceof $ZodDefault || current instanceof $ZodNullable) current = current._zod.def.innerType;
    else if (current instanceof $ZodPipe) current = current._zod.def.in;
    else if (current instanceof $ZodLazy) current = current._zod.innerType;
    else return current;
  }
}

function childSchema(schema: Schema, segment: PathSegment): Schema | undefined {
  if (schema instanceof $ZodObject) return (schema._zod.def.shape as Record<string, Schema>)[String(segment)];
  if (schema instanceof $ZodRecord) return schema._zod.def.valueType;
  if (schema instanceof $ZodArray) return schema._zod.def.element;
  return undefined;
}
