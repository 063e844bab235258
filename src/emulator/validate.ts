// Small checks shared by the resource modules. Each one throws a 400 that names the failing field,
// so a client author can see from the message alone what to fix.
import type { JsonObject, JsonValue } from '../core/api-types.js';
import { badRequest } from './errors.js';

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'http:' || protocol === 'https:';
}

/** The request body itself must be a JSON object on every endpoint of this API. */
export function requireObjectBody(body: unknown): JsonObject {
  if (!isPlainObject(body)) throw badRequest('The request body must be a JSON object.');
  return body;
}

export function rejectUnknownKeys(object: JsonObject, allowed: ReadonlySet<string>, where: string): void {
  const unknown = Object.keys(object).filter((key) => !allowed.has(key));
  if (unknown.length > 0) {
    const list = unknown.map((key) => `'${where}${key}'`).join(', ');
    throw badRequest(`Unknown field${unknown.length > 1 ? 's' : ''} ${list}.`);
  }
}

export function requireString(object: JsonObject, key: string, where = ''): string {
  const value = object[key];
  if (value === undefined || value === null) throw badRequest(`'${where}${key}' is required.`);
  if (typeof value !== 'string') throw badRequest(`'${where}${key}' must be a string.`);
  if (value.trim() === '') throw badRequest(`'${where}${key}' must not be empty.`);
  return value;
}

export function optionalString(object: JsonObject, key: string, where = ''): string | undefined {
  const value = object[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`'${where}${key}' must be a string.`);
  return value;
}

export function optionalBoolean(object: JsonObject, key: string): boolean | undefined {
  const value = object[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw badRequest(`'${key}' must be a boolean.`);
  return value;
}

export function requireStringArray(value: JsonValue | undefined, field: string): string[] {
  if (!Array.isArray(value)) throw badRequest(`'${field}' must be an array of strings.`);
  value.forEach((item, index) => {
    if (typeof item !== 'string') throw badRequest(`'${field}[${index}]' must be a string.`);
  });
  return value as string[];
}

export function requireObject(value: JsonValue | undefined, field: string): JsonObject {
  if (!isPlainObject(value)) throw badRequest(`'${field}' must be an object.`);
  return value;
}

export function quoteList(names: readonly string[]): string {
  return names.map((name) => `'${name}'`).join(', ');
}
