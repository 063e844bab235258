// agentsync schema: the manifest's JSON Schema, for editors (yaml-language-server) and CI checks.
import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { renderJsonSchema } from '../../render/command-json.js';

export function registerSchemaCommand(program: Command, io: CliIo): void {
  program
    .command('schema')
    .description('Print the JSON Schema of the manifest (generated from the same schema validate uses).')
    .option('--part', 'the schema of one file of a manifest folder: no top-level key is required')
    .action(async (opts: { part?: boolean }) => {
      const { manifestJsonSchema, manifestPartJsonSchema } = await import('../../core/json-schema.js');
      io.stdout.write(renderJsonSchema(opts.part === true ? manifestPartJsonSchema() : manifestJsonSchema()));
    });
}
