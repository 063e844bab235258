// `agentsync export [--out FILE] [--force]`: write a manifest from what the server holds.
import type { Command } from 'commander';
import type { ExportOptions } from '../export-run.js';
import { addManifestOptions, addResponseTimeoutOption, nonEmptyPath } from '../options.js';
import type { CliIo } from '../cli-io.js';

export function registerExportCommand(program: Command, io: CliIo): void {
  const cmd = program
    .command('export')
    .description("Write a manifest of the environment's tools and agents as they are on the server (secrets become ${secret:NAME} placeholders).")
    .option('--out <file>', 'write it to this file instead of stdout (- is stdout)', nonEmptyPath('--out'))
    .option('--split <dir>', 'write a folder of files instead: the environments, one file per agent with the tools only it uses, and the other tools')
    .option('--force', 'replace --out when it already exists; with --split, replace the YAML files in the folder');
  addManifestOptions(addResponseTimeoutOption(cmd)).action(async (opts: ExportOptions) => {
    const { runExport } = await import('../export-run.js');
    await runExport(opts, io);
  });
}
