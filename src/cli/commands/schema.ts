// agentsync schema: the manifest's JSON Schema, for editors (yaml-language-server) and CI checks.
import type { Command } from 'commander';

export function registerSchemaCommand(program: Command): void {
  program
    .command('schema')
    .description('Print the JSON Schema of the manifest (generated from the same schema validate uses).')
    .action(async () => {
      const { manifestJsonSchema } = await import('../../core/json-schema.js');
      process.stdout.write(JSON.stringify(manifestJsonSchema(), null, 2) + '\n');
    });
}
