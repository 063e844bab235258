// Checks request bodies and answers against CometChat's public AI Agents reference, in the two
// versions of CometChat's reference (docs/spec/server.md#the-public-reference): A (cometchat-ai-agents-full, every operation)
// and O (cometchat-ai-agents, three operations). Give it a concrete path or a path template:
//
//   validateRequestBody('PUT', '/ai-agents/tools/get_weather', body)      // → [] when both accept it
//   validateResponse('POST', '/v3/ai-agents/agents', 201, answer, { versions: ['O'] })
//
// Each function returns readable problem lines, e.g.
//   "A PUT /ai-agents/tools/{name} request body: /parameters must have required property 'type'",
// and an empty list when every selected version that documents the operation accepts the value.
// A call that no selected version documents is itself a problem, so a check can never pass by
// matching nothing.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

export type ReferenceVersion = 'A' | 'O';
export const REFERENCE_VERSIONS: readonly ReferenceVersion[] = ['A', 'O'];

export interface ContractOptions {
  /** Which versions to check against; default both. A version that lacks the operation is skipped. */
  versions?: readonly ReferenceVersion[];
}

interface Operation {
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
}

export interface FoundOperation {
  version: ReferenceVersion;
  /** The path as the reference writes it, e.g. `/ai-agents/tools/{name}`. */
  template: string;
  method: string;
  operation: Operation;
}

const FILES: Record<ReferenceVersion, string> = {
  A: 'cometchat-ai-agents-full.openapi-extract.json',
  O: 'cometchat-ai-agents.openapi-extract.json',
};
const referenceFolder = fileURLToPath(new URL('../fixtures/reference/', import.meta.url));
const documents = Object.fromEntries(REFERENCE_VERSIONS.map((version) => [version, JSON.parse(readFileSync(`${referenceFolder}${FILES[version]}`, 'utf8')) as OpenApiDocument])) as Record<
  ReferenceVersion,
  OpenApiDocument
>;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

// OpenAPI 3.0 keywords that plain JSON Schema does not know (example, discriminator, x-…) are
// ignored (strict: false); `nullable` is understood by Ajv itself. The two formats the extracts
// use are defined here, so format checks stay on without another dependency. Formats apply to
// strings only: O's `type: integer, format: date-time` checks the type alone.
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addFormat('date-time', { type: 'string', validate: (value: string) => RFC3339.test(value) && !Number.isNaN(Date.parse(value)) });
ajv.addFormat('url', { type: 'string', validate: (value: string) => /^https?:$/.test(URL.canParse(value) ? new URL(value).protocol : '') });
for (const version of REFERENCE_VERSIONS) ajv.addSchema(documents[version], version);

/** Accepts `/ai-agents/…`, `/v3/ai-agents/…`, a full URL, a query string or a trailing slash. */
function normalizePath(path: string): string {
  let pathname = URL.canParse(path) ? new URL(path).pathname : path;
  const queryAt = pathname.indexOf('?');
  if (queryAt >= 0) pathname = pathname.slice(0, queryAt);
  if (pathname.startsWith('/v3/')) pathname = pathname.slice(3);
  if (pathname.length > 1 && pathname.endsWith('/')) pathname = pathname.slice(0, -1);
  return pathname;
}

/** How well a concrete path fits a template: the number of literal segments, or -1 for no match. */
function fit(template: string, path: string): number {
  if (template === path) return Number.MAX_SAFE_INTEGER;
  const expected = template.split('/');
  const actual = path.split('/');
  if (expected.length !== actual.length) return -1;
  let literal = 0;
  for (let i = 0; i < expected.length; i++) {
    const segment = expected[i] as string;
    if (segment.startsWith('{') && segment.endsWith('}')) {
      if (actual[i] === '') return -1;
    } else if (segment === actual[i]) {
      literal++;
    } else {
      return -1;
    }
  }
  return literal;
}

/** The operation a version documents for this method and path; the most literal template wins. */
export function findOperation(version: ReferenceVersion, method: string, path: string): FoundOperation | undefined {
  const wanted = normalizePath(path);
  const lower = method.toLowerCase();
  let best: FoundOperation | undefined;
  let bestFit = -1;
  for (const [template, operations] of Object.entries(documents[version].paths)) {
    const operation = operations[lower];
    const score = operation ? fit(template, wanted) : -1;
    if (operation && score > bestFit) {
      best = { version, template, method: method.toUpperCase(), operation };
      bestFit = score;
    }
  }
  return best;
}

