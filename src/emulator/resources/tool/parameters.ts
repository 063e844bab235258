// The parameter-definition rules of PUT /ai-agents/tools/{name}: `{}` or
// `{ type: 'object', properties, required? }`, every property with string `type` and `description`.
import type { JsonObject, ToolParameters } from '../../../core/api-types.js';
import { badRequest } from '../../errors.js';
import { isPlainObject, quoteList, rejectUnknownKeys } from '../../validate.js';

const PARAMETER_KEYS = new Set(['type', 'properties', 'required']);

export function isEmptyParameters(value: unknown): boolean {
  return isPlainObject(value) && Object.keys(value).length === 0;
}

export function validateParameters(value: unknown): ToolParameters {
  if (!isPlainObject(value)) throw badRequest("'parameters' must be an object.");
  if (Object.keys(value).length === 0) return {};
  rejectUnknownKeys(value, PARAMETER_KEYS, 'parameters.');
  if (value.type !== 'object') throw badRequest('\'parameters.type\' must be "object".');
  const properties = value.properties;
  if (!isPlainObject(properties)) throw badRequest("'parameters.properties' must be an object.");
  const checked: NonNullable<ToolParameters['properties']> = {};
  for (const [name, definition] of Object.entries(properties)) checked[name] = validateProperty(name, definition);
  const parameters: ToolParameters = { type: 'object', properties: checked };
  if (value.required !== undefined) parameters.required = validateRequired(value.required, checked);
  return parameters;
}

function validateProperty(name: string, definition: unknown): NonNullable<ToolParameters['properties']>[string] {
  const where = `parameters.properties.${name}`;
  if (!isPlainObject(definition)) throw badRequest(`'${where}' must be an object.`);
  if (typeof definition.type !== 'string') throw badRequest(`'${where}.type' must be a string.`);
  if (typeof definition.description !== 'string') throw badRequest(`'${where}.description' must be a string.`);
  // Other JSON Schema keywords (enum, items, …) are kept as sent.
  return definition as JsonObject & { type: string; description: string };
}

function validateRequired(value: unknown, properties: NonNullable<ToolParameters['properties']>): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw badRequest("'parameters.required' must be an array of strings.");
  }
  const names = value as string[];
  const missing = names.filter((name) => !Object.hasOwn(properties, name));
  if (missing.length > 0) throw badRequest(`'parameters.required' names ${quoteList(missing)}, not in 'parameters.properties'.`);
  return names;
}
