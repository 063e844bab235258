// The data file keeps Agent Builder agents, text entries and uploads across a restart; a file written
// before they existed still loads; reset clears them.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BuilderAgentRecord, KbListResponse } from '../../src/core/agent-builder-wire.js';
import { seedData } from '../../src/emulator/seed.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { attach, createAgent, createText, getAgent, initiate, KB, putBytes } from './builder-helpers.js';

let folder: string;
let emu: TestEmulator | undefined;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'agentsync-builder-data-'));
});
afterEach(async () => {
  await emu?.close();
  emu = undefined;
  await rm(folder, { recursive: true, force: true });
});

const sources = async (server: TestEmulator): Promise<KbListResponse['data']> => ((await server.call('GET', `${KB}?start=0&end=0&limit=100`)).json as KbListResponse).data;

describe('Agent Builder data on disk', () => {
  it('loads a file written before these collections, and keeps them across a restart', async () => {
    const file = join(folder, 'data.json');
    const old: Record<string, unknown> = { ...seedData('local') };
    for (const key of ['builderAgents', 'kbTexts', 'kbUploads']) delete old[key];
    await writeFile(file, JSON.stringify(old));
    emu = await startTestEmulator({ dataFile: file, kb: { kbProcessingMs: 0 } });
    const agent = await createAgent(emu, { name: 'Kept' });
    const text = await createText(emu, 'Kept text', 'x');
    const [upload] = await initiate(emu, [{ fileName: 'a.txt', mimeType: 'text/plain', fileSize: 1 }]);
    if (!upload) throw new Error('no upload');
    expect((await putBytes(upload, Buffer.from('x'))).status).toBe(200);
    await attach(emu, agent.uid, 'text', 'add', [text.uniqueId]);
    const before = { agent: await getAgent(emu, agent.uid), sources: await sources(emu) };
    await emu.close();
    const saved = JSON.parse(await readFile(file, 'utf8')) as { builderAgents: BuilderAgentRecord[]; kbUploads: Array<{ content?: { size: number } }> };
    expect(saved.builderAgents).toHaveLength(1);
    expect(saved.kbUploads[0]?.content?.size).toBe(1);
    emu = await startTestEmulator({ dataFile: file });
    expect(await getAgent(emu, agent.uid)).toEqual(before.agent);
    expect(await sources(emu)).toEqual(before.sources);
    // A new source still gets a place of its own in the list after the restart.
    await createText(emu, 'After restart', 'y');
    expect((await sources(emu))[0]?.sourceName).toBe('After restart');
  });

  it('reset clears agents, text entries and uploads', async () => {
    emu = await startTestEmulator();
    await createAgent(emu, { name: 'A' });
    await createText(emu, 'T', 'x');
    await initiate(emu, [{ fileName: 'a.txt', mimeType: 'text/plain', fileSize: 1 }]);
    await emu.reset();
    expect(((await emu.call('GET', '/ai-agents/agent-builder/agents')).json as { data: unknown[] }).data).toEqual([]);
    expect((await sources(emu)).map((record) => record.type)).toEqual(['website', 'website', 'website']);
  });

  it('refuses a file whose new collections are not lists', async () => {
    const file = join(folder, 'bad.json');
    await writeFile(file, JSON.stringify({ ...seedData('local'), kbTexts: {} }));
    await expect(startTestEmulator({ dataFile: file })).rejects.toThrow('is not an agentsync emulator data file');
  });
});
