// Serves the dashboard: the page at `/`, its script and style, and its JSON endpoints. Every
// request passes the guard first (Host, Origin); the JSON endpoints also need the page's token.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, errorBody } from '../errors.js';
import { ClientGone, hasBody, parseJsonBody, readRawBody } from '../http/read-body.js';
import { sendJson } from '../http/respond.js';
import type { Router } from '../router.js';
import { refusal, tokenMatches, TOKEN_HEADER, type Listening } from './guard.js';
import { FAVICON_PATH, FAVICON_SVG, PAGE_CSS, pageHtml } from './page.js';
import { DASHBOARD_API_PREFIX } from './routes.js';
import { PAGE_SCRIPT } from './script.js';

export interface DashboardServing {
  router: Router;
  token: string;
  appId: string;
  /** Known once the server listens. */
  listening: () => Listening & { apiUrl: string };
}

/** The page may only load its own script and style, talk to its own origin, and never be framed. */
const PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

export function isDashboardPath(pathname: string): boolean {
  return pathname === '/' || pathname === FAVICON_PATH || pathname.startsWith('/__dashboard/');
}

export async function serveDashboard(dashboard: DashboardServing, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const listening = dashboard.listening();
  const refused = refusal(req.headers, listening);
  if (refused !== undefined) return sendJson(res, 403, errorBody(new ApiError(403, 'ERR_FORBIDDEN', refused), pathname), {});
  const method = req.method ?? 'GET';
  if (!pathname.startsWith(`${DASHBOARD_API_PREFIX}/`)) {
    const asset = assetOf(pathname, dashboard, listening.apiUrl);
    if (asset === undefined || (method !== 'GET' && method !== 'HEAD')) return sendJson(res, 404, errorBody(new ApiError(404, 'ERR_NOT_FOUND', `No dashboard page at ${pathname}.`), pathname), {});
    res.writeHead(200, { ...PAGE_HEADERS, 'Content-Type': asset.type, 'Content-Length': String(Buffer.byteLength(asset.body)) });
    res.end(method === 'HEAD' ? undefined : asset.body);
    return;
  }
  try {
    if (!tokenMatches(req.headers[TOKEN_HEADER], dashboard.token))
      throw new ApiError(403, 'ERR_FORBIDDEN', `The dashboard's endpoints need the ${TOKEN_HEADER} header of the page the emulator serves.`);
    const match = dashboard.router.match(method, pathname);
    const body = match.takesBody && hasBody(req) ? parseJsonBody(await readRawBody(req)) : undefined;
    const answer = await match.handler({ params: match.params, query: new URLSearchParams(), body, headers: req.headers });
    sendJson(res, answer.status, answer.body, { 'Cache-Control': 'no-store' });
  } catch (err) {
    if (err instanceof ClientGone) return;
    // Only our own ApiErrors carry a message meant for the page; anything else is a bug in the emulator.
    const apiError = err instanceof ApiError ? err : new ApiError(500, 'ERR_INTERNAL', `The emulator failed to handle this request: ${String(err)}`);
    sendJson(res, apiError.status, errorBody(apiError, pathname), {}, apiError.headers);
  }
}

function assetOf(pathname: string, dashboard: DashboardServing, apiUrl: string): { type: string; body: string } | undefined {
  if (pathname === '/') return { type: 'text/html; charset=utf-8', body: pageHtml(dashboard.appId, apiUrl, dashboard.token) };
  if (pathname === '/__dashboard/app.js') return { type: 'text/javascript; charset=utf-8', body: PAGE_SCRIPT };
  if (pathname === '/__dashboard/app.css') return { type: 'text/css; charset=utf-8', body: PAGE_CSS };
  if (pathname === FAVICON_PATH) return { type: 'image/svg+xml', body: FAVICON_SVG };
  return undefined;
}
