// Types for test/support/postgres.mjs.
import type { QueryResult } from 'pg';

export const PG_PASSWORD: string;
export const PG_USER: string;
export const PG_DATABASE: string;

export interface UrlParts {
  user?: string;
  password?: string;
  database?: string;
  port?: number;
}

export interface PostgresServer {
  /** The temp folder: data, log and unix socket. */
  dir: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** postgres://agentsync:<password>@127.0.0.1:<port>/agentsync, with any part replaced. */
  url(parts?: UrlParts): string;
  /** Runs SQL as the superuser over the unix socket. */
  admin(sql: string, database?: string): Promise<QueryResult>;
  createDatabase(name: string): Promise<string>;
  /** pg_terminate_backend for every session with this application_name (default `agentsync`); returns how many. */
  terminate(applicationName?: string): Promise<number>;
  stop(): Promise<void>;
}

export function findPostgresBin(): string;
export function startPostgres(options?: { durable?: boolean }): Promise<PostgresServer>;
