// agentsync graph: the manifest's agents, the tools and actions they name, and websites, as
// Mermaid (default) or DOT. Reads only the manifest; a secret that is not set is not needed.
import { Option, type Command } from 'commander';
import { manifestSource, type CliIo } from '../cli-io.js';
import { addFileOption } from '../options.js';
import type { ManifestLocation } from '../../io/manifest/manifest-location.js';

export interface GraphOptions {
  file: ManifestLocation;
  env?: string;
  format: 'mermaid' | 'dot';
}

export function registerGraphCommand(program: Command, io: CliIo): void {
  addFileOption(program.command('graph'))
    .description('Print the agents and the tools, actions and websites they use, as Mermaid or DOT.')
    .option('-e, --env <name>', 'the environment (default: the only one)')
    .addOption(new Option('--format <format>', 'mermaid or dot').choices(['mermaid', 'dot']).default('mermaid'))
    .action(async (options: GraphOptions) => runGraph(options, io));
}

async function runGraph(options: GraphOptions, io: CliIo): Promise<void> {
  const [{ ManifestError, hasErrors }, { UserError }, { resolveManifest }, { parseManifestRead, readManifest }, { manifestGraph }, render, { hideInOutput }, { attachLocalFiles }] = await Promise.all([
    import('../../core/diagnostics.js'),
    import('../../core/errors.js'),
    import('../../core/resolve.js'),
    import('../../io/manifest/manifest-parts.js'),
    import('../../core/graph.js'),
    import('../../render/graph.js'),
    import('../../io/api/outside-text.js'),
    import('../../io/manifest/local-files.js'),
  ]);
  const read = await readManifest(options.file, manifestSource(io));
  const file = read.name;
  // Validate mode: an unset ${secret:…} is a warning there, and the graph never shows values.
  const parsed = parseManifestRead(read);
  await attachLocalFiles(parsed, manifestSource(io).cwd);
  const resolution = resolveManifest(parsed, { env: io.env, mode: 'validate', ...(options.env === undefined ? {} : { environment: options.env }) });
  hideInOutput(resolution.sensitiveValues);
  if (hasErrors(resolution.diagnostics)) throw new ManifestError(resolution.diagnostics);
  if (resolution.desired === undefined) {
    throw new UserError('environment_invalid', `${file} defines several environments; choose one with -e: ${resolution.environments.join(', ')}`);
  }
  const graph = manifestGraph(resolution.desired);
  io.stdout.write(options.format === 'dot' ? render.renderGraphDot(graph) : render.renderGraphMermaid(graph));
}
