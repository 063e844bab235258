import type { Command } from 'commander';
import type { SendOptions } from '../send-run.js';
import { addManifestOptions, addResponseTimeoutOption } from '../options.js';
import type { CliIo } from '../cli-io.js';

export function registerSendCommand(program: Command, io: CliIo): void {
  const cmd = program
    .command('send')
    .description('Send a chat message with POST /messages and print its id.')
    .requiredOption('--to <receiver>', "user:UID, group:GUID or agent:KEY (the agent's uid from state)")
    .requiredOption('--text <text>', 'the message text')
    .option('--on-behalf-of <uid>', 'send as this user (onBehalfOf header)')
    .option('--tag <tag>', 'a tag for the message (repeatable)', (tag: string, all: string[]) => [...all, tag], [] as string[])
    .option('--quote <messageId>', 'quote this message')
    .option('--muid <id>', 'your unique id for the message');
  addManifestOptions(addResponseTimeoutOption(cmd)).action(async (opts: SendOptions) => {
    const { runSend } = await import('../send-run.js');
    await runSend(opts, io);
  });
}
