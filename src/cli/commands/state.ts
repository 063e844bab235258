// `agentsync state list | show <address> | rm <address> | mv <from> <to> | migrate --to <path|url>`:
// inspect the state, forget one entry (the resource stays on the server), rename one, or copy the
// state to another backend. Heavy modules load inside the actions to keep start-up fast.
import type { Command } from 'commander';
import { ADDRESS_FORMS } from '../../core/kinds/index.js';
import { addLockTimeoutOption, addManifestOptions, lockTimeoutMs, nonEmptyPath, type ManifestOptions } from '../options.js';
import type { StateBackend, StateTarget, StateWarning } from '../../io/state/index.js';
import type { CliIo } from '../cli-io.js';
import type { StateView } from '../../render/state-view.js';
import { viewKindOf } from '../../render/views.js';

interface LockingOptions extends ManifestOptions {
  lockTimeout?: string;
}

interface MigrateOptions extends LockingOptions {
  to: string;
  force?: boolean;
}

/** State commands print no colour, so they do not offer --no-color. */
const withOptions = (cmd: Command): Command => addManifestOptions(cmd, { color: false });

export function registerStateCommand(program: Command, io: CliIo): void {
  const state = program.command('state').description('Inspect the state, forget or rename one entry, or copy it to another backend.');
  withOptions(state.command('list').description('List the resources in the state: address, type and remote id.')).action(async (opts: ManifestOptions, cmd: Command) =>
    runList(await openStore(opts, cmd, io), io),
  );
  withOptions(state.command('show').argument('<address>', ADDRESS_FORMS))
    .description('Show what the state holds for one address.')
    .action(async (address: string, opts: ManifestOptions, cmd: Command) => runShow(await openStore(opts, cmd, io), address, io));
  withOptions(addLockTimeoutOption(state.command('rm').argument('<address>', ADDRESS_FORMS)))
    .description('Forget one address: it stays on the server, but agentsync no longer manages it.')
    .action(async (address: string, opts: LockingOptions, cmd: Command) => runRm(await openStore(opts, cmd, io), address, opts, io));
  withOptions(addLockTimeoutOption(state.command('mv').argument('<from>', 'the address in the state').argument('<to>', 'its new address (the renamed manifest key)')))
    .description('Rename an address in the state, so that renaming a manifest key is not a delete plus a create. No call is made.')
    .action(async (from: string, to: string, opts: LockingOptions, cmd: Command) => runMv(await openStore(opts, cmd, io), from, to, opts, io));
  withOptions(
    addLockTimeoutOption(
      state
        .command('migrate')
        .requiredOption('--to <path|url>', 'where to copy the state: a file path or a postgres:// URL', nonEmptyPath('--to'))
        .option('--force', 'replace a destination that already holds resources'),
    ),
  )
    .description('Copy the state to another file or database, keeping its lineage and serial.')
    .action(async (opts: MigrateOptions, cmd: Command) => runMigrate(await openStore(opts, cmd, io), opts, io));
}

interface Located {
  store: StateBackend;
  key: string;
  target: Partial<StateTarget>;
  /** The view chosen once, from --json, for everything the command prints. */
  view: StateView;
}

/** Stale-lock takeovers and journal recoveries: worth a line on stderr, never an error. */
const warnOn = (io: CliIo) => (w: StateWarning) => io.stderr.write(`Warning: ${w.message}\n`);

async function openStore(opts: ManifestOptions, cmd: Command, io: CliIo): Promise<Located> {
  const [{ locateState }, { createStateStore }, { STATE_VIEWS }] = await Promise.all([import('../../io/state/locate.js'), import('../../io/state/index.js'), import('../../render/state-view.js')]);
  const fileGiven = cmd.getOptionValueSource('file') !== 'default';
  const { location, key, source, target } = await locateState({ file: opts.file, fileGiven, env: opts.env, state: opts.state, processEnv: io.env, cwd: io.cwd });
  return { store: createStateStore(location, { key, source, cwd: io.cwd, onWarning: warnOn(io) }), key, target, view: STATE_VIEWS[viewKindOf(opts)] };
}

async function runList({ store, target, view }: Located, io: CliIo): Promise<void> {
  const { listState } = await import('../../app/state.js');
  const printed = view.list(await listState(store, target), store.location);
  io.stdout.write(printed.stdout);
  // Only a run with something to say touches stderr (the bin makes the stream on first use).
  if (printed.stderr !== '') io.stderr.write(printed.stderr);
}

async function runShow({ store, target, view }: Located, address: string, io: CliIo): Promise<void> {
  const { showStateEntry } = await import('../../app/state.js');
  io.stdout.write(view.entry(await showStateEntry(store, target, address), address));
}

async function runRm({ store, target, view }: Located, address: string, opts: LockingOptions, io: CliIo): Promise<void> {
  const { forgetEntry } = await import('../../app/state.js');
  io.stdout.write(view.forgotten(await forgetEntry(store, target, address, lockTimeoutMs(opts.lockTimeout)), store.location));
}

async function runMv({ store, target, view }: Located, from: string, to: string, opts: LockingOptions, io: CliIo): Promise<void> {
  const { moveEntry } = await import('../../app/state.js');
  io.stdout.write(view.moved(await moveEntry(store, target, from, to, lockTimeoutMs(opts.lockTimeout)), store.location));
}

async function runMigrate({ store, key, target, view }: Located, opts: MigrateOptions, io: CliIo): Promise<void> {
  const [{ createStateStore }, { copyState }] = await Promise.all([import('../../io/state/index.js'), import('../../app/state.js')]);
  const destination = createStateStore(opts.to, { key, source: '--to', cwd: io.cwd, onWarning: warnOn(io) });
  io.stdout.write(view.migrated(await copyState(store, destination, target, { force: opts.force === true, lockTimeoutMs: lockTimeoutMs(opts.lockTimeout) })));
}
