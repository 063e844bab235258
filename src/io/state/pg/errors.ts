// What a failure talking to PostgreSQL means for the user, as one line that never holds the
// password. Connecting and losing the connection mid-run are the cases people meet.
import { UserError } from '../../../core/errors.js';
import { scrub, type PgUrl } from './url.js';

interface DriverError {
  code?: unknown;
  message?: unknown;
  errors?: unknown;
}

/** SQLSTATE classes and socket codes that mean the session is gone. */
const CONNECTION_LOST_STATES = new Set(['57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);
const SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

export function sqlState(err: unknown): string | undefined {
  const code = (err as DriverError | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Node reports a refused dual-stack connect as an AggregateError; its code is on the parts. */
function socketCode(err: unknown): string | undefined {
  const code = sqlState(err);
  if (code !== undefined && SOCKET_CODES.has(code)) return code;
  const parts = (err as DriverError | null)?.errors;
  if (Array.isArray(parts)) return parts.map(socketCode).find((c) => c !== undefined);
  return undefined;
}

function messageOf(err: unknown, url: PgUrl): string {
  const raw = (err as DriverError | null)?.message;
  return scrub(typeof raw === 'string' && raw !== '' ? raw : String(err), url);
}

/** A failure to connect (or to set up the tables), before anything was done. */
export function connectFailure(err: unknown, url: PgUrl): UserError {
  if (err instanceof UserError) return err;
  const where = `PostgreSQL state at ${url.masked}`;
  const socket = socketCode(err);
  const state = sqlState(err);
  const detail = (message: string) => new UserError('state_unavailable', message, { state: url.masked, ...(state ? { sqlState: state } : {}) });
  switch (socket) {
    case 'ECONNREFUSED':
      return detail(`cannot connect to the ${where}: connection refused (is the server running and listening there?)`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return detail(`cannot connect to the ${where}: the host name does not resolve`);
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return detail(`cannot connect to the ${where}: the host cannot be reached (${socket})`);
  }
  switch (state) {
    case '28P01':
    case '28000':
      return detail(`the ${where} refused the login: ${messageOf(err, url)}`);
    case '3D000':
      return detail(`cannot use the ${where}: ${messageOf(err, url)}; create it first, or fix the database name in the URL`);
    case '42501':
      return detail(`cannot use the ${where}: ${messageOf(err, url)}; the user needs to be allowed to create tables in its schema (first use only)`);
  }
  if (/timeout/i.test(messageOf(err, url))) return detail(`cannot connect to the ${where}: the connection timed out`);
  return detail(`cannot use the ${where}: ${messageOf(err, url)}${state ? ` (SQLSTATE ${state})` : ''}`);
}

export function isConnectionLost(err: unknown): boolean {
  const state = sqlState(err);
  if (state !== undefined && CONNECTION_LOST_STATES.has(state)) return true;
  if (socketCode(err) !== undefined) return true;
  const message = (err as DriverError | null)?.message;
  return typeof message === 'string' && /connection terminated|not queryable|connection ended|Client has encountered a connection error/i.test(message);
}

/** A failure once the session is open: the connection was lost, or a statement failed. */
export function sessionFailure(err: unknown, url: PgUrl): UserError {
  if (err instanceof UserError) return err;
  const where = `PostgreSQL state at ${url.masked}`;
  const state = sqlState(err);
  if (isConnectionLost(err)) {
    return new UserError(
      'state_unavailable',
      `lost the connection to the ${where} (${messageOf(err, url)}); every result recorded before this point is kept, and the next apply carries on from there`,
      { state: url.masked, ...(state ? { sqlState: state } : {}) },
    );
  }
  return new UserError('state_unavailable', `the ${where} failed: ${messageOf(err, url)}${state ? ` (SQLSTATE ${state})` : ''}`, {
    state: url.masked,
    ...(state ? { sqlState: state } : {}),
  });
}
