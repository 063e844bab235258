// P3's stack floor: the least a `validate` built on agentsync's libraries can do, and nothing of
// agentsync. commander parses `validate -f FILE`, yaml's parseDocument reads the file with a
// LineCounter (as src/core/parse.ts does, for line:col), a zod/mini schema of the example's shape
// checks it, and one line is printed. bench/lib/stack-floor.mjs bundles it as agentsync's bundle
// is built, runs it through the same bin (the same code cache) and through Node's own compile cache,
// and builds it into a single-file binary with a startup snapshot, as scripts/sea.mjs does. What it
// costs over `node -e 0` is what commander, yaml and zod cost to load and run, which no work on
// agentsync's own code can remove (BENCHMARKS.md, P3).
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { startupSnapshot } from 'node:v8';
import { Command } from 'commander';
import { LineCounter, parseDocument } from 'yaml';
import * as z from 'zod/mini';

const text = z.string();
const tool = z.object({ displayName: text, executionText: z.optional(text), description: z.optional(text), parameters: z.optional(z.record(text, z.unknown())) });
const agent = z.object({ name: text, integrationType: z.optional(text), integrateWith: z.optional(text), instruction: z.optional(text), actions: z.optional(z.array(text)) });
const environment = z.object({ appId: text, region: z.optional(z.enum(['us', 'eu', 'in'])) });
const manifest = z.object({ version: z.literal(1), environments: z.record(text, environment), tools: z.optional(z.record(text, tool)), agents: z.optional(z.record(text, agent)) });

function check(source) {
  const doc = parseDocument(source, { lineCounter: new LineCounter() });
  if (doc.errors.length > 0) return doc.errors[0].message;
  const result = manifest.safeParse(doc.toJS());
  return result.success ? 'valid' : result.error.issues[0].message;
}

function program(print) {
  const command = new Command('agentsync');
  command
    .command('validate')
    .option('-f, --file <path>')
    .action(({ file }) => print(`${file} is ${check(readFileSync(file, 'utf8'))}.\n`));
  return command;
}

function main() {
  program((line) => process.stdout.write(line)).parse(process.argv.slice(2), { from: 'user' });
}

// The binary starts from a snapshot taken after one warm-up run, as agentsync's does (src/cli/snapshot.ts).
if (startupSnapshot.isBuildingSnapshot()) {
  const printed = [];
  program((line) => printed.push(line)).parse(['validate', '-f', process.env.AGENTSYNC_STACK_FLOOR_WARM_UP], { from: 'user' });
  if (!printed[0]?.endsWith(' is valid.\n')) throw new Error(`the stack floor's warm-up printed ${JSON.stringify(printed)}`);
  startupSnapshot.setDeserializeMainFunction(main);
} else {
  main();
}
