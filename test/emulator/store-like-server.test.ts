// docs/spec/emulator.md#stores-like-a-server: by default the emulator stores like a document
// database behind a validator, so the client is tested against a server that is not an echo;
// --store-as-sent keeps the echo.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCreateResponse, AgentRecord, ToolRecord } from '../../src/core/api-types.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { validLlmAgent, validTool } from './helpers.js';

describe.each([
  ['stores like a server (default)', false],
  ['stores as sent', true],
])('the emulator %s', (_name, storeAsSent) => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ storeAsSent });
    for (const name of ['b_tool', 'a_tool']) expect((await emu.createTool(validTool(name))).status).toBe(200);
  });
  afterAll(() => emu.close());

  it('fills the empty value of every optional field not sent, adds _id and __v, and sorts sets (not the ordered suggestions)', async () => {
    const reply = await emu.call('POST', '/ai-agents/agents', validLlmAgent({ actions: ['b_tool', 'a_tool'], suggestions: ['z', 'a'], platformTools: ['kb'] }));
    const { agent } = reply.json as AgentCreateResponse;
    if (storeAsSent) {
      expect(agent).not.toHaveProperty('icon');
      expect(agent).not.toHaveProperty('_id');
      expect(agent.actions).toEqual(['b_tool', 'a_tool']);
      expect(agent.platformTools).toEqual(['kb']);
      return;
    }
    expect(agent).toMatchObject({ icon: '', instruction: '', metaData: {}, integrationMeta: {}, suggestions: ['z', 'a'], cometchatTools: ['kb'], actions: ['a_tool', 'b_tool'], __v: 0 });
    expect(agent._id).toMatch(/^[0-9a-f]{24}$/);
    expect(agent).not.toHaveProperty('platformTools');
    expect((await emu.call('PATCH', `/ai-agents/agents/${agent.uid}`, { instruction: 'Hi' })).status).toBe(200);
    const listed = ((await emu.call('GET', '/ai-agents/agents')).json as AgentRecord[]).find((a) => a.uid === agent.uid);
    expect(listed).toMatchObject({ instruction: 'Hi', _id: agent._id, __v: 1 });
  });

  it('fills parameters.required on a tool and counts versions', async () => {
    const body = validTool('with_params', { parameters: { type: 'object', properties: { city: { type: 'string', description: 'City' } } } });
    expect((await emu.createTool(body)).status).toBe(200);
    const tool = (await emu.call('GET', '/ai-agents/tools/with_params')).json as ToolRecord;
    if (storeAsSent) expect(tool.tool.parameters).not.toHaveProperty('required');
    else expect(tool).toMatchObject({ __v: 0, tool: { parameters: { required: [] } } });
  });

  it("keeps a tool's parameters.required as a set: sorted and without repeats (src/emulator/resources/tool/storage.ts)", async () => {
    const properties = { b: { type: 'string', description: 'B' }, a: { type: 'string', description: 'A' } };
    const body = validTool('with_required', { parameters: { type: 'object', properties, required: ['b', 'a', 'b'] } });
    expect((await emu.createTool(body)).status).toBe(200);
    const tool = (await emu.call('GET', '/ai-agents/tools/with_required')).json as ToolRecord;
    expect(tool.tool.parameters?.required).toEqual(storeAsSent ? ['b', 'a', 'b'] : ['a', 'b']);
  });

  it("keeps a tool's stored description when a PUT leaves it out, and fills none on a create (src/emulator/resources/tool/storage.ts)", async () => {
    const bare = { name: 'no_description', displayName: 'N', executionText: 'N', doNotExecute: true };
    expect((await emu.createTool(bare)).status).toBe(200);
    expect(((await emu.call('GET', '/ai-agents/tools/no_description')).json as ToolRecord).tool).not.toHaveProperty('description');
    expect((await emu.call('PUT', '/ai-agents/tools/no_description', { ...bare, description: 'Kept' })).status).toBe(200);
    expect((await emu.call('PUT', '/ai-agents/tools/no_description', { ...bare, displayName: 'M' })).status).toBe(200);
    const tool = (await emu.call('GET', '/ai-agents/tools/no_description')).json as ToolRecord;
    expect(tool).toMatchObject({ displayName: 'M', type: 'tool', tool: { description: 'Kept' } });
  });
});
