// `agentsync fmt [files...]`: rewrite manifests in their canonical form (comments kept);
// `--check` changes nothing and exits 1 when a file would change, for CI.
import type { Command } from 'commander';
import type { FmtOptions } from '../fmt-run.js';
import type { CliIo } from '../cli-io.js';
import { addFileOption } from '../options.js';
import { endsWith } from '../exit-codes.js';

export function registerFmtCommand(program: Command, io: CliIo): void {
  addFileOption(program.command('fmt'))
    .argument('[files...]', 'manifests, or folders of manifest parts, to format (default: the -f manifest)')
    .description('Rewrite the manifest canonically: sorted set-like lists, normalised quoting, comments kept. Each file of a manifest in many files is formatted on its own.')
    .option('--check', 'change nothing; list the files that would change and exit 1 if there are any')
    .action(
      endsWith(async (files: string[], opts: FmtOptions) => {
        const { runFmt } = await import('../fmt-run.js');
        return runFmt(files.length > 0 ? files : typeof opts.file === 'string' ? [opts.file] : opts.file, opts, io);
      }),
    );
}
