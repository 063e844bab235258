// Matches `/v3/...` paths against the route table. Path parameters are percent-decoded here;
// the request log keeps the path exactly as it arrived.
import type { IncomingHttpHeaders } from 'node:http';
import { apiNotFound, badRequest, methodNotAllowed } from './errors.js';

export interface ApiRequest {
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** The parsed JSON body on PUT/POST/PATCH; undefined on other methods. */
  body: unknown;
  headers: IncomingHttpHeaders;
}

export interface ApiResponse {
  status: number;
  body: unknown;
}

/** Most handlers answer at once; the scrape awaits its crawl. */
export type Handler = (request: ApiRequest) => ApiResponse | Promise<ApiResponse>;
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  /** Path below `/v3`, with `:name` segments for parameters. */
  pattern: string;
  methods: Partial<Record<Method, Handler>>;
  /** The reference declares no body for it (e.g. PATCH …/{sourceType}/{uniqueId}/sync): an empty body is fine. */
  bodyOptional?: boolean;
}

export interface RouteMatch {
  handler: Handler;
  params: Record<string, string>;
  /** PUT, POST and PATCH carry a JSON body; the server reads it only for those. */
  takesBody: boolean;
  bodyOptional: boolean;
}

interface CompiledRoute {
  segments: readonly string[];
  methods: Partial<Record<string, Handler>>;
  allowed: readonly string[];
  bodyOptional: boolean;
}

const BODY_METHODS = new Set(['PUT', 'POST', 'PATCH']);

export class Router {
  private readonly routes: CompiledRoute[];

  constructor(routes: readonly Route[]) {
    this.routes = routes.map((route) => ({
      segments: route.pattern.split('/').slice(1),
      methods: route.methods,
      allowed: Object.keys(route.methods),
      bodyOptional: route.bodyOptional === true,
    }));
  }

  /** Throws 404 for an unknown path and 405 (with Allow) for a known path and a wrong method. */
  match(method: string, pathname: string): RouteMatch {
    const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
    const parts = trimmed.split('/').slice(1);
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      const handler = route.methods[method];
      if (!handler) throw methodNotAllowed(method, route.allowed);
      return { handler, params, takesBody: BODY_METHODS.has(method), bodyOptional: route.bodyOptional };
    }
    throw apiNotFound(pathname);
  }
}

function matchSegments(pattern: readonly string[], parts: readonly string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i] as string;
    const actual = parts[i] as string;
    if (expected.startsWith(':')) {
      if (actual === '') return null;
      params[expected.slice(1)] = decodeSegment(actual, expected.slice(1));
    } else if (expected !== actual) {
      return null;
    }
  }
  return params;
}

function decodeSegment(segment: string, name: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`The path parameter '${name}' is not valid percent-encoding.`);
  }
}
