// agentsync lint: the rules beyond validity (docs/spec/commands.md#lint). Never touches the network or the state.
import { Option, type Command } from 'commander';
import { useColor } from '../options.js';
import { manifestSource, type CliIo } from '../cli-io.js';

export interface LintOptions {
  file: string;
  format: 'text' | 'json';
  json?: boolean;
  color?: boolean;
}

export function registerLintCommand(program: Command, io: CliIo): void {
  program
    .command('lint')
    .description('Check the manifest against rules beyond validity (unused tools, literal secrets, http:// URLs, …); exit 1 on any error.')
    .option('-f, --file <path>', 'the manifest', 'agents.yaml')
    .addOption(new Option('--format <format>', 'text or json').choices(['text', 'json']).default('text'))
    .option('--json', 'the same as --format json')
    .option('--no-color', 'no colours')
    .action(async (options: LintOptions) => runLint(options, io));
}

async function runLint(options: LintOptions, io: CliIo): Promise<void> {
  const [{ parseManifest }, { lintManifest, lintHasErrors, LINT_RULE_IDS }, { readManifestFile }, render, annotations, { ExitRequest }] = await Promise.all([
    import('../../core/parse.js'),
    import('../../core/lint/index.js'),
    import('../../io/manifest/manifest-file.js'),
    import('../../render/lint.js'),
    import('../../render/annotations.js'),
    import('../exit-request.js'),
  ]);
  const { file, text } = await readManifestFile(options.file, manifestSource(io));
  const findings = lintManifest(parseManifest(file, text));
  const json = options.json === true || options.format === 'json';
  const output = json
    ? render.renderLintJson(findings)
    : render.renderLintText(findings, file, LINT_RULE_IDS.length, { codeFrame: io.stdout.isTTY === true, color: useColor(options, io.stdout, io.env) });
  io.stdout.write(output);
  // Annotations go beside the report: on stdout for text, on stderr when stdout is JSON (the runner reads both).
  if (annotations.isGithubActions(io.env)) (json ? io.stderr : io.stdout).write(annotations.renderGithubAnnotations(findings, 'lint'));
  if (lintHasErrors(findings)) throw new ExitRequest(1);
}
