// agentsync validate: parse and validate the manifest, print every diagnostic. Never touches the network.
import type { Command } from 'commander';
import { addManifestOptions, addVarOptions, useColor, type ManifestOptions } from '../options.js';

export function registerValidateCommand(program: Command): void {
  addManifestOptions(addVarOptions(program.command('validate').description('Parse and validate the manifest, and print every problem found.')), { state: false }).action(
    async (options: ManifestOptions) => {
      await runValidate(options);
    },
  );
}

async function runValidate(options: ManifestOptions): Promise<void> {
  const [{ ManifestError, hasErrors }, { parseManifest }, { resolveManifest }, { readManifestFile }, render, { ExitRequest }, { hideInOutput }] = await Promise.all([
    import('../../core/diagnostics.js'),
    import('../../core/parse.js'),
    import('../../core/resolve.js'),
    import('../../io/manifest/manifest-file.js'),
    import('../../render/diagnostics.js'),
    import('../run.js'),
    import('../../io/api/outside-text.js'),
  ]);
  const varOverrides = await (await import('../../io/manifest/var-overrides.js')).readVarOverrides(options);
  const annotations = process.env.GITHUB_ACTIONS === 'true' ? await import('../../render/annotations.js') : undefined;

  let diagnostics;
  let environments: string[] = [];
  let name = options.file;
  try {
    const { file, text } = await readManifestFile(options.file);
    name = file;
    const resolution = resolveManifest(parseManifest(file, text), {
      env: process.env,
      mode: 'validate',
      ...(varOverrides ? { varOverrides } : {}),
      ...(options.env === undefined ? {} : { environment: options.env }),
    });
    hideInOutput(resolution.sensitiveValues);
    diagnostics = resolution.diagnostics;
    environments = resolution.environments;
  } catch (err) {
    if (!(err instanceof ManifestError)) throw err;
    diagnostics = err.diagnostics;
  }

  const valid = !hasErrors(diagnostics);
  if (options.json) {
    process.stdout.write(render.renderDiagnosticsJson(diagnostics));
  } else {
    const color = useColor(options, process.stderr);
    process.stderr.write(render.renderDiagnosticsText(diagnostics, { codeFrame: process.stderr.isTTY === true, color }));
    if (valid) {
      const which = environments.length === 1 ? `environment ${environments[0]}` : `environments ${environments.join(', ')}`;
      process.stdout.write(`${name} is valid (${which}).\n`);
    }
  }
  // On a GitHub runner the same diagnostics become annotations on the PR's lines (stderr when stdout is JSON).
  if (annotations) (options.json ? process.stderr : process.stdout).write(annotations.renderGithubAnnotations(diagnostics, 'validate'));
  if (!valid) throw new ExitRequest(1);
}
