// The one way the tests start the emulator: in this process, on port 0, over real HTTP, with small
// clients for its API and its `/__emulator/*` admin endpoints. Close it in afterAll (or afterEach).
// Nothing in the emulator is mocked.
import { startEmulator, type EmulatorHandle, type EmulatorOptions, type RequestLogEntry } from '../../src/emulator/index.js';

export const API_KEY = 'test-key-5f1c9a7e2b';

export interface Reply {
  status: number;
  headers: Headers;
  json: unknown;
}

/** What `/__emulator/config` accepts at runtime. */
export interface EmulatorConfig {
  latencyMs?: number;
  rateLimitPerMinute?: number | null;
  failRate?: number;
  failMode?: 'mixed' | '503' | 'drop';
  failNext?: number;
  putCreates?: boolean;
  createStatus?: 200 | 201;
  timestamps?: 'iso' | 'epoch';
  agentList?: 'full' | 'no-uid';
  [other: string]: unknown;
}

export interface TestEmulator extends EmulatorHandle {
  /** The env a CLI child needs to reach this emulator with its key. */
  env: { COMETCHAT_API_KEY: string; AGENTSYNC_BASE_URL: string };
  /** Calls the API with the key, a JSON body when given, and any extra headers. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Calls a `/__emulator/*` endpoint and returns the reply, whatever its status. */
  admin(method: string, path: string, body?: unknown): Promise<Reply>;
  /** `POST /ai-agents/tools`, the public reference's create. */
  createTool(body: Record<string, unknown>): Promise<Reply>;
  /** GET on the API with the key; waits out 429s, 503s and drops, so a fault setting never breaks an assertion. */
  get<T>(path: string): Promise<T>;
  requests(): Promise<RequestLogEntry[]>;
  /** Requests to the API (not the admin endpoints), optionally of one method. */
  apiRequests(method?: string): Promise<RequestLogEntry[]>;
  /** The API calls that can change something: everything but GETs. */
  apiWrites(): Promise<RequestLogEntry[]>;
  clearRequests(): Promise<void>;
  configure(config: EmulatorConfig): Promise<void>;
  stats(): Promise<{ inFlight: number; maxInFlight: number; requests: number }>;
  /** Back to the seed, with an empty request log and zeroed stats. */
  reset(): Promise<void>;
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const handle = await startEmulator({ port: 0, apiKey: API_KEY, quiet: true, ...options });
  const key = handle.apiKey;
  const send = async (url: string, method: string, body: unknown, headers: Record<string, string>): Promise<Reply> => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const response = await fetch(url, init);
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };
  const admin = (method: string, path: string, body?: unknown): Promise<Reply> => send(`${handle.origin}/__emulator${path}`, method, body, {});
  /** An admin call that must succeed. */
  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const reply = await admin(method, path, body);
    if (reply.status >= 300) throw new Error(`${method} /__emulator${path} → ${reply.status} ${JSON.stringify(reply.json)}`);
    return reply.json;
  };
  /** The whole log: it comes in pages of about 1 MB (long bodies cut), and `next` continues it. */
  const requests = async (): Promise<RequestLogEntry[]> => {
    const all: RequestLogEntry[] = [];
    for (let after = 0; ;) {
      const page = (await control('GET', `/requests?after=${after}`)) as { requests: RequestLogEntry[]; next?: number };
      all.push(...page.requests);
      if (page.next === undefined) return all;
      after = page.next;
    }
  };
  const isApi = (r: RequestLogEntry): boolean => r.path.startsWith('/v3/');
  return Object.assign(handle, {
    env: { COMETCHAT_API_KEY: key, AGENTSYNC_BASE_URL: handle.url },
    call: (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => send(`${handle.url}${path}`, method, body, { apikey: key, ...headers }),
    admin,
    createTool: (body: Record<string, unknown>) => send(`${handle.url}/ai-agents/tools`, 'POST', body, { apikey: key }),
    get: async <T>(path: string): Promise<T> => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        try {
          const response = await fetch(`${handle.url}${path}`, { headers: { apikey: key } });
          if (![429, 503].includes(response.status) || Date.now() > deadline) return (await response.json()) as T;
        } catch (err) {
          if (Date.now() > deadline) throw err;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    requests,
    apiRequests: async (method?: string) => (await requests()).filter((r) => isApi(r) && (method === undefined || r.method === method)),
    apiWrites: async () => (await requests()).filter((r) => isApi(r) && r.method !== 'GET'),
    clearRequests: async () => void (await control('DELETE', '/requests')),
    configure: async (config: EmulatorConfig) => void (await control('POST', '/config', config)),
    stats: async () => (await control('GET', '/stats')) as { inFlight: number; maxInFlight: number; requests: number },
    reset: async () => {
      await control('POST', '/reset');
      await control('DELETE', '/requests');
      await control('DELETE', '/stats');
    },
  });
}
