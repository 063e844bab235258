// Writes JSON responses. Every answer goes through here so the headers are always complete.
import type { ServerResponse } from 'node:http';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>>,
  extraHeaders?: Readonly<Record<string, string>>,
): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  const all: Record<string, string> = { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) };
  if (extraHeaders) Object.assign(all, extraHeaders);
  res.writeHead(status, all);
  res.end(text);
}

export function delay(ms: number): Promise<void> | undefined {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined;
}
