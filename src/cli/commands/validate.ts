// agentsync validate: parse and validate the manifest, print every diagnostic. Never touches the network.
import type { Command } from 'commander';
import { addManifestOptions, addVarOptions, useColor, type ManifestOptions } from '../options.js';
import { manifestSource, type CliIo } from '../cli-io.js';
import { endsWith, type Outcome } from '../exit-codes.js';

export function registerValidateCommand(program: Command, io: CliIo): void {
  addManifestOptions(addVarOptions(program.command('validate').description('Parse and validate the manifest, and print every problem found.')), {
    state: false,
    envHelp: 'check only this environment (default: every environment)',
  }).action(endsWith(async (options: ManifestOptions) => runValidate(options, io)));
}

/** What `validate` loads when it runs (the single-file binary's snapshot runs it once, cli/snapshot.ts). */
function loadValidateModules() {
  return Promise.all([import('../../app/validate.js'), import('../../render/diagnostics.js'), import('../../io/api/outside-text.js'), import('../../io/manifest/var-overrides.js')]);
}

async function runValidate(options: ManifestOptions, io: CliIo): Promise<Outcome> {
  const [{ validateManifest }, render, { hideInOutput }, { readVarOverrides }] = await loadValidateModules();
  const varOverrides = await readVarOverrides(options, io.cwd);
  const annotations = io.env.GITHUB_ACTIONS === 'true' ? await import('../../render/annotations.js') : undefined;
  const { valid, diagnostics, environments, file } = await validateManifest({
    file: options.file,
    source: manifestSource(io),
    env: io.env,
    ...(varOverrides ? { varOverrides } : {}),
    ...(options.env === undefined ? {} : { environment: options.env }),
    onSensitiveValues: hideInOutput,
  });

  if (options.json) {
    io.stdout.write(render.renderDiagnosticsJson(diagnostics));
  } else {
    // Only a run with something to say touches stderr (the bin makes the stream on first use).
    if (diagnostics.length > 0) {
      const color = useColor(options, io.stderr, io.env);
      io.stderr.write(render.renderDiagnosticsText(diagnostics, { codeFrame: io.stderr.isTTY === true, color }));
    }
    if (valid) {
      const which = environments.length === 1 ? `environment ${environments[0]}` : `environments ${environments.join(', ')}`;
      io.stdout.write(`${file} is valid (${which}).\n`);
    }
  }
  // On a GitHub runner the same diagnostics become annotations on the PR's lines (stderr when stdout is JSON).
  if (annotations) (options.json ? io.stderr : io.stdout).write(annotations.renderGithubAnnotations(diagnostics, 'validate'));
  // The diagnostics above say why.
  return valid ? 'done' : 'failed';
}
