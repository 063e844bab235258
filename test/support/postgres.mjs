// A throwaway PostgreSQL server for tests and the benchmark: initdb and pg_ctl in a temp folder, a
// free port on 127.0.0.1, the unix socket in that folder, and everything deleted on stop(). Debian's
// `postgresql` package puts the binaries in /usr/lib/postgresql/<major>/bin (not on PATH). initdb
// refuses to run as root, so as root the server runs as the `postgres` OS user.
// Plain .mjs (with postgres.d.mts) so bench/ can use it without a TypeScript loader.
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const SUPERUSER_PASSWORD = 'super-secret-7d1e';
export const PG_PASSWORD = 'pg-pass-5b9f2c41';
export const PG_USER = 'agentsync';
export const PG_DATABASE = 'agentsync';

/** The folder holding initdb and pg_ctl: $AGENTSYNC_PG_BIN, else the newest Debian install, else PATH. */
export function findPostgresBin() {
  const candidates = [];
  if (process.env.AGENTSYNC_PG_BIN) candidates.push(process.env.AGENTSYNC_PG_BIN);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const majors = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...majors.map((v) => join(debian, v, 'bin')));
  }
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir) candidates.push(dir);
  const found = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (!found) {
    throw new Error('PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH): apt-get install -y postgresql (.ci/run does this)');
  }
  return found;
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL binary as the user that may own the data folder. */
function pgCommand(bin, args, cwd) {
  return asRoot ? run('runuser', ['-u', 'postgres', '--', bin, ...args], { cwd }) : run(bin, args, { cwd });
}

function postgresIds() {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root, but there is no `postgres` OS user to run the server as (apt-get install -y postgresql creates it)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Starts a server. `durable: false` (the default for tests) turns fsync off: a client killed with
 * SIGKILL loses nothing either way, since only the server's own crash needs fsync.
 */
export async function startPostgres(options = {}) {
  const bin = findPostgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'agentsync-pg-'));
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${SUPERUSER_PASSWORD}\n`, { mode: 0o600 });
  if (asRoot) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    await pgCommand(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--no-locale', '--no-sync'], dir);
  } catch (err) {
    cleanup();
    throw new Error(`initdb failed: ${err.stderr || err.message}`, { cause: err });
  }
  const settings = ['-c listen_addresses=127.0.0.1', `-k ${dir}`, '-c max_connections=100', '-c shared_buffers=32MB'];
  if (!options.durable) settings.push('-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off');
  let port;
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      await pgCommand(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', `-p ${port} ${settings.join(' ')}`, 'start'], dir);
      break;
    } catch (err) {
      // Another process may have taken the port between freePort() and the start; try another.
      if (attempt >= 3) {
        const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : '';
        cleanup();
        throw new Error(`pg_ctl start failed: ${err.stderr || err.message}\n${log}`, { cause: err });
      }
    }
  }

  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    try {
      const args = ['-D', data, '-m', 'immediate', '-w', 'stop'];
      if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...args], { stdio: 'ignore', cwd: dir });
      else execFileSync(join(bin, 'pg_ctl'), args, { stdio: 'ignore', cwd: dir });
    } catch {
      // already gone
    }
    cleanup();
  };
  // A test run that dies without afterAll still takes its server down with it.
  process.once('exit', stopSync);

  const admin = async (sql, database = 'postgres') => {
    const client = new pg.Client({ host: dir, port, user: 'postgres', database });
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE ROLE ${PG_USER} LOGIN PASSWORD '${PG_PASSWORD}'`);
  await admin(`CREATE DATABASE ${PG_DATABASE} OWNER ${PG_USER}`);

  const url = (parts = {}) => {
    const user = parts.user ?? PG_USER;
    const password = parts.password ?? PG_PASSWORD;
    const database = parts.database ?? PG_DATABASE;
    return `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${parts.port ?? port}/${encodeURIComponent(database)}`;
  };

  return {
    dir,
    port,
    user: PG_USER,
    password: PG_PASSWORD,
    database: PG_DATABASE,
    url,
    admin,
    /** A fresh empty database owned by the test user, for a test that needs its own tables. */
    async createDatabase(name) {
      await admin(`CREATE DATABASE "${name}" OWNER ${PG_USER}`);
      return url({ database: name });
    },
    /** Ends every server session whose application_name matches (as an admin or a failover would). */
    async terminate(applicationName = 'agentsync') {
      const result = await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '${applicationName}' AND pid <> pg_backend_pid()`);
      return result.rowCount ?? 0;
    },
    async stop() {
      process.removeListener('exit', stopSync);
      stopSync();
    },
  };
}
