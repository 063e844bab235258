// `agentsync state list | show <address> | rm <address> | mv <from> <to> | migrate --to <path|url>`:
// inspect the state, forget one entry (the resource stays on the server), rename one, or copy the
// state to another backend. Heavy modules load inside the actions to keep start-up fast.
import type { Command } from 'commander';
import { addLockTimeoutOption, addManifestOptions, lockTimeoutMs, type ManifestOptions } from '../options.js';
import type { State } from '../../core/state.js';
import type { StateBackend, StateTarget, StateWarning } from '../../io/state/index.js';
import { countOf } from '../../core/plural.js';
// Addresses and ids typed by a user or read from a server may hold escape sequences: shown, not obeyed.
import { escapeControl as safe } from '../../core/terminal-safe.js';

interface LockingOptions extends ManifestOptions {
  lockTimeout?: string;
}

interface MigrateOptions extends LockingOptions {
  to: string;
  force?: boolean;
}

/** State commands print no colour, so they do not offer --no-color. */
const withOptions = (cmd: Command): Command => addManifestOptions(cmd, { color: false });

export function registerStateCommand(program: Command): void {
  const state = program.command('state').description('Inspect the state, forget or rename one entry, or copy it to another backend.');
  withOptions(state.command('list').description('List the resources in the state: address, type and remote id.')).action(
    async (opts: ManifestOptions, cmd: Command) => runList(await openStore(opts, cmd), opts),
  );
  withOptions(state.command('show').argument('<address>', 'tool.<name>, agent.<key> or website.<key>'))
    .description('Show what the state holds for one address.')
    .action(async (address: string, opts: ManifestOptions, cmd: Command) => runShow(await openStore(opts, cmd), address, opts));
  withOptions(addLockTimeoutOption(state.command('rm').argument('<address>', 'tool.<name>, agent.<key> or website.<key>')))
    .description('Forget one address: it stays on the server, but agentsync no longer manages it.')
    .action(async (address: string, opts: LockingOptions, cmd: Command) => runRm(await openStore(opts, cmd), address, opts));
  withOptions(addLockTimeoutOption(state.command('mv').argument('<from>', 'the address in the state').argument('<to>', 'its new address (the renamed manifest key)')))
    .description('Rename an address in the state, so that renaming a manifest key is not a delete plus a create. No call is made.')
    .action(async (from: string, to: string, opts: LockingOptions, cmd: Command) => runMv(await openStore(opts, cmd), from, to, opts));
  withOptions(
    addLockTimeoutOption(
      state
        .command('migrate')
        .requiredOption('--to <path|url>', 'where to copy the state: a file path or a postgres:// URL')
        .option('--force', 'replace a destination that already holds resources'),
    ),
  )
    .description('Copy the state to another file or database, keeping its lineage and serial.')
    .action(async (opts: MigrateOptions, cmd: Command) => runMigrate(await openStore(opts, cmd), opts));
}

interface Located {
  store: StateBackend;
  key: string;
  target: Partial<StateTarget>;
}

const onWarning = (w: StateWarning) => process.stderr.write(`Warning: ${w.message}\n`);

async function openStore(opts: ManifestOptions, cmd: Command): Promise<Located> {
  const [{ locateState }, { createStateStore }] = await Promise.all([import('../../io/state/locate.js'), import('../../io/state/index.js')]);
  const fileGiven = cmd.getOptionValueSource('file') === 'cli';
  const { location, key, source, target } = await locateState({ file: opts.file, fileGiven, env: opts.env, state: opts.state });
  return { store: createStateStore(location, { key, source, onWarning }), key, target };
}

