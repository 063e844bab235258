// Writes JSON responses. Every answer goes through here so the headers are always complete.
import type { ServerResponse } from 'node:http';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>>, extraHeaders?: Readonly<Record<string, string>>): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  const all: Record<string, string> = { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(text)) };
  if (extraHeaders) Object.assign(all, extraHeaders);
  res.writeHead(status, all);
  res.end(text);
}

/**
 * Releases responses at an instant (a `performance.now()` value), exact on average. Node's timers
 * count whole milliseconds from the event loop's cached clock and the kernel wakes the loop late,
 * so `setTimeout(fn, 25)` fires 24–27 ms later, about 0.5 ms late on average: at 25 ms that alone
 * is 1.02–1.04× on every request. Spinning to the microsecond costs ~2 ms of CPU per request, on
 * the cores the client under test needs. So each timer is aimed early by how late timers have been
 * firing (an integral controller on the observed error), which makes the mean error zero with
 * about ±1 ms of spread, for one timer per response.
 */
export class Punctual {
  /** How much later than asked a timer has been firing, in ms; adjusted on every firing. */
  private lateMs = 0.5;

  until(dueAt: number): Promise<void> | undefined {
    const delayMs = Math.round(dueAt - performance.now() - this.lateMs);
    if (delayMs < 1) return undefined;
    return new Promise((resolve) => {
      setTimeout(() => {
        // A stall of the whole process (another program on the core) is not the timer's error.
        const errorMs = Math.min(performance.now() - dueAt, MAX_CORRECTION_MS);
        this.lateMs = Math.min(Math.max(this.lateMs + GAIN * errorMs, 0), MAX_CORRECTION_MS);
        resolve();
      }, delayMs);
    });
  }
}

const GAIN = 0.05;
const MAX_CORRECTION_MS = 2;
