// agentsync lint: the rules beyond validity, and the manifest's validity errors (docs/spec/commands.md#lint). Never touches the network or the state.
import { Option, type Command } from 'commander';
import { addFileOption, useColor } from '../options.js';
import type { ManifestLocation } from '../../io/manifest/manifest-location.js';
import { manifestSource, type CliIo } from '../cli-io.js';
import { endsWith, type Outcome } from '../exit-codes.js';

export interface LintOptions {
  file: ManifestLocation;
  format: 'text' | 'json';
  json?: boolean;
  color?: boolean;
}

export function registerLintCommand(program: Command, io: CliIo): void {
  addFileOption(program.command('lint'))
    .description('Check the manifest against rules beyond validity (unused tools, literal secrets, http:// URLs, …); exit 1 on any error.')
    .addOption(new Option('--format <format>', 'text or json').choices(['text', 'json']).default('text'))
    .option('--json', 'the same as --format json')
    .option('--no-color', 'no colours')
    .action(endsWith(async (options: LintOptions) => runLint(options, io)));
}

async function runLint(options: LintOptions, io: CliIo): Promise<Outcome> {
  const [{ lintManifestFile }, { lintHasErrors, LINT_RULE_IDS }, render, annotations, { hideInOutput }] = await Promise.all([
    import('../../app/lint.js'),
    import('../../core/lint/index.js'),
    import('../../render/lint.js'),
    import('../../render/annotations.js'),
    import('../../io/api/outside-text.js'),
  ]);
  const { findings, file } = await lintManifestFile({ file: options.file, source: manifestSource(io), env: io.env, onSensitiveValues: hideInOutput });
  const json = options.json === true || options.format === 'json';
  const output = json
    ? render.renderLintJson(findings)
    : render.renderLintText(findings, file, LINT_RULE_IDS.length, { codeFrame: io.stdout.isTTY === true, color: useColor(options, io.stdout, io.env) });
  io.stdout.write(output);
  // Annotations go beside the report: on stdout for text, on stderr when stdout is JSON (the runner reads both).
  if (annotations.isGithubActions(io.env)) (json ? io.stderr : io.stdout).write(annotations.renderGithubAnnotations(findings, 'lint'));
  return lintHasErrors(findings) ? 'failed' : 'done';
}
