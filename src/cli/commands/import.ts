// `agentsync import [ADDRESS [REMOTE_ID]]`: adopt what already exists on the server into the state.
import type { Command } from 'commander';
import { UserError } from '../../core/errors.js';
import { addManifestOptions, addResponseTimeoutOption, type ManifestOptions } from '../options.js';
import type { CliIo } from '../cli-io.js';

export function registerImportCommand(program: Command, io: CliIo): void {
  const cmd = program
    .command('import')
    .argument('[address]', 'one manifest address to adopt (default: every manifest resource not in the state)')
    .argument('[remoteId]', 'the server record to adopt for ADDRESS, when several share its name')
    .description('Adopt resources that already exist on the server into the state, without changing the server.');
  addManifestOptions(addResponseTimeoutOption(cmd)).action(async (address: string | undefined, remoteId: string | undefined, opts: ManifestOptions) => {
    // An empty id is nearly always an unset shell variable; "no record with id \"\"" would hide that.
    if (remoteId === '') throw new UserError('usage', 'REMOTE_ID is empty; give the id of the server record (is the variable it came from set?)');
    const { runImport } = await import('../import-run.js');
    await runImport({ ...(address !== undefined ? { address } : {}), ...(remoteId !== undefined ? { remoteId } : {}) }, opts, io);
  });
}
