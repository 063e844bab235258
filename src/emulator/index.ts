// startEmulator(): the programmatic entry point, used by the CLI, the demo and the tests.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { adminRouter } from './admin.js';
import { Faults, type FailMode } from './faults.js';
import { DEFAULT_MODE, modeOptionProblems, type ServerMode } from './mode.js';
import { DataFileWriter, loadDataFile } from './persistence.js';
import { InFlightGauge, RequestLog } from './request-log.js';
import { EmulatorClock } from './clock.js';
import { DEFAULT_KB_CONFIG, kbConfigProblems, type KbConfig } from './kb/config.js';
import type { KbContext } from './kb/context.js';
import { apiRoutes } from './resources/registry.js';
import { Router } from './router.js';
import { seedData } from './seed.js';
import { dashboardRouter } from './dashboard/routes.js';
import { newToken, ownOrigin } from './dashboard/guard.js';
import { createRequestListener } from './server.js';
import { EmulatorStore } from './store.js';

export { DataFileError } from './persistence.js';
export { DEFAULT_SENDER_UID } from './seed.js';
export type { RequestLogEntry } from './request-log.js';
export type { AgentListForm, CreateStatus, KbAttachArrays, ServerMode, TimestampForm } from './mode.js';
export type { KbConfig } from './kb/config.js';

export interface EmulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default `local`. */
  appId?: string;
  /** Default `$AGENTSYNC_EMULATOR_API_KEY`, then `local-dev-key`. */
  apiKey?: string;
  /** JSON file to load from (created from the seed when absent) and save every change to. */
  dataFile?: string;
  latencyMs?: number;
  /** Requests per minute for the app's token bucket; undefined or null means no limit. */
  rateLimitPerMinute?: number | null;
  /** Share of requests (0..1) that fail with a 503 or a dropped connection. */
  failRate?: number;
  failMode?: FailMode;
  /** Default true: no per-request lines. With false, one line per request goes to `log`. */
  quiet?: boolean;
  /** Where the per-request lines and data-file problems go; default the process's stderr. */
  log?: (line: string) => void;
  /** Default false: PUT of an unknown tool is a 404. True restores the seed's upsert reading. */
  putCreates?: boolean;
  /** Default 200 (public version A); 201 is version O. */
  createStatus?: ServerMode['createStatus'];
  /** Default `iso` (version A); `epoch` sends integer milliseconds (version O). */
  timestamps?: ServerMode['timestamps'];
  /** Default `full`; `no-uid` lists agents as version A does, without their uid. */
  agentList?: ServerMode['agentList'];
  /** Default false: records are stored like a real server stores them (docs/spec/emulator.md#stores-like-a-server). True echoes what was sent. */
  storeAsSent?: boolean;
  /** Default `split`: attached uploads and text entries go to an agent's `files`, websites to `websites`; `files` puts all in `files`. */
  kbAttachArrays?: ServerMode['kbAttachArrays'];
  /** Knowledge-base knobs (kb/config.ts), e.g. `{ kbProcessingMs: 0 }` for instant indexing; default 1500 ms. */
  kb?: Partial<KbConfig>;
}

export interface EmulatorHandle {
  /** The API base URL, ending in `/v3`, e.g. `http://127.0.0.1:4010/v3`. */
  url: string;
  /** `http://HOST:PORT`, where the `/__emulator/*` endpoints live. */
  origin: string;
  /** The dashboard page, `http://HOST:PORT/`. */
  dashboardUrl: string;
  host: string;
  port: number;
  appId: string;
  /** The one key the `apikey` header must carry. */
  apiKey: string;
  /** Stops listening, ends open connections and flushes the data file. */
  close(): Promise<void>;
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_API_KEY = 'local-dev-key';

export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const host = options.host ?? '127.0.0.1';
  const appId = options.appId ?? 'local';
  const apiKey = options.apiKey ?? (process.env.AGENTSYNC_EMULATOR_API_KEY || DEFAULT_API_KEY);
  checkOptions(options, appId, apiKey);
  const writeLine = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const logLine = options.quiet === false ? writeLine : undefined;

