// Progress while applying.
// On a TTY, as Terraform does: one permanent line per finished resource
// (`tool.get_weather: created (PUT, 48 ms)`), under one live line, rewritten in place, that names
// what is in flight. Elsewhere (CI logs): one plain line per finished change, and no live line.
import type { ApplyEvent } from '../core/apply-types.js';
import { palette, type Palette } from './color.js';
import { statusWithCode } from './apply-summary.js';

export interface ProgressOptions {
  tty: boolean;
  color: boolean;
  total: number;
  write: (text: string) => void;
  /** The terminal's width; the live line is cut to fit, so rewriting it in place never wraps. */
  columns?: number;
  /** How often the live line's elapsed time is refreshed on a TTY; 0 turns the timer off. */
  tickMs?: number;
  /** Milliseconds since some origin; injectable for tests. */
  now?: () => number;
}

export interface Progress {
  onEvent(event: ApplyEvent): void;
  /** Clears the live line and stops its timer; call before printing anything else. */
  finish(): void;
}

const PAST: Record<ApplyEvent['action'], string> = { create: 'created', update: 'updated', delete: 'deleted', forget: 'forgot' };

type DoneEvent = Extract<ApplyEvent, { kind: 'done' }>;
type FailedEvent = Extract<ApplyEvent, { kind: 'failed' }>;

export function createProgress(options: ProgressOptions): Progress {
  const paint = palette(options.color);
  const now = options.now ?? (() => performance.now());
  const started = now();
  let finished = 0;
  let liveShown = false;
  /** In flight, oldest first: address → retries so far. */
  const inFlight = new Map<string, number>();

  const clearLive = (): void => {
    if (liveShown) options.write('\r\u001b[K');
    liveShown = false;
  };
  const drawLive = (): void => {
    if (!options.tty) return;
    if (inFlight.size === 0) return clearLive();
    options.write(`\r\u001b[K${fit(liveLine(finished, options.total, inFlight, Math.round((now() - started) / 1000)), options.columns)}`);
    liveShown = true;
  };
  const printLine = (line: string): void => {
    clearLive();
    options.write(`${line}\n`);
  };
  const timer = options.tty && (options.tickMs ?? 1000) > 0 ? setInterval(drawLive, options.tickMs ?? 1000) : undefined;
  timer?.unref();

  return {
    onEvent(event) {
      switch (event.kind) {
        case 'start':
          inFlight.set(event.address, 0);
          drawLive();
          break;
        case 'retry':
          if (inFlight.has(event.address)) inFlight.set(event.address, event.retry);
          drawLive();
          break;
        case 'done':
          finished++;
          inFlight.delete(event.address);
          printLine(options.tty ? ttyDoneLine(event, paint) : plainDoneLine(event, paint));
          drawLive();
          break;
        case 'failed':
          finished++;
          inFlight.delete(event.address);
          printLine(options.tty ? `${event.address}: ${failedText(event, paint)}: ${callText(event)}` : `${failedText(event, paint)} ${event.address}: ${callText(event)}`);
          drawLive();
          break;
        default: {
          const _exhaustive: never = event;
          return _exhaustive;
        }
      }
    },
    finish() {
      if (timer) clearInterval(timer);
      clearLive();
    },
  };
}

/** `tool.get_weather: created (PUT, 48 ms)`: Terraform's "address: outcome" order. */
function ttyDoneLine(event: DoneEvent, paint: Palette): string {
  return `${event.address}: ${paint.green(pastOf(event))} (${details(event)})`;
}

/** `created tool.get_weather (PUT, 48 ms)`: the CI log line, unchanged since the first release. */
function plainDoneLine(event: DoneEvent, paint: Palette): string {
  return `${paint.green(pastOf(event))} ${event.address} (${details(event)})`;
}

function pastOf(event: DoneEvent): string {
  return event.replaced === true ? 'replaced' : PAST[event.action];
}

/** `PUT, 48 ms`; a change made in steps says what it did instead of its last call: `crawled, processed, old deleted, 79 ms`. */
function details(event: DoneEvent): string {
  const how = event.steps?.length ? `${event.steps.join(', ')}, ${event.ms} ms` : event.call ? `${event.call.split(' ')[0]}, ${event.ms} ms` : 'no call';
  const retried = event.retries > 0 ? `, ${event.retries} ${event.retries === 1 ? 'retry' : 'retries'}` : '';
  // Steps say what was adopted themselves.
  const adopted = event.adopted && !event.steps?.length ? ', adopted the agent an interrupted create had made' : '';
  const gone = event.gone ? ', already gone from the server' : '';
  return `${how}${retried}${adopted}${gone}`;
}

function failedText(event: FailedEvent, paint: Palette): string {
  return event.failure.code === 'INTERRUPTED' ? paint.yellow('cut off') : paint.red('failed');
}

function callText(event: FailedEvent): string {
  const { call, status, code } = event.failure;
  return `${call} ${status === 0 ? `(${code})` : `(${statusWithCode(status, code)})`}`;
}

/** `[3/9] 12 s, in flight: agent.a, agent.b (1 retry)`. */
function liveLine(finished: number, total: number, inFlight: ReadonlyMap<string, number>, elapsedS: number): string {
  const names = [...inFlight].map(([address, retries]) => (retries > 0 ? `${address} (${retries} ${retries === 1 ? 'retry' : 'retries'})` : address));
  return `[${finished}/${total}] ${elapsedS} s, in flight: ${names.join(', ')}`;
}

/** Cut to the terminal's width less one column, so the cursor never wraps to a new line. */
function fit(line: string, columns: number | undefined): string {
  if (columns === undefined || columns < 10 || line.length < columns) return line;
  return line.slice(0, columns - 2) + '…';
}
