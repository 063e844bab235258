// agentsync init [dir]: a starter agents.yaml, its JSON Schema, and the .gitignore line for locks.
// It never overwrites: an existing file is skipped and reported, and the command still succeeds.
// Beside an agents/ folder (a manifest in many files) it writes nothing: a second manifest there
// would silently take over, and plan the folder's resources away (issue 40).
import type { Command } from 'commander';
import { UserError } from '../../core/errors.js';
import { pathIn, type CliIo } from '../cli-io.js';
import { nonEmptyPath } from '../options.js';
import { renderJsonSchema } from '../../render/command-json.js';

export function registerInitCommand(program: Command, io: CliIo): void {
  program
    .command('init [dir]')
    .description('Write a starter agents.yaml, agentsync.schema.json and the .gitignore line for .agentsync/*.lock (never overwrites).')
    .action(async (dir: string | undefined) => {
      if (dir !== undefined) nonEmptyPath('DIR')(dir);
      const [{ initProject, manifestFolderIn, ymlManifestIn }, starter, { manifestJsonSchema }, { runsAsSingleExecutable }] = await Promise.all([
        import('../../io/files/init-project.js'),
        import('../../core/starter-manifest.js'),
        import('../../core/json-schema.js'),
        import('../../io/runtime/host.js'),
      ]);
      const { isAbsolute, relative, resolve } = await import('node:path');
      // Named as the user would: relative to the run's folder unless the folder was given absolute.
      const shown = (path: string): string => ((dir !== undefined && isAbsolute(dir)) || !isAbsolute(path) ? path : relative(io.cwd, path));
      const folder = await manifestFolderIn(pathIn(io, dir ?? '.'));
      if (folder !== undefined) {
        throw new UserError('file_exists', `${shown(folder)}/ is already a manifest here (read when there is no agents.yaml); init would write a second one beside it, so it wrote nothing`, {
          file: folder,
        });
      }
      const yml = await ymlManifestIn(pathIn(io, dir ?? '.'));
      if (yml !== undefined) {
        throw new UserError(
          'file_exists',
          `${shown(yml)} is here (a manifest read with -f ${shown(yml)}?); init would write agents.yaml beside it, read instead of it whenever -f is left out, so it wrote nothing`,
          {
            file: yml,
          },
        );
      }
      const results = await initProject(pathIn(io, dir ?? '.'), {
        manifest: starter.STARTER_MANIFEST,
        schema: renderJsonSchema(manifestJsonSchema()),
        gitignoreLine: starter.GITIGNORE_LINE,
        schemaFile: starter.SCHEMA_FILE,
      });
      const say: Record<(typeof results)[number]['outcome'], string> = {
        created: 'created',
        skipped: 'skipped (it exists; init never overwrites)',
        appended: `added ${starter.GITIGNORE_LINE} to`,
        present: `already ignores ${starter.GITIGNORE_LINE}:`,
      };
      for (const { path, outcome } of results) io.stdout.write(`${say[outcome]} ${shown(path)}\n`);
      const manifestKept = results.some((r) => r.outcome === 'skipped' && r.path.endsWith('agents.yaml'));
      const command = runsAsSingleExecutable() ? 'agentsync' : 'npx --no-install agentsync';
      io.stdout.write(starter.starterNextSteps(dir !== undefined && resolve(io.cwd, dir) !== resolve(io.cwd) ? dir : undefined, { command, manifestKept }));
    });
}
