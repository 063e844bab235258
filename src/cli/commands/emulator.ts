// `agentsync emulator`: runs the local CometChat API until SIGINT or SIGTERM.
import type { Command } from 'commander';
import { UserError } from '../../core/errors.js';
import type { CliIo } from '../cli-io.js';

interface EmulatorFlags {
  host: string;
  port: string;
  appId: string;
  apiKey?: string;
  data?: string;
  latency?: string;
  rateLimit?: string;
  failRate?: string;
  putCreates?: boolean;
  storeAsSent?: boolean;
  kbProcessingMs?: string;
}

export function registerEmulatorCommand(program: Command, io: CliIo): void {
  program
    .command('emulator')
    .description('Run the local CometChat API emulator.')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free port)', '4010')
    .option('--app-id <appId>', 'the app id the emulator serves', 'local')
    .option('--api-key <key>', 'the accepted apikey (default $AGENTSYNC_EMULATOR_API_KEY, then local-dev-key)')
    .option('--data <file.json>', 'load data from this file and save every change to it')
    .option('--latency <ms>', 'delay every response by this many milliseconds')
    .option('--rate-limit <perMinute>', 'token-bucket limit in requests per minute')
    .option('--fail-rate <0..1>', 'share of requests that fail with a 503 or a dropped connection')
    .option('--put-creates', 'let PUT /ai-agents/tools/{name} create an unknown tool (the seed reading) instead of answering 404')
    .option('--store-as-sent', 'store records exactly as sent, instead of filling defaults, sorting sets and adding _id/__v as a real server does')
    .option('--kb-processing-ms <ms>', "how long indexing a website's discovered URLs takes (default 1500; 0 is instant)")
    .action(async (flags: EmulatorFlags) => runEmulator(flags, io));
}

async function runEmulator(flags: EmulatorFlags, io: CliIo): Promise<void> {
  const options = {
    host: nonEmpty(flags.host, '--host'),
    port: parseNumber(flags.port, '--port', { integer: true, min: 0, max: 65535 }),
    appId: nonEmpty(flags.appId, '--app-id'),
    apiKey: flags.apiKey === undefined ? io.env.AGENTSYNC_EMULATOR_API_KEY || undefined : nonEmpty(flags.apiKey, '--api-key'),
    dataFile: flags.data === undefined ? undefined : nonEmpty(flags.data, '--data'),
    latencyMs: flags.latency === undefined ? undefined : parseNumber(flags.latency, '--latency', { integer: true, min: 0 }),
    rateLimitPerMinute: flags.rateLimit === undefined ? undefined : parseNumber(flags.rateLimit, '--rate-limit', { min: Number.MIN_VALUE }),
    failRate: flags.failRate === undefined ? undefined : parseNumber(flags.failRate, '--fail-rate', { min: 0, max: 1 }),
    putCreates: flags.putCreates === true,
    storeAsSent: flags.storeAsSent === true,
    kb: flags.kbProcessingMs === undefined ? undefined : { kbProcessingMs: parseNumber(flags.kbProcessingMs, '--kb-processing-ms', { integer: true, min: 0 }) },
    quiet: false,
    log: (line: string) => void io.stderr.write(`${line}\n`),
  };
  // Loaded here, not at the top, so other commands do not pay for the server's modules.
  const { startEmulator, DataFileError } = await import('../../emulator/index.js');
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator(options);
  } catch (err) {
    if (err instanceof DataFileError) throw new UserError('config_invalid', err.message);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      throw new UserError(
        'usage',
        `Cannot listen on ${options.host}:${options.port}: ${(err as Error).message}${code === 'EADDRINUSE' ? ' (another program has the port; pass --port 0 to take a free one)' : ''}`,
      );
    }
    throw err;
  }
  // Listen for the stop signals before announcing readiness: a caller that signals as soon as it
  // reads the ready line must find them handled, not meet the default action (an unclean exit).
  const release = io.trapStops?.();
  const stopped = new Promise<void>((resolve) => (io.signal.aborted ? resolve() : io.signal.addEventListener('abort', () => resolve(), { once: true })));
  // The key is a local stand-in, and clients need it to talk to the emulator, so the ready line names it.
  // One write for both lines, so a reader that waits for the ready line has the dashboard's too.
  io.stdout.write(`agentsync emulator ready at ${emulator.url} (app "${emulator.appId}", API key: ${emulator.apiKey})\nDashboard: ${emulator.dashboardUrl}\n`);
  try {
    await stopped;
    await emulator.close();
  } finally {
    release?.();
  }
}

function nonEmpty(value: string, flag: string): string {
  if (value.trim() === '') throw new UserError('usage', `${flag} must not be empty.`);
  return value;
}

function parseNumber(text: string, flag: string, range: { integer?: boolean; min: number; max?: number }): number {
  const value = text.trim() === '' ? Number.NaN : Number(text);
  const kind = range.integer ? 'a whole number' : 'a number';
  const bounds = range.max === undefined ? (range.min > 0 ? 'greater than 0' : `at least ${range.min}`) : `from ${range.min} to ${range.max}`;
  if (!Number.isFinite(value) || (range.integer && !Number.isInteger(value)) || value < range.min || (range.max !== undefined && value > range.max)) {
    throw new UserError('usage', `${flag} must be ${kind} ${bounds}; got "${text}".`);
  }
  return value;
}
