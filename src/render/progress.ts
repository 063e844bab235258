// Progress while applying. On a TTY: one live line, rewritten in place, with done/total, the
// resource being worked on and its retries. Elsewhere (CI logs): one plain line per finished change.
import type { ApplyEvent } from '../io/apply-types.js';
import { palette } from './color.js';
import { statusWithCode } from './apply-summary.js';

export interface ProgressOptions {
  tty: boolean;
  color: boolean;
  total: number;
  write: (text: string) => void;
}

export interface Progress {
  onEvent(event: ApplyEvent): void;
  /** Clears the live line; call before printing anything else. */
  finish(): void;
}

const PAST: Record<ApplyEvent['action'], string> = { create: 'created', update: 'updated', delete: 'deleted', forget: 'forgot' };

export function createProgress(options: ProgressOptions): Progress {
  const paint = palette(options.color);
  let finished = 0;
  let current = '';
  let liveShown = false;
  const retries = new Map<string, number>();

  const clearLive = (): void => {
    if (liveShown) options.write('\r\u001b[K');
    liveShown = false;
  };
  const drawLive = (): void => {
    if (!options.tty) return;
    const count = retries.get(current) ?? 0;
    const suffix = count > 0 ? paint.yellow(` (${count} ${count === 1 ? 'retry' : 'retries'})`) : '';
    options.write(`\r\u001b[K[${finished}/${options.total}] ${current}${suffix}`);
    liveShown = true;
  };
  const printLine = (line: string): void => {
    clearLive();
    options.write(`${line}\n`);
  };

  return {
    onEvent(event) {
      switch (event.kind) {
        case 'start':
          current = event.address;
          drawLive();
          break;
        case 'retry':
          retries.set(event.address, event.retry);
          if (event.address === current) drawLive();
          break;
        case 'done': {
          finished++;
          if (!options.tty) {
            const how = event.call ? `${event.call.split(' ')[0]}, ${event.ms} ms` : 'no call';
            const retried = event.retries > 0 ? `, ${event.retries} ${event.retries === 1 ? 'retry' : 'retries'}` : '';
            const adopted = event.adopted ? ', adopted the agent an interrupted create had made' : '';
            const gone = event.gone ? ', already gone from the server' : '';
            printLine(`${paint.green(PAST[event.action])} ${event.address} (${how}${retried}${adopted}${gone})`);
          } else drawLive();
          break;
        }
        case 'failed':
          finished++;
          printLine(`${paint.red('failed')} ${event.address}: ${event.failure.call} ${statusText(event.failure.status, event.failure.code)}`);
          drawLive();
          break;
        default: {
          const _exhaustive: never = event;
          return _exhaustive;
        }
      }
    },
    finish: clearLive,
  };
}

function statusText(status: number, code: string): string {
  return status === 0 ? `(${code})` : `(${statusWithCode(status, code)})`;
}
