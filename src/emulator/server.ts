// The request pipeline. For an API request, in this order:
//   route (404/405) → apikey (401) → rate limit (429) → injected fault (503/drop)
//   → body (413/415/400) → resource handler → latency (counted from arrival) → response.
// Faults are decided before the body is read, so a failed request never changes data.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkApiKey } from './auth.js';
import { ApiError, apiNotFound, DropConnection, errorBody, serviceUnavailable } from './errors.js';
import { rateLimitHeaders, type Faults, type RateLimitState } from './faults.js';
import { ClientGone, decodeBody, hasBody, parseJsonBody, parseJsonText, readRawBody } from './http/read-body.js';
import { Punctual, sendJson } from './http/respond.js';
import { ownOrigin, refusal } from './dashboard/guard.js';
import { isDashboardPath, serveDashboard, type DashboardServing } from './dashboard/serve.js';
import { DEMO_SITE_PATH_PREFIX, serveDemoSite } from './kb/demo-site.js';
import type { InFlightGauge, LoggedRequest, RequestLog } from './request-log.js';
import type { Router } from './router.js';
import type { KbContext } from './kb/context.js';
import { serveUpload, UPLOAD_PATH_PREFIX } from './resources/kb-upload/put.js';

export interface PipelineDeps {
  appId: string;
  apiKey: string;
  api: Router;
  admin: Router;
  faults: Faults;
  log: RequestLog;
  gauge: InFlightGauge;
  /** The page at `/` and its endpoints; it also guards `/__emulator/*` against other web pages. */
  dashboard: DashboardServing;
  /** The knowledge base: the presigned upload URLs write to its store on its clock. */
  kb: KbContext;
  /** Receives one line per request and internal errors; undefined when quiet. */
  logLine: ((line: string) => void) | undefined;
}

const API_PREFIX = '/v3';
const ADMIN_PREFIX = '/__emulator';
const LOGGED_TEXT_LIMIT = 4096;
/** Shared by every request without a query string; handlers only read it. */
const NO_QUERY = new URLSearchParams();

export function createRequestListener(deps: PipelineDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const expectedKey = Buffer.from(deps.apiKey);
  const punctual = new Punctual();
  return (req, res) => {
    const rawUrl = req.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    const pathname = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
    const query = queryAt < 0 ? NO_QUERY : new URLSearchParams(rawUrl.slice(queryAt + 1));
    const adminPath = pathname.startsWith(`${API_PREFIX}${ADMIN_PREFIX}`) ? pathname.slice(API_PREFIX.length) : pathname;
    if (adminPath === DEMO_SITE_PATH_PREFIX || adminPath.startsWith(`${DEMO_SITE_PATH_PREFIX}/`)) {
      serveDemoSiteGuarded(deps.dashboard, req, res, adminPath);
      return;
    }
    if (pathname.startsWith(UPLOAD_PATH_PREFIX)) {
      void serveUploadGuarded(deps, req, res, pathname, query);
      return;
    }
    if (isDashboardPath(pathname)) {
      void serveDashboard(deps.dashboard, req, res, pathname);
      return;
    }
    if (adminPath.startsWith(ADMIN_PREFIX)) {
      void serveAdmin(deps, req, res, adminPath, query);
      return;
    }
    if (!pathname.startsWith(`${API_PREFIX}/`)) {
      // Not an API route (a browser's /favicon.ico, a typo): the request log and the gauge hold API requests only.
      sendJson(res, 404, errorBody(apiNotFound(pathname), pathname), {});
      return;
    }
    deps.gauge.begin();
    res.once('close', () => deps.gauge.end());
    const onBehalfOf = req.headers.onbehalfof;
    const entry = deps.log.open(req.method ?? 'GET', rawUrl, Array.isArray(onBehalfOf) ? onBehalfOf.join(',') : onBehalfOf);
    void serveApi(deps, expectedKey, punctual, req, res, { pathname, query, entry, started: performance.now() });
  };
}

/** The built-in demo website (HTML, not JSON): what a scrape of the emulator's own origin crawls. Guarded like every route. */
function serveDemoSiteGuarded(dashboard: DashboardServing, req: IncomingMessage, res: ServerResponse, path: string): void {
  const listening = dashboard.listening();
  const refused = refusal(req.headers, listening);
  const origin = ownOrigin(req.headers.host ?? '', listening);
  if (refused !== undefined || origin === undefined) {
    sendJson(res, 403, errorBody(new ApiError(403, 'ERR_FORBIDDEN', refused ?? 'The Host header does not name this emulator.'), path), {});
    return;
  }
  const page = serveDemoSite(req.method ?? 'GET', origin, path);
  res.writeHead(page.status, { 'Content-Type': page.contentType, 'Content-Length': String(Buffer.byteLength(page.body)) });
  res.end(req.method === 'HEAD' ? undefined : page.body);
}

/**
 * A PUT to a presigned upload URL (resources/kb-upload/put.ts): guarded like every route, logged
 * without its query (the signature), and outside the API's key, rate limit and faults, as S3 is.
 */
async function serveUploadGuarded(deps: PipelineDeps, req: IncomingMessage, res: ServerResponse, pathname: string, query: URLSearchParams): Promise<void> {
  const refused = refusal(req.headers, deps.dashboard.listening());
  if (refused !== undefined) {
    sendJson(res, 403, errorBody(new ApiError(403, 'ERR_FORBIDDEN', refused), pathname), {});
    return;
  }
  const started = performance.now();
  const entry = deps.log.open(req.method ?? 'PUT', pathname, undefined);
  const status = await serveUpload(deps.kb, req, res, pathname, query);
  entry.status = status;
  entry.durationMs = Math.round(performance.now() - started);
}