async function runList({ store, target }: Located, opts: ManifestOptions): Promise<void> {
  const state = await store.read(target);
  const resources = state ? sortedEntries(state.resources).map(([address, r]) => ({ address, type: r.type, remoteId: r.remoteId, appliedAt: r.appliedAt })) : [];
  const pending = state ? sortedEntries(state.pending).map(([address, p]) => ({ address, type: p.type, since: p.since, action: p.action ?? 'create' })) : [];
  if (opts.json) {
    const header = state
      ? { exists: true, environment: state.environment, appId: state.appId, region: state.region, lineage: state.lineage, serial: state.serial }
      : { exists: false };
    process.stdout.write(JSON.stringify({ formatVersion: 1, state: store.location, ...header, resources, pending }, null, 2) + '\n');
    return;
  }
  if (resources.length === 0 && pending.length === 0) {
    process.stderr.write(state ? `No resources in ${store.location}.\n` : `No state at ${store.location}: nothing has been applied yet.\n`);
    return;
  }
  const rows = [
    ...resources.map((r) => [safe(r.address), r.type, safe(r.remoteId)]),
    ...pending.map((p) => [safe(p.address), p.type, p.action === 'delete' ? `(pending delete since ${p.since}; it may be gone from the server)` : `(pending create since ${p.since}; it may exist on the server)`]),
  ];
  process.stdout.write(formatColumns(rows));
}

async function runShow({ store, target }: Located, address: string, opts: ManifestOptions): Promise<void> {
  const state = await requireState(store, target, address);
  const resource = state.resources[address];
  const pending = state.pending[address];
  if (opts.json) {
    process.stdout.write(JSON.stringify({ address, ...(resource ?? {}), ...(pending ? { pending } : {}) }, null, 2) + '\n');
    return;
  }
  const lines = [`# ${safe(address)}${resource ? '' : ' (pending create)'}`];
  if (resource) {
    lines.push(`type      = ${resource.type}`, `remoteId  = ${safe(resource.remoteId)}`, `appliedAt = ${resource.appliedAt}`);
    lines.push(`spec      = ${JSON.stringify(resource.spec, null, 2)}`);
  }
  if (pending) {
    const what = pending.action === 'delete' ? `a delete sent at ${pending.since} was never confirmed; the ${pending.type} may be gone from the server` : `a create sent at ${pending.since} was never confirmed; the ${pending.type} may exist on the server`;
    lines.push(`pending   = ${what}`);
  }
  process.stdout.write(lines.join('\n') + '\n');
}

async function runRm({ store, target }: Located, address: string, opts: LockingOptions): Promise<void> {
  const lockWaitMs = lockTimeoutMs(opts.lockTimeout);
  const before = await requireState(store, target, address);
  const session = await store.open({ environment: before.environment, appId: before.appId, region: before.region }, { lockTimeoutMs: lockWaitMs });
  let removed: { address: string; type: string; remoteId: string | null };
  try {
    const resource = session.state.resources[address];
    const pending = session.state.pending[address];
    if (!resource && !pending) throw await unknownAddress(store, address); // removed by another run meanwhile
    removed = { address, type: (resource ?? pending)!.type, remoteId: resource?.remoteId ?? null };
    await session.record({ op: 'forgotten', address });
  } finally {
    await session.close();
  }
  if (opts.json) {
    process.stdout.write(JSON.stringify({ removed }, null, 2) + '\n');
    return;
  }
  const id = removed.remoteId === null ? 'a pending create' : `remote id ${safe(removed.remoteId)}`;
  process.stdout.write(`Removed ${safe(address)} (${id}) from ${store.location}. It still exists on the server; agentsync no longer manages it.\n`);
}