  const store = new EmulatorStore(appId);
  store.load(options.dataFile ? await loadDataFile(options.dataFile, appId) : seedData(appId));
  const writer = options.dataFile ? new DataFileWriter(options.dataFile, () => store.toData(), writeLine) : undefined;
  if (writer) store.onChange(() => writer.schedule());

  // One mutable object: the resources read it on every request and /__emulator/config changes it.
  const mode: ServerMode = {
    putCreates: options.putCreates ?? DEFAULT_MODE.putCreates,
    createStatus: options.createStatus ?? DEFAULT_MODE.createStatus,
    timestamps: options.timestamps ?? DEFAULT_MODE.timestamps,
    agentList: options.agentList ?? DEFAULT_MODE.agentList,
    storeAsSent: options.storeAsSent ?? DEFAULT_MODE.storeAsSent,
    kbAttachArrays: options.kbAttachArrays ?? DEFAULT_MODE.kbAttachArrays,
  };
  const faults = new Faults({
    latencyMs: options.latencyMs ?? 0,
    rateLimitPerMinute: options.rateLimitPerMinute ?? null,
    failRate: options.failRate ?? 0,
    failMode: options.failMode ?? 'mixed',
  });
  const kbConfig: KbConfig = { ...DEFAULT_KB_CONFIG, ...options.kb, kbFailUrls: [...(options.kb?.kbFailUrls ?? [])], kbTwinUrls: [...(options.kb?.kbTwinUrls ?? [])] };
  const log = new RequestLog();
  const gauge = new InFlightGauge();
  let origin = '';
  const stopCrawls = new AbortController();
  const kb: KbContext = { store, clock: new EmulatorClock(), config: kbConfig, webhookBaseUrl: () => `${origin}/__emulator/webhooks`, stop: stopCrawls.signal, pageOverrides: new Map() };
  const originFor = (hostHeader: string | undefined): string => (hostHeader === undefined ? undefined : ownOrigin(hostHeader, { host, port })) ?? origin;
  const api = new Router(apiRoutes({ store, mode, kb, originFor }));
  const admin = adminRouter({ store, faults, mode, log, gauge, kb });
  let port = 0;
  const dashboard = {
    router: dashboardRouter({ store, api, admin, log, kb }),
    token: newToken(),
    appId,
    listening: () => ({ host, port, apiUrl: `${origin}/v3` }),
  };
  const server = createServer({ keepAliveTimeout: 5_000 }, createRequestListener({ appId, apiKey, api, admin, faults, log, gauge, dashboard, kb, logLine }));
  server.on('clientError', (_err, socket) => {
    // Unparseable HTTP: answer 400 if the socket still can, and carry on serving others.
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });

  port = await listen(server, host, options.port ?? DEFAULT_PORT);
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}/v3`,
    origin,
    dashboardUrl: `${origin}/`,
    host,
    port,
    appId,
    apiKey,
    close: async () => {
      stopCrawls.abort();
      await closeServer(server);
      await writer?.flush();
    },
  };
}

function checkOptions(options: EmulatorOptions, appId: string, apiKey: string): void {
  const problems: string[] = [];
  if (options.port !== undefined && !(Number.isInteger(options.port) && options.port >= 0 && options.port <= 65535)) problems.push('port must be an integer from 0 to 65535');
  if (options.latencyMs !== undefined && !(Number.isFinite(options.latencyMs) && options.latencyMs >= 0)) problems.push('latencyMs must be ≥ 0');
  const rate = options.rateLimitPerMinute;
  if (rate !== undefined && rate !== null && !(Number.isFinite(rate) && rate > 0)) problems.push('rateLimitPerMinute must be > 0');
  if (options.failRate !== undefined && !(options.failRate >= 0 && options.failRate <= 1)) problems.push('failRate must be from 0 to 1');
  if (appId.trim() === '') problems.push('appId must not be empty');
  if (apiKey === '') problems.push('apiKey must not be empty');
  for (const problem of [...modeOptionProblems(options), ...kbConfigProblems(options.kb ?? {})]) problems.push(problem);
  if (problems.length > 0) throw new RangeError(`Invalid emulator options: ${problems.join('; ')}.`);
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Lets in-flight requests finish for a moment, then ends every connection so close() never hangs. */
async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const grace = setTimeout(() => server.closeAllConnections(), 1_000);
  await closed;
  clearTimeout(grace);
}
