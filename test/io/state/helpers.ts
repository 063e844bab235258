// Shared set-up for the state-store tests: temp folders, and child processes running the built
// store (dist/) so they can be SIGKILLed at any instant.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JournalEntry } from '../../../src/core/state.js';
import type { StateTarget } from '../../../src/io/state/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CHILD_SCRIPT = path.join(here, 'fixtures', 'state-child.mjs');
export const BUILT_STORE = path.join(here, '..', '..', '..', 'dist', 'io', 'state', 'index.js');

export const TARGET: StateTarget = { environment: 'local', appId: 'local', region: 'us' };

export function applied(address: string, spec: Record<string, number | string> = {}): JournalEntry {
  return { op: 'applied', address, type: 'tool', remoteId: `id-${address}`, spec, appliedAt: '2026-01-01T00:00:00.000Z' };
}

export async function withTempDir(): Promise<{ dir: string; statePath: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'agentsync-state-'));
  return { dir, statePath: path.join(dir, '.agentsync', 'local.state.json'), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function assertBuilt(): void {
  if (!existsSync(BUILT_STORE)) throw new Error(`${BUILT_STORE} is missing: build first (npm run build)`);
}

export interface ChildEvent {
  event: string;
  [key: string]: unknown;
}

/** A child running state-child.mjs, with its stdout parsed into events. */
export class StateChild {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly events: ChildEvent[] = [];
  readonly exited: Promise<void>;
  private waiters: (() => void)[] = [];
  stderr = '';

  /** `location`: a state file path or a postgres:// URL; `key`: the state key in a database. */
  constructor(mode: string, location: string, arg = '', key = 'local') {
    this.proc = spawn(process.execPath, [CHILD_SCRIPT, mode, location, arg, key], { stdio: 'pipe' });
    let buffer = '';
    this.proc.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        this.events.push(JSON.parse(buffer.slice(0, nl)) as ChildEvent);
        buffer = buffer.slice(nl + 1);
        this.waiters.splice(0).forEach((w) => w());
      }
    });
    this.proc.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.exited = new Promise((resolve) =>
      this.proc.on('exit', () => {
        this.waiters.splice(0).forEach((w) => w());
        resolve();
      }),
    );
  }

  /** Resolves with the first event matching `predicate`; rejects if the child exits first. */
  async waitFor(predicate: (e: ChildEvent) => boolean): Promise<ChildEvent> {
    for (;;) {
      const found = this.events.find(predicate);
      if (found) return found;
      if (this.proc.exitCode !== null || this.proc.signalCode !== null) {
        throw new Error(`child exited (${this.proc.exitCode ?? this.proc.signalCode}) before the event; stderr: ${this.stderr}`);
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  send(line: string): void {
    this.proc.stdin.write(line + '\n');
  }

  async kill(): Promise<void> {
    this.proc.kill('SIGKILL');
    await this.exited;
  }
}
