// Helpers of the emulator's own tests: raw requests, error shapes and valid bodies. The emulator
// itself is started with test/support/emulator.ts.
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import type { Reply } from '../support/emulator.js';

export interface RawReply {
  status: number | null;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Set when the connection failed or was dropped before a response arrived. */
  error?: string;
}

/** A low-level request that can send anything: odd methods, raw bytes, wrong lengths. */
export function rawRequest(origin: string, options: { method: string; path: string; headers?: Record<string, string>; body?: Buffer | string }): Promise<RawReply> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method: options.method, path: options.path, headers: options.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? null, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err) => resolve({ status: res.statusCode ?? null, headers: res.headers, text: '', error: err.message }));
    });
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
