// Keeps other web pages away from the emulator, on every route (the dashboard, /__emulator/* and the
// API). A page on any site the developer visits can send requests to 127.0.0.1; these checks stop
// it from driving the emulator:
// - the Host header must name this emulator with the port it listens on: the address it listens on
//   (the --host name, or any IP address when it listens on all of them), localhost, 127.0.0.1 or
//   [::1]. A DNS-rebound name (evil.example → 127.0.0.1) is refused;
// - a request that says it comes from another origin (Origin, Sec-Fetch-Site) is refused; scripts
//   and the CLI send no Origin and are not affected;
// - the dashboard's own endpoints also need a token that only a page served by the emulator can read.
// (The API's apikey header already kept pages out, since a custom header needs a CORS preflight
// the emulator never grants; the same checks on it make that not depend on the key being secret.)
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';

/** The header the dashboard's script sends its token in. */
export const TOKEN_HEADER = 'x-agentsync-token';

export interface Listening {
  /** The --host the emulator was asked to listen on. */
  host: string;
  port: number;
}

/** A fresh token per emulator run: random, so no other page can guess it. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Why a request is refused, or undefined when it may go on. */
export function refusal(headers: IncomingHttpHeaders, listening: Listening): string | undefined {
  const host = headers.host;
  if (host === undefined || ownOrigin(host, listening) === undefined) return `The Host header ${host === undefined ? 'is missing' : `"${host}" does not name this emulator`}.`;
  const origin = headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) return `Requests from ${origin} are refused: only the emulator's own pages may use these endpoints.`;
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return "Cross-site requests are refused: only the emulator's own pages may use these endpoints.";
  return undefined;
}

export function tokenMatches(sent: string | string[] | undefined, token: string): boolean {
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The origin a Host header names, rebuilt from the emulator's own names and port (never the header's
 * text), or undefined when the Host is not one of ours. Pages that must write an absolute URL use it.
 */
export function ownOrigin(header: string, listening: Listening): string | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d+))?$/.exec(header);
  if (!match) return undefined;
  const name = (match[1] ?? '').toLowerCase();
  const port = match[2] === undefined ? 80 : Number(match[2]);
  if (port !== listening.port) return undefined;
  const bare = name.startsWith('[') ? name.slice(1, -1) : name;
  const ours = LOOPBACK_NAMES.has(bare) || bare === listening.host.toLowerCase() || (WILDCARD_HOSTS.has(listening.host) && isIP(bare) !== 0);
  // Listening on every address, any IP literal is one of ours (an IP cannot be DNS-rebound; a name can).
  if (!ours) return undefined;
  // An IP literal or one of the names above: nothing in it can break out of a URL, XML or HTML.
  return `http://${isIP(bare) === 6 ? `[${bare}]` : bare}:${listening.port}`;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);
