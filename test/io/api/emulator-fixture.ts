// A real emulator on port 0 plus its admin endpoints, for the API client, executor and CLI tests.
import { startEmulator, type EmulatorHandle, type EmulatorOptions, type RequestLogEntry } from '../../../src/emulator/index.js';

export const TEST_API_KEY = 'test-key-5f1c9a7e2b';

export interface EmulatorFixture {
  url: string;
  origin: string;
  requests(): Promise<RequestLogEntry[]>;
  /** Requests to the API (not the admin endpoints), optionally of one method. */
  apiRequests(method?: string): Promise<RequestLogEntry[]>;
  /** The API calls that can change something: everything but the refresh's GETs. */
  apiWrites(): Promise<RequestLogEntry[]>;
  configure(config: {
    latencyMs?: number;
    rateLimitPerMinute?: number | null;
    failRate?: number;
    failMode?: 'mixed' | '503' | 'drop';
    failNext?: number;
    putCreates?: boolean;
    createStatus?: 200 | 201;
    timestamps?: 'iso' | 'epoch';
    agentList?: 'full' | 'no-uid';
  }): Promise<void>;
  stats(): Promise<{ inFlight: number; maxInFlight: number; requests: number }>;
  get<T>(path: string): Promise<T>;
  close(): Promise<void>;
}

export async function startFixture(options: Pick<EmulatorOptions, 'dataFile' | 'latencyMs' | 'putCreates' | 'storeAsSent' | 'timestamps' | 'agentList'> = {}): Promise<EmulatorFixture> {
  const emu: EmulatorHandle = await startEmulator({ port: 0, apiKey: TEST_API_KEY, quiet: true, ...options });
  const admin = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${emu.origin}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
    return res.json();
  };
  const requests = async (): Promise<RequestLogEntry[]> => ((await admin('GET', '/__emulator/requests')) as { requests: RequestLogEntry[] }).requests;
  return {
    url: emu.url,
    origin: emu.origin,
    requests,
    async apiRequests(method) {
      return (await requests()).filter((r) => r.path.startsWith('/v3/') && (method === undefined || r.method === method));
    },
    async apiWrites() {
      return (await requests()).filter((r) => r.path.startsWith('/v3/') && r.method !== 'GET');
    },
    async configure(config) {
      await admin('POST', '/__emulator/config', config);
    },
    async stats() {
      return (await admin('GET', '/__emulator/stats')) as { inFlight: number; maxInFlight: number; requests: number };
    },
    async get<T>(path: string) {
      const res = await fetch(`${emu.url}${path}`, { headers: { apikey: TEST_API_KEY } });
      return (await res.json()) as T;
    },
    close: () => emu.close(),
  };
}