/** The statuses a version declares for an operation, as numbers; empty when it lacks the operation. */
export function documentedStatuses(version: ReferenceVersion, method: string, path: string): number[] {
  const found = findOperation(version, method, path);
  return Object.keys(found?.operation.responses ?? {})
    .map(Number)
    .filter(Number.isInteger);
}

function pointer(...tokens: string[]): string {
  return tokens.map((token) => token.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
}

function compiled(version: ReferenceVersion, ...tokens: string[]): ValidateFunction {
  const ref = `${version}#/${pointer(...tokens)}`;
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`No schema at ${ref}`);
  return validate;
}

function describe(errors: readonly ErrorObject[] | null | undefined, where: string): string[] {
  const lines = (errors ?? []).map((error) => {
    const details: string[] = [];
    const params = error.params as Record<string, unknown>;
    if (params.additionalProperty !== undefined) details.push(`'${String(params.additionalProperty)}'`);
    if (Array.isArray(params.allowedValues)) details.push(`(${params.allowedValues.map((value) => JSON.stringify(value)).join(', ')})`);
    return `${where}: ${error.instancePath || '/'} ${error.message ?? 'is not valid'}${details.length > 0 ? ` ${details.join(' ')}` : ''}`;
  });
  return [...new Set(lines)];
}

function selected(options: ContractOptions | undefined): readonly ReferenceVersion[] {
  return options?.versions ?? REFERENCE_VERSIONS;
}

function nobodyDocuments(method: string, path: string, versions: readonly ReferenceVersion[]): string {
  return `${method.toUpperCase()} ${normalizePath(path)}: no reference version (${versions.join(', ')}) documents this operation`;
}

/** Checks a JSON request body against every selected version that documents the operation. */
export function validateRequestBody(method: string, path: string, body: unknown, options?: ContractOptions): string[] {
  const versions = selected(options);
  const problems: string[] = [];
  let documented = 0;
  for (const version of versions) {
    const found = findOperation(version, method, path);
    if (!found) continue;
    documented++;
    const where = `${version} ${found.method} ${found.template} request body`;
    const requestBody = found.operation.requestBody;
    if (!requestBody) {
      if (body !== undefined) problems.push(`${where}: the operation takes no body`);
      continue;
    }
    if (body === undefined) {
      if (requestBody.required) problems.push(`${where}: a body is required`);
      continue;
    }
    if (!requestBody.content?.['application/json']?.schema) {
      problems.push(`${where}: no application/json schema is declared`);
      continue;
    }
    const validate = compiled(version, 'paths', found.template, found.method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema');
    if (!validate(body)) problems.push(...describe(validate.errors, where));
  }
  return documented === 0 ? [nobodyDocuments(method, path, versions)] : problems;
}

/**
 * Checks an answer against every selected version that documents the operation and this status.
 * A status declared without a body (several knowledge-base errors) is accepted with any body.
 */
export function validateResponse(method: string, path: string, status: number, body: unknown, options?: ContractOptions): string[] {
  const versions = selected(options);
  const problems: string[] = [];
  const withOperation: ReferenceVersion[] = [];
  let documented = 0;
  for (const version of versions) {
    const found = findOperation(version, method, path);
    if (!found) continue;
    withOperation.push(version);
    const response = found.operation.responses?.[String(status)];
    if (!response) continue;
    documented++;
    const where = `${version} ${found.method} ${found.template} ${status} answer`;
    if (!response.content?.['application/json']?.schema) continue;
    const validate = compiled(version, 'paths', found.template, found.method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema');
    if (!validate(body)) problems.push(...describe(validate.errors, where));
  }
  if (withOperation.length === 0) return [nobodyDocuments(method, path, versions)];
  if (documented === 0) return [`${method.toUpperCase()} ${normalizePath(path)}: status ${status} is not documented in ${withOperation.join(', ')}`];
  return problems;
}

/** Checks a value against a named component schema, e.g. `validateComponent('A', 'ErrorResponse', body)`. */
export function validateComponent(version: ReferenceVersion, name: string, value: unknown): string[] {
  if (!documents[version].components?.schemas?.[name]) return [`${version} has no component schema ${name}`];
  const validate = compiled(version, 'components', 'schemas', name);
  return validate(value) ? [] : describe(validate.errors, `${version} ${name}`);
}
