// Progress of an apply over several environments on a terminal: one live line for all of them
// (`Applying: us 120/1000 · eu 98/1000 · in done`), with failures and whole blocks (an
// environment's plan or summary) printed above it. In CI each environment uses progress.ts with
// `[env] ` prefixed lines instead.
import type { ApplyEvent } from '../core/apply-types.js';
import { statusWithCode } from './apply-summary.js';
import { palette } from './color.js';
import { printableLine } from './plan-fields.js';
import type { Progress } from './progress.js';

export interface MultiProgressOptions {
  color: boolean;
  write: (text: string) => void;
  /** Terminal width; the live line is cut to it so it never wraps (a wrapped line cannot be redrawn). */
  columns?: number;
}

export interface MultiProgress {
  /** The progress of one environment, from its first event until its `finish()`. */
  environment(name: string, total: number): Progress;
  /** Prints text above the live line (through `write`, e.g. to stderr, when given). */
  print(text: string, write?: (text: string) => void): void;
}

interface Track {
  name: string;
  total: number;
  finished: number;
  failed: number;
  retrying: number;
  done: boolean;
}

export function createMultiProgress(options: MultiProgressOptions): MultiProgress {
  const paint = palette(options.color);
  const tracks: Track[] = [];
  let liveShown = false;

  const clearLive = (): void => {
    if (liveShown) options.write('\r\u001b[K');
    liveShown = false;
  };
  const drawLive = (): void => {
    const active = tracks.filter((t) => !t.done);
    if (active.length === 0) return clearLive();
    const parts = tracks.map((t) => {
      const name = printableLine(t.name);
      if (t.done) return t.failed > 0 ? paint.red(`${name} failed`) : paint.green(`${name} done`);
      const retry = t.retrying > 0 ? paint.yellow(' (retrying)') : '';
      return `${name} ${t.finished}/${t.total}${retry}`;
    });
    const plain = `Applying: ${parts.join(' · ')}`;
    options.write(`\r\u001b[K${fit(plain, options.columns)}`);
    liveShown = true;
  };
  const print = (text: string, write: (text: string) => void = options.write): void => {
    clearLive();
    write(text.endsWith('\n') ? text : `${text}\n`);
    drawLive();
  };

  return {
    environment(name, total) {
      const track: Track = { name, total, finished: 0, failed: 0, retrying: 0, done: false };
      tracks.push(track);
      const retrying = new Set<string>();
      drawLive();
      return {
        onEvent(event: ApplyEvent) {
          switch (event.kind) {
            case 'start':
              break;
            case 'retry':
              retrying.add(event.address);
              break;
            case 'done':
              track.finished++;
              retrying.delete(event.address);
              break;
            case 'failed':
              track.finished++;
              track.failed++;
              retrying.delete(event.address);
              print(
                `[${printableLine(name)}] ${paint.red('failed')} ${event.address}: ${event.failure.call} (${event.failure.status === 0 ? event.failure.code : statusWithCode(event.failure.status, event.failure.code)})`,
              );
              break;
            default: {
              const _exhaustive: never = event;
              return _exhaustive;
            }
          }
          track.retrying = retrying.size;
          drawLive();
        },
        finish() {
          track.done = true;
          drawLive();
        },
      };
    },
    print,
  };
}

/** Cuts a line to the terminal width, counting only visible characters (colour codes take no room). */
function fit(line: string, columns: number | undefined): string {
  if (columns === undefined || columns <= 1) return line;
  let visible = 0;
  let out = '';
  let painted = false;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\u001b') {
      const end = line.indexOf('m', i);
      if (end > i) {
        out += line.slice(i, end + 1);
        painted = true;
        i = end;
        continue;
      }
    }
    if (visible >= columns - 1) return painted ? `${out}\u001b[0m` : out;
    out += line[i];
    visible++;
  }
  return out;
}