async function runMv({ store, target }: Located, from: string, to: string, opts: LockingOptions): Promise<void> {
  const { UserError } = await import('../../core/errors.js');
  const { addressProblem, parseAddress } = await import('../../core/kinds/index.js');
  const before = await requireState(store, target, from);
  const fromType = parseAddress(from)?.type;
  const toType = (await checkAddress(to)).type;
  if (fromType !== toType) throw new UserError('usage', `${safe(from)} is a ${fromType}, so it cannot become ${safe(to)}; an address keeps its type`, { from, to });
  // A target no manifest key can match would leave the entry unreachable (and unprintable).
  const problem = addressProblem(to);
  if (problem !== undefined) throw new UserError('usage', `"${safe(to)}" is not an address a manifest can have: ${problem}`, { address: to });
  const session = await store.open({ environment: before.environment, appId: before.appId, region: before.region }, { lockTimeoutMs: lockTimeoutMs(opts.lockTimeout) });
  let remoteId: string | null;
  try {
    const { resources, pending } = session.state;
    if (!resources[from] && !pending[from]) throw await unknownAddress(store, from); // moved by another run meanwhile
    if (resources[to] || pending[to]) throw new UserError('usage', `${safe(to)} is already in ${store.location}; \`agentsync state rm ${safe(to)}\` first if it is stale`, { address: to });
    remoteId = resources[from]?.remoteId ?? null;
    if (from !== to) await session.record({ op: 'moved', from, to });
  } finally {
    await session.close();
  }
  if (opts.json) {
    process.stdout.write(JSON.stringify({ moved: { from, to, remoteId } }, null, 2) + '\n');
    return;
  }
  process.stdout.write(`Moved ${safe(from)} to ${safe(to)}${remoteId ? ` (remote id ${safe(remoteId)})` : ''} in ${store.location}. Nothing on the server changed.\n`);
}

async function checkAddress(address: string): Promise<{ type: string; key: string }> {
  const { UserError } = await import('../../core/errors.js');
  const { parseAddress } = await import('../../core/kinds/index.js');
  const parsed = parseAddress(address);
  if (!parsed) throw new UserError('usage', `"${safe(address)}" is not an address; addresses look like tool.<name>, agent.<key> or website.<key>`);
  return parsed;
}

async function runMigrate({ store, key, target }: Located, opts: MigrateOptions): Promise<void> {
  const [{ createStateStore }, { migrateState }] = await Promise.all([import('../../io/state/index.js'), import('../../io/state/migrate.js')]);
  const lockWaitMs = lockTimeoutMs(opts.lockTimeout);
  const destination = createStateStore(opts.to, { key, source: '--to', onWarning });
  const result = await migrateState(store, destination, target, { force: opts.force === true, lockTimeoutMs: lockWaitMs });
  if (opts.json) {
    process.stdout.write(JSON.stringify({ formatVersion: 1, migrated: result }, null, 2) + '\n');
    return;
  }
  const pending = result.pending > 0 ? ` and ${countOf(result.pending, 'pending create')}` : '';
  process.stdout.write(
    `Copied the state of environment "${result.environment}" (lineage ${result.lineage}, serial ${result.serial}, ${countOf(result.resources, 'resource')}${pending}) ` +
      `from ${result.from} to ${result.to}.\nThe source is unchanged. Point --state, AGENTSYNC_STATE_URL or state.url at the new location to use it.\n`,
  );
}

/** The state, which must exist and hold `address` (as a resource or a pending create). */
async function requireState(store: StateBackend, target: Partial<StateTarget>, address: string): Promise<State> {
  const { UserError } = await import('../../core/errors.js');
  await checkAddress(address);
  const state = await store.read(target);
  if (state === null) throw new UserError('usage', `no state at ${store.location}: nothing has been applied yet`, { state: store.location });
  if (!state.resources[address] && !state.pending[address]) throw await unknownAddress(store, address);
  return state;
}

async function unknownAddress(store: StateBackend, address: string): Promise<Error> {
  const { UserError } = await import('../../core/errors.js');
  return new UserError('usage', `${safe(address)} is not in ${store.location}; \`agentsync state list\` shows the addresses it holds`, { address });
}

function sortedEntries<T>(record: Record<string, T>): [string, T][] {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Left-aligned columns separated by two spaces; the last column is not padded. */
function formatColumns(rows: string[][]): string {
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col] ?? 0))).join('  ')).join('\n') + '\n';
}
