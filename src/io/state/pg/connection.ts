// One PostgreSQL session. Every failure leaves it as a UserError without the password; once the
// connection is lost every later query fails with that same error instead of hanging or crashing.
import pg from 'pg';
import { UserError } from '../../../core/errors.js';
import { connectFailure, isConnectionLost, sessionFailure } from './errors.js';
import type { PgUrl } from './url.js';

const CONNECT_TIMEOUT_MS = 15_000;

export class PgConnection {
  private lost: UserError | null = null;
  private ended = false;

  private constructor(
    private readonly client: pg.Client,
    readonly url: PgUrl,
  ) {
    // Without a listener an 'error' on an idle connection (the server went away) would crash the
    // process with a stack trace; the next query reports it instead.
    client.on('error', (err: Error) => {
      this.lost ??= sessionFailure(err, url);
    });
  }

  static async open(url: PgUrl): Promise<PgConnection> {
    const client = new pg.Client({ connectionString: url.raw, application_name: 'agentsync', connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    client.on('error', () => undefined); // replaced below once connected; a failed connect rejects anyway
    try {
      await client.connect();
    } catch (err) {
      await client.end().catch(() => undefined);
      throw connectFailure(err, url);
    }
    client.removeAllListeners('error');
    return new PgConnection(client, url);
  }

  /** Runs one statement; any failure is a one-line UserError without the password. */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      return await this.queryRaw<R>(text, values);
    } catch (err) {
      throw err instanceof UserError ? err : sessionFailure(err, this.url);
    }
  }

  /** Like query(), but a statement's own error (not a lost connection) is left raw, for callers that handle a SQLSTATE. */
  async queryRaw<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    if (this.lost) throw this.lost;
    try {
      return await this.client.query<R>(text, values);
    } catch (err) {
      if (isConnectionLost(err)) throw (this.lost ??= sessionFailure(err, this.url));
      throw err;
    }
  }

  get failure(): UserError | null {
    return this.lost;
  }

  /** Closes the session; the server then drops its advisory locks. Never throws. */
  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.client.end().catch(() => undefined);
  }
}
