// Test helpers: an in-process emulator on port 0 and small HTTP clients for it. All traffic is real
// HTTP over loopback; nothing in the emulator is mocked.
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../src/emulator/index.js';

export const API_KEY = 'test-key';

export interface Reply {
  status: number;
  headers: Headers;
  json: unknown;
}

export interface TestEmulator extends EmulatorHandle {
  /** Calls the API with the test key, a JSON body when given, and any extra headers. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Calls a `/__emulator/*` endpoint. */
  admin(method: string, path: string, body?: unknown): Promise<Reply>;
  /** `POST /ai-agents/tools`, the public reference's create. */
  createTool(body: Record<string, unknown>): Promise<Reply>;
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const handle = await startEmulator({ port: 0, apiKey: API_KEY, ...options });
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
  return Object.assign(handle, {
    call: (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      send(`${handle.url}${path}`, method, body, { apikey: API_KEY, ...headers }),
    admin: (method: string, path: string, body?: unknown) => send(`${handle.origin}/__emulator${path}`, method, body, {}),
    createTool: (body: Record<string, unknown>) => send(`${handle.url}/ai-agents/tools`, 'POST', body, { apikey: API_KEY }),
  });
}

export interface RawReply {
  status: number | null;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Set when the connection failed or was dropped before a response arrived. */
  error?: string;
}

/** A low-level request that can send anything: odd methods, raw bytes, wrong lengths. */
export function rawRequest(
  origin: string,
  options: { method: string; path: string; headers?: Record<string, string>; body?: Buffer | string },
): Promise<RawReply> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: options.method, path: options.path, headers: options.headers ?? {}, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? null, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err) => resolve({ status: res.statusCode ?? null, headers: res.headers, text: '', error: err.message }));
      },
    );
    req.on('error', (err) => resolve({ status: null, headers: {}, text: '', error: err.message }));
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

/** The code of a Chat API error body (`{"error":{"code",…}}`), answered outside `/ai-agents`. */
export function errorCode(reply: Reply): string | undefined {
  const body = reply.json as { error?: { code?: string } } | undefined;
  return typeof body?.error === 'object' ? body.error.code : undefined;
}

/** The message of either error shape. */
export function errorMessage(reply: Reply): string {
  const body = reply.json as { error?: { message?: string } | string; message?: string } | undefined;
  if (typeof body?.error === 'object') return body.error.message ?? '';
  return body?.message ?? '';
}

export interface AgentsErrorBody {
  statusCode: number;
  message: string;
  error: string;
}

/** Asserts the AI-agent error shape `{statusCode, message, error}` (exactly those keys) and returns it. */
export function agentsError(reply: Reply): AgentsErrorBody {
  const body = reply.json as AgentsErrorBody;
  expect(Object.keys(body ?? {}).sort(), JSON.stringify(body)).toEqual(['error', 'message', 'statusCode']);
  expect(body.statusCode).toBe(reply.status);
  expect(typeof body.message).toBe('string');
  expect(typeof body.error).toBe('string');
  return body;
}

/** An executing tool: its type is `action`, so it belongs in an agent's `actions`. */
export const validTool = (name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  displayName: `Tool ${name}`,
  executionText: `Running ${name}`,
  description: `Does ${name}`,
  parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
  ...overrides,
});

/** A client-side tool: `doNotExecute`, so its type is `tool` and it belongs in an agent's `tools`. */
export const clientTool = (name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  displayName: `Client ${name}`,
  executionText: `Showing ${name}`,
  doNotExecute: true,
  ...overrides,
});

export const validLlmAgent = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'Support assistant',
  isActive: true,
  integrateWith: 'gpt-4o',
  integrationType: 'llm',
  tools: [],
  actions: [],
  ...overrides,
});

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