interface ApiCall {
  pathname: string;
  query: URLSearchParams;
  entry: LoggedRequest;
  started: number;
}

async function serveApi(deps: PipelineDeps, expectedKey: Buffer, punctual: Punctual, req: IncomingMessage, res: ServerResponse, call: ApiCall): Promise<void> {
  const method = req.method ?? 'GET';
  let rate: RateLimitState = deps.faults.peekToken(deps.appId);
  const answer = await answerOf(deps, call.pathname, async () => {
    // A web page must not drive the API either (dashboard/guard.ts); the CLI sends no Origin.
    const refused = refusal(req.headers, deps.dashboard.listening());
    if (refused !== undefined) throw new ApiError(403, 'ERR_FORBIDDEN', refused);
    const match = deps.api.match(method, call.pathname.slice(API_PREFIX.length));
    checkApiKey(req.headers.apikey, expectedKey);
    rate = deps.faults.takeToken(deps.appId);
    if (rate.retryAfterMs !== undefined) {
      throw new ApiError(429, 'ERR_TOO_MANY_REQUESTS', `Rate limit of ${rate.limit} requests per minute exceeded; retry later.`);
    }
    const fault = deps.faults.decideFailure();
    if (fault === 'drop') {
      call.entry.fault = 'drop';
      // A dropped connection takes as long as an answer would have: the latency, from arrival.
      if (deps.faults.latencyMs > 0) await punctual.until(call.started + deps.faults.latencyMs);
      req.socket.destroy();
      return undefined;
    }
    if (fault === '503') {
      call.entry.fault = '503';
      throw serviceUnavailable();
    }
    let requestBody: unknown;
    if (match.takesBody && !(match.bodyOptional && !hasBody(req))) {
      const raw = await readRawBody(req);
      let text: string;
      try {
        text = decodeBody(raw);
        requestBody = parseJsonText(text);
      } catch (err) {
        deps.log.setBody(call.entry, truncatedText(raw), false);
        throw err;
      }
      deps.log.setBody(call.entry, text, true);
    }
    try {
      const handled = await match.handler({ params: match.params, query: call.query, body: requestBody, headers: req.headers });
      // The lost-answer fault: the request did its work (the data changed); its answer never leaves.
      if (deps.faults.takeLostAnswer(method, call.pathname.slice(API_PREFIX.length))) throw new DropConnection('loseAnswerNext');
      return handled;
    } catch (err) {
      if (!(err instanceof DropConnection)) throw err;
      call.entry.fault = 'drop';
      req.socket.destroy();
      return undefined;
    }
  });
  if (answer === undefined) return;
  // The latency counts from the request's arrival, so the handler's own time is part of it.
  const latencyMs = deps.faults.latencyMs;
  if (latencyMs > 0) await punctual.until(call.started + latencyMs);
  call.entry.status = answer.status;
  call.entry.expected = answer.expected;
  call.entry.durationMs = Math.round(performance.now() - call.started);
  sendJson(res, answer.status, answer.body, rateLimitHeaders(rate), answer.headers);
  deps.logLine?.(`${method} ${call.entry.path} ${answer.status} ${call.entry.durationMs}ms`);
}

async function serveAdmin(deps: PipelineDeps, req: IncomingMessage, res: ServerResponse, pathname: string, query: URLSearchParams): Promise<void> {
  const answer = await answerOf(deps, pathname, async () => {
    // A web page in the developer's browser must not reset data or change the knobs (dashboard/guard.ts).
    const refused = refusal(req.headers, deps.dashboard.listening());
    if (refused !== undefined) throw new ApiError(403, 'ERR_FORBIDDEN', refused);
    const match = deps.admin.match(req.method ?? 'GET', pathname);
    // Admin bodies are optional: `POST /__emulator/reset` needs none.
    const requestBody = match.takesBody && hasBody(req) ? parseJsonBody(await readRawBody(req)) : undefined;
    return match.handler({ params: match.params, query, body: requestBody, headers: req.headers });
  });
  if (answer === undefined) return;
  sendJson(res, answer.status, answer.body, rateLimitHeaders(deps.faults.peekToken(deps.appId)), answer.headers);
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Readonly<Record<string, string>>;
  /** An error answer that is part of a normal run (errors.ts, expectedError). */
  expected?: string;
}

/**
 * Runs a handler and turns whatever it throws into the documented error body
 * (docs/spec/emulator.md#errors). Undefined when there is no one to answer: the client went away,
 * or the handler dropped the connection itself.
 */
async function answerOf(deps: PipelineDeps, pathname: string, handle: () => Promise<{ status: number; body: unknown } | undefined>): Promise<Answer | undefined> {
  try {
    return await handle();
  } catch (err) {
    if (err instanceof ClientGone) return undefined;
    const apiError = toApiError(err, deps.logLine);
    const answer: Answer = { status: apiError.status, body: errorBody(apiError, pathname), headers: apiError.headers };
    if (apiError.expected !== undefined) answer.expected = apiError.expected;
    return answer;
  }
}

/** An error that is not an ApiError is a bug in the emulator: answer 500 and say so on stderr. */
function toApiError(err: unknown, logLine: PipelineDeps['logLine']): ApiError {
  if (err instanceof ApiError) return err;
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  (logLine ?? ((line: string) => process.stderr.write(`${line}\n`)))(`emulator internal error: ${message}`);
  return new ApiError(500, 'ERR_INTERNAL', 'The emulator failed to handle this request.');
}

function truncatedText(raw: Buffer): string {
  return raw.subarray(0, LOGGED_TEXT_LIMIT).toString('utf8');
}
