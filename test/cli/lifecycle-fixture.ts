// Shared by the export, clone and prune/target CLI tests: an emulator per reference mode, a temp
// folder, and the built CLI run against them. Nothing of agentsync is mocked.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateAppData } from '../../bench/generate-app.mjs';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';
import { runCli, type CliResult } from '../support/cli.js';

/** Both readings of tool creation (docs/spec/emulator.md#reference-modes): the public reference's 404, and the seed's upsert. */
export const MODES = [
  { name: 'default mode', putCreates: false },
  { name: '--put-creates mode', putCreates: true },
] as const;

export const DEMO_MANIFEST = join(import.meta.dirname, '..', 'fixtures', 'lifecycle', 'demo.yaml');
/** The demo's one secret (a header of agent returns_bot). */
export const DEMO_SECRET = 'Bearer demo-s3cr3t-value';

export interface Lab {
  dir: string;
  path(name: string): string;
  emulator(options?: { putCreates?: boolean; app?: number; seed?: number }): Promise<TestEmulator>;
  /** The CLI against one emulator (its URL through AGENTSYNC_BASE_URL, unless `baseUrl: false`). */
  cli(emu: TestEmulator | undefined, args: readonly string[], extraEnv?: NodeJS.ProcessEnv): Promise<CliResult>;
  close(): Promise<void>;
}

export async function openLab(): Promise<Lab> {
  const dir = await mkdtemp(join(tmpdir(), 'agentsync-lifecycle-'));
  const started: TestEmulator[] = [];
  let apps = 0;
  return {
    dir,
    path: (name) => join(dir, name),
    async emulator(options = {}) {
      let dataFile: string | undefined;
      if (options.app !== undefined) {
        dataFile = join(dir, `app-${++apps}.json`);
        await writeFile(dataFile, JSON.stringify(generateAppData({ count: options.app, seed: options.seed ?? 7 })));
      }
      const emu = await startTestEmulator({ putCreates: options.putCreates === true, ...(dataFile ? { dataFile } : {}) });
      started.push(emu);
      return emu;
    },
    cli(emu, args, extraEnv = {}) {
      const env: NodeJS.ProcessEnv = { COMETCHAT_API_KEY: API_KEY, ...(emu ? { AGENTSYNC_BASE_URL: emu.url } : {}), ...extraEnv };
      return runCli(args, { cwd: dir, env });
    },
    async close() {
      await Promise.all(started.map((emu) => emu.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `METHOD /path` of every request that can change something, uids replaced by `<uid>`. */
export async function writesOf(emu: TestEmulator): Promise<string[]> {
  return (await emu.apiWrites()).map((r) => `${r.method} ${r.path.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, '<uid>')}`);
}

/** The server's tools and agents without ids and times, for comparing two apps. */
export async function appContents(emu: TestEmulator): Promise<{ tools: unknown[]; agents: unknown[] }> {
  const strip = (record: Record<string, unknown>): Record<string, unknown> => {
    const { _id: _a, uid: _b, appId: _c, createdAt: _d, updatedAt: _e, deletedAt: _f, ...rest } = record;
    return rest;
  };
  const byName = (a: Record<string, unknown>, b: Record<string, unknown>): number => String(a.name).localeCompare(String(b.name));
  const tools = (await emu.get<Record<string, unknown>[]>('/ai-agents/tools')).map(strip).sort(byName);
  const agents = (await emu.get<Record<string, unknown>[]>('/ai-agents/agents')).map(strip).sort(byName);
  return { tools, agents };
}
