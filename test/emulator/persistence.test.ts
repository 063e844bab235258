// --data: load from the file (seeding it when absent), save every change atomically, keep
// everything across a restart.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentCreateResponse, AgentRecord, MessageResponse, ToolRecord } from '../../src/core/api-types.js';
import { DataFileError, startEmulator } from '../../src/emulator/index.js';
import { SAVE_DELAY_MS } from '../../src/emulator/persistence.js';
import { startTestEmulator } from '../support/emulator.js';
import { waitFor } from '../support/wait.js';
import { validLlmAgent, validTool } from './helpers.js';

let folder: string;
let dataFile: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'agentsync-emulator-'));
  dataFile = join(folder, 'data.json');
});
afterEach(() => rm(folder, { recursive: true, force: true }));

describe('--data', () => {
  it('creates the file from the seed when it is absent', async () => {
    const emu = await startTestEmulator({ dataFile });
    const data = JSON.parse(await readFile(dataFile, 'utf8')) as { version: number; users: Array<{ uid: string }>; tools: unknown[] };
    expect(data.version).toBe(1);
    expect(data.users.map((user) => user.uid)).toContain('deploy-bot');
    await emu.close();
  });

  it('keeps tools, agents, messages, soft deletes and batches across a restart', async () => {
    const first = await startTestEmulator({ dataFile });
    const tool = (await first.createTool(validTool('kept'))).json as ToolRecord;
    const agent = ((await first.call('POST', '/ai-agents/agents', validLlmAgent({ actions: ['kept'], cometchatTools: ['web_search'] }))).json as AgentCreateResponse).agent;
    const gone = ((await first.call('POST', '/ai-agents/agents', validLlmAgent({ name: 'Gone' }))).json as AgentCreateResponse).agent;
    await first.call('DELETE', `/ai-agents/agents/${gone.uid}`);
    const message = ((await first.call('POST', '/messages', { receiver: 'ops', receiverType: 'group', data: { text: 'kept' } })).json as MessageResponse).data;
    await first.call('POST', '/ai-agents/agent-builder/knowledge-base/website/web_demo/discovered-urls/process', { exclude: ['url_3'] });
    await first.close();

    const second = await startTestEmulator({ dataFile });
    expect((await second.call('GET', '/ai-agents/tools/kept')).json).toEqual(tool);
    const agents = (await second.call('GET', '/ai-agents/agents')).json as AgentRecord[];
    expect(agents).toEqual([agent]);
    expect((await second.call('PATCH', `/ai-agents/agents/${gone.uid}`, { name: 'x' })).status).toBe(404);
    // Message ids continue, and the stored message can be quoted after the restart.
    const next = ((await second.call('POST', '/messages', { receiver: 'ops', receiverType: 'group', data: { text: 'q' }, quotedMessageId: message.id })).json as MessageResponse).data;
    expect(Number(next.id)).toBe(Number(message.id) + 1);
    expect(next.quotedMessage).toEqual(message);
    const urls = (await second.call('GET', '/ai-agents/agent-builder/knowledge-base/website/web_demo/discovered-urls')).json as { data: Array<{ uniqueId: string; status: string }> };
    expect(urls.data.find((entry) => entry.uniqueId === 'url_3')?.status).toBe('skipped');
    await second.close();
  });

  it('saves changes while running, not only on close, and leaves no temporary files', async () => {
    const emu = await startTestEmulator({ dataFile });
    await emu.createTool(validTool('live'));
    // Saved within SAVE_DELAY_MS of the change, while the emulator keeps running.
    await waitFor('the data file to hold the tool', async () => (await readFile(dataFile, 'utf8').catch(() => '')).includes('"live"'), { timeoutMs: SAVE_DELAY_MS + 5000 });
    const data = JSON.parse(await readFile(dataFile, 'utf8')) as { tools: ToolRecord[] };
    expect(data.tools.map((tool) => tool.name)).toContain('live');
    expect(await readdir(folder)).toEqual(['data.json']);
    await emu.close();
  });

  it('coalesces a burst of writes and flushes the last one on close', async () => {
    const emu = await startTestEmulator({ dataFile });
    await Promise.all(Array.from({ length: 200 }, (_, i) => emu.createTool(validTool(`burst_${i}`))));
    await emu.close();
    const data = JSON.parse(await readFile(dataFile, 'utf8')) as { tools: ToolRecord[] };
    expect(data.tools.filter((tool) => tool.name.startsWith('burst_'))).toHaveLength(200);
    expect(await readdir(folder)).toEqual(['data.json']);
  });

  it('stores ISO timestamps whatever the answers use, so a file works in every mode', async () => {
    const epoch = await startTestEmulator({ dataFile, timestamps: 'epoch' });
    const answered = (await epoch.createTool(validTool('iso_on_disk'))).json as Record<string, unknown>;
    await epoch.close();
    const data = JSON.parse(await readFile(dataFile, 'utf8')) as { tools: ToolRecord[] };
    const stored = data.tools.find((tool) => tool.name === 'iso_on_disk');
    expect(stored?.createdAt).toBe(new Date(answered.createdAt as number).toISOString());
    const iso = await startTestEmulator({ dataFile });
    expect(((await iso.call('GET', '/ai-agents/tools/iso_on_disk')).json as ToolRecord).createdAt).toBe(stored?.createdAt);
    await iso.close();
  });

  it('refuses a corrupt file, or one that belongs to another app, with a clear error', async () => {
    await writeFile(dataFile, '{ not json');
    await expect(startEmulator({ port: 0, dataFile })).rejects.toThrow(DataFileError);
    await writeFile(dataFile, JSON.stringify({ version: 1 }));
    await expect(startEmulator({ port: 0, dataFile })).rejects.toThrow(/not an agentsync emulator data file/);
    const seeded = await startEmulator({ port: 0, dataFile: join(folder, 'other.json'), appId: 'other' });
    await seeded.close();
    await expect(startEmulator({ port: 0, dataFile: join(folder, 'other.json') })).rejects.toThrow(/belongs to app "other"/);
  });
});
