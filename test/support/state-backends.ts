// The state backends as the store tests see them: each gives a fresh, empty place for a state and
// a raw view of what is stored there, read around the store (the file, or the rows), so a test can
// check what really reached the disk or the database. `describe.each(BACKENDS)` runs a suite once
// per backend; the PostgreSQL one starts a throwaway server on first use and shares it per file.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { State } from '../../src/core/state.js';
import { checkStateText, createStateStore, stateFiles, type StateBackend, type StateStoreOptions } from '../../src/io/state/index.js';
import { startPostgres, type PostgresServer } from './postgres.mjs';

export interface RawView {
  /** The committed state, as stored, without the journal; null when there is none. */
  committed(): Promise<State | null>;
  /** Entries recorded and not yet folded into the committed state. */
  journalLength(): Promise<number>;
}

export interface StatePlace {
  /** What createStateStore was given: a file path or a postgres:// URL. */
  location: string;
  key: string;
  store: StateBackend;
  raw: RawView;
  /** Another store on the same place (a second process would build its own). */
  reopen(options?: StateStoreOptions): StateBackend;
}

export interface Backend {
  name: 'file' | 'postgres';
  fresh(options?: StateStoreOptions): Promise<StatePlace>;
  /** Removes everything this backend created; call in afterAll. */
  stop(): Promise<void>;
}

function fileBackend(): Backend {
  const dirs: string[] = [];
  return {
    name: 'file',
    async fresh(options = {}) {
      const dir = await mkdtemp(path.join(tmpdir(), 'agentsync-state-'));
      dirs.push(dir);
      const location = path.join(dir, '.agentsync', 'local.state.json');
      const files = stateFiles(location);
      const reopen = (opts: StateStoreOptions = {}) => createStateStore(location, { key: 'local', ...opts });
      return {
        location,
        key: 'local',
        store: reopen(options),
        reopen,
        raw: {
          async committed() {
            const text = await readFile(files.state, 'utf8').catch(() => null);
            if (text === null) return null;
            const checked = checkStateText(text);
            if ('problem' in checked) throw new Error(`${files.state}: ${checked.problem}`);
            return checked.state;
          },
          async journalLength() {
            const text = await readFile(files.journal, 'utf8').catch(() => '');
            return text.split('\n').filter((l) => l !== '').length;
          },
        },
      };
    },
    async stop() {
      await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}

let keys = 0;

export interface PostgresBackend extends Backend {
  name: 'postgres';
  server(): Promise<PostgresServer>;
  /** Runs SQL as the state's owner in the test database. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<R[]>;
}

export function postgresBackend(): PostgresBackend {
  let server: Promise<PostgresServer> | null = null;
  const started = () => (server ??= startPostgres());
  const query = async <R extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<R[]> => {
    const client = new pg.Client({ connectionString: (await started()).url() });
    await client.connect();
    try {
      return (await client.query<R>(sql, values)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    name: 'postgres',
    server: started,
    query,
    async fresh(options = {}) {
      const location = (await started()).url();
      const key = `test-${process.pid}-${++keys}`;
      const reopen = (opts: StateStoreOptions = {}) => createStateStore(location, { key, ...opts });
      return {
        location,
        key,
        store: reopen(options),
        reopen,
        raw: {
          async committed() {
            const rows = await query<{ body: string }>('SELECT body FROM agentsync_states WHERE key = $1', [key]).catch(noTables<{ body: string }>);
            if (rows[0] === undefined) return null;
            const checked = checkStateText(rows[0].body);
            if ('problem' in checked) throw new Error(`row ${key}: ${checked.problem}`);
            return checked.state;
          },
          async journalLength() {
            const rows = await query<{ n: string }>('SELECT count(*) AS n FROM agentsync_journal WHERE key = $1', [key]).catch(noTables<{ n: string }>);
            return Number(rows[0]?.n ?? 0);
          },
        },
      };
    },
    async stop() {
      if (server) await (await server).stop();
      server = null;
    },
  };
}

/** Before the first open there are no tables: that reads as "nothing stored". */
function noTables<R>(err: unknown): R[] {
  if ((err as { code?: string }).code === '42P01') return [];
  throw err;
}

/** One instance of each backend, for `describe.each(backends())`; stop them in afterAll. */
export function backends(): Backend[] {
  return [fileBackend(), postgresBackend()];
}
