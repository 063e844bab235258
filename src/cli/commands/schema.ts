// agentsync schema: the manifest's JSON Schema, for editors (yaml-language-server) and CI checks.
import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';

export function registerSchemaCommand(program: Command, io: CliIo): void {
  program
    .command('schema')
    .description('Print the JSON Schema of the manifest (generated from the same schema validate uses).')
    .action(async () => {
      const { manifestJsonSchema } = await import('../../core/json-schema.js');
      io.stdout.write(JSON.stringify(manifestJsonSchema(), null, 2) + '\n');
    });
}
