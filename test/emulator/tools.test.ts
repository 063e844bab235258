import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolRecord } from '../../src/core/api-types.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { waitFor } from '../support/wait.js';
import { agentsError, clientTool, errorMessage, validTool } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ appId: 'app1' });
});
afterAll(() => emu.close());

const put = (name: string, body: unknown) => emu.call('PUT', `/ai-agents/tools/${encodeURIComponent(name)}`, body);
const post = (body: unknown) => emu.call('POST', '/ai-agents/tools', body);
const created = async (body: Record<string, unknown>): Promise<ToolRecord> => {
  const reply = await post(body);
  expect(reply.status, JSON.stringify(reply.json)).toBe(200);
  return reply.json as ToolRecord;
};
const names = async (): Promise<string[]> => ((await emu.call('GET', '/ai-agents/tools')).json as ToolRecord[]).map((tool) => tool.name);

describe('POST /ai-agents/tools', () => {
  it('creates the documented record and answers 200', async () => {
    const tool = await created(validTool('get_weather'));
    expect(tool).toMatchObject({
      _id: 'app1_get_weather',
      appId: 'app1',
      name: 'get_weather',
      type: 'action',
      displayName: 'Tool get_weather',
      executionText: 'Running get_weather',
      doNotExecute: false,
      tool: { name: 'get_weather', description: 'Does get_weather', parameters: validTool('x').parameters },
    });
    expect(Date.parse(tool.createdAt)).not.toBeNaN();
    expect(tool.updatedAt).toBe(tool.createdAt);
    expect(await names()).toContain('get_weather');
  });

  it('answers 400 for a second POST of the same name and keeps the first tool', async () => {
    const first = await created(validTool('dup', { displayName: 'First' }));
    const again = await post(validTool('dup', { displayName: 'Second' }));
    expect(again.status).toBe(400);
    expect(agentsError(again)).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(errorMessage(again)).toContain("'dup' already exists");
    expect((await emu.call('GET', '/ai-agents/tools/dup')).json).toEqual(first);
  });

  it('types a doNotExecute tool as "tool" and lets description and parameters go', async () => {
    const tool = await created(clientTool('client_side'));
    expect(tool).toMatchObject({ type: 'tool', doNotExecute: true, tool: { name: 'client_side' } });
    expect(tool.tool).not.toHaveProperty('description');
    expect((await post(clientTool('client_side2', { parameters: {} }))).status).toBe(200);
  });

  it('accepts empty parameters and keeps extra JSON Schema keywords on a property', async () => {
    expect((await post(validTool('no_params', { parameters: {} }))).status).toBe(200);
    const parameters = { type: 'object', properties: { unit: { type: 'string', description: 'Unit', enum: ['c', 'f'] } } };
    expect((await created(validTool('kw', { parameters }))).tool.parameters).toEqual({ ...parameters, required: [] });
  });

  it('accepts the full name alphabet: letters, digits, _, $ and -', async () => {
    expect((await created(validTool('$a-b_9')))._id).toBe('app1_$a-b_9');
  });

  const rejections: Array<[string, unknown, string]> = [
    ['a name starting with a digit', validTool('9lives'), 'name'],
    ['a name with a space', validTool('a b'), 'name'],
    ['a missing name', validTool('x1', { name: undefined }), 'name'],
    ['a missing displayName', validTool('x1', { displayName: undefined }), 'displayName'],
    ['a numeric displayName', validTool('x1', { displayName: 5 }), 'displayName'],
    ['a missing executionText', validTool('x1', { executionText: undefined }), 'executionText'],
    ['a missing description without doNotExecute', validTool('x1', { description: undefined }), 'description'],
    ['missing parameters without doNotExecute', validTool('x1', { parameters: undefined }), 'parameters'],
    ['non-empty parameters with doNotExecute', validTool('x1', { doNotExecute: true }), 'parameters'],
    ['a non-boolean doNotExecute', validTool('x1', { doNotExecute: 'yes' }), 'doNotExecute'],
    ['parameters.type other than object', validTool('x1', { parameters: { type: 'array', properties: {} } }), 'parameters.type'],
    ['parameters without properties', validTool('x1', { parameters: { type: 'object' } }), 'parameters.properties'],
    ['a property without description', validTool('x1', { parameters: { type: 'object', properties: { a: { type: 'string' } } } }), 'parameters.properties.a.description'],
    ['a property with a non-string type', validTool('x1', { parameters: { type: 'object', properties: { a: { type: 1, description: 'd' } } } }), 'parameters.properties.a.type'],
    ['required naming a missing property', validTool('x1', { parameters: { type: 'object', properties: {}, required: ['ghost'] } }), 'ghost'],
    ['required that is not a string array', validTool('x1', { parameters: { type: 'object', properties: {}, required: 'a' } }), 'parameters.required'],
    ['an unknown key in parameters', validTool('x1', { parameters: { type: 'object', properties: {}, extra: true } }), 'parameters.extra'],
    ['an unknown top-level key (a typo)', { ...validTool('x1'), displayname: 'typo' }, 'displayname'],
    ['an array body', [validTool('x1')], 'JSON object'],
  ];
  it.each(rejections)('rejects %s with 400 naming the field', async (_label, body, field) => {
    const before = await names();
    const reply = await post(body);
    expect(reply.status).toBe(400);
    expect(agentsError(reply).error).toBe('Bad Request');
    expect(errorMessage(reply)).toContain(field);
    expect(await names()).toEqual(before);
  });
});

describe('PUT /ai-agents/tools/{name}', () => {
  it('answers 404 for an unknown name and creates nothing', async () => {
    const reply = await put('never_created', validTool('never_created'));
    expect(reply.status).toBe(404);
    expect(agentsError(reply)).toMatchObject({ statusCode: 404, error: 'Not Found' });
    expect(errorMessage(reply)).toContain('POST /ai-agents/tools');
    expect((await emu.call('GET', '/ai-agents/tools/never_created')).status).toBe(404);
  });

  it('validates the body before looking the name up: a bad body is a 400 even for an unknown name', async () => {
    expect((await put('never_created', validTool('never_created', { displayName: undefined }))).status).toBe(400);
    expect((await put('never_created', validTool('other_name'))).status).toBe(400);
  });

  it('updates, keeping createdAt and moving updatedAt; the list shows it at once', async () => {
    const first = await created(validTool('stamp'));
    await waitFor('the clock to pass the first updatedAt', () => Date.now() > Date.parse(first.updatedAt));
    const reply = await put('stamp', validTool('stamp', { displayName: 'Renamed' }));
    expect(reply.status).toBe(200);
    const second = reply.json as ToolRecord;
    expect(second.createdAt).toBe(first.createdAt);
    expect(Date.parse(second.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
    const listed = ((await emu.call('GET', '/ai-agents/tools')).json as ToolRecord[]).find((tool) => tool.name === 'stamp');
    expect(listed).toEqual(second);
  });

  it('moves updatedAt even for two updates in the same millisecond', async () => {
    await created(validTool('burst'));
    const replies = await Promise.all([put('burst', validTool('burst')), put('burst', validTool('burst'))]);
    const [a, b] = replies.map((reply) => (reply.json as ToolRecord).updatedAt);
    expect(a).not.toBe(b);
  });

  it('rejects a body that renames the tool, with 400', async () => {
    await created(validTool('fixed_name'));
    const reply = await put('fixed_name', validTool('new_name'));
    expect(reply.status).toBe(400);
    expect(errorMessage(reply)).toContain('cannot be renamed');
  });

  it('decodes a percent-encoded path name before comparing it with the body', async () => {
    await created(validTool('$dollar'));
    expect((await emu.call('PUT', '/ai-agents/tools/%24dollar', validTool('$dollar'))).status).toBe(200);
  });
});

describe('merge semantics: why a client must send every field it manages', () => {
  it('keeps a description the body no longer carries', async () => {
    await created(validTool('merge_me', { description: 'Old description' }));
    // The manifest turned the tool into a client-side tool and dropped its description and parameters.
    // A client that sends only what is left does NOT remove them on the server:
    const tool = (await put('merge_me', clientTool('merge_me'))).json as ToolRecord;
    expect(tool.type).toBe('tool');
    expect(tool.tool.description).toBe('Old description');
    expect(tool.tool.parameters).toEqual(validTool('x').parameters);
    // Only sending the fields explicitly (empty values) brings the server in line with the manifest.
    const fixed = (await put('merge_me', clientTool('merge_me', { description: '', parameters: {} }))).json as ToolRecord;
    expect(fixed.tool.description).toBe('');
    expect(fixed.tool.parameters).toEqual({});
  });

  it('replaces, not deep-merges, the parameters object', async () => {
    await created(validTool('params_replace'));
    const parameters = { type: 'object', properties: { zip: { type: 'string', description: 'Zip' } } };
    const tool = (await put('params_replace', validTool('params_replace', { parameters }))).json as ToolRecord;
    expect(tool.tool.parameters).toEqual({ ...parameters, required: [] });
  });

  it('resets doNotExecute to its default false when the body leaves it out, which makes it an action', async () => {
    await created(clientTool('flip'));
    const tool = (await put('flip', validTool('flip'))).json as ToolRecord;
    expect(tool).toMatchObject({ doNotExecute: false, type: 'action' });
  });
});

describe('GET and DELETE', () => {
  it('lists tools and filters by type', async () => {
    await created(validTool('list_action'));
    await created(clientTool('list_tool'));
    expect(await names()).toEqual(expect.arrayContaining(['list_action', 'list_tool', 'search_web']));
    const actions = (await emu.call('GET', '/ai-agents/tools?type=action')).json as ToolRecord[];
    expect(actions.map((tool) => tool.name)).toContain('list_action');
    expect(actions.every((tool) => tool.type === 'action')).toBe(true);
    const tools = (await emu.call('GET', '/ai-agents/tools?type=tool')).json as ToolRecord[];
    expect(tools.map((tool) => tool.name)).toContain('list_tool');
    expect(tools.every((tool) => tool.type === 'tool')).toBe(true);
    const bogus = await emu.call('GET', '/ai-agents/tools?type=bogus');
    expect([bogus.status, agentsError(bogus).error]).toEqual([400, 'Bad Request']);
  });

  it('gets one tool and answers 404 for an unknown one', async () => {
    await created(validTool('get_one'));
    expect(((await emu.call('GET', '/ai-agents/tools/get_one')).json as ToolRecord).name).toBe('get_one');
    const missing = await emu.call('GET', '/ai-agents/tools/nope');
    expect(missing.status).toBe(404);
    expect(agentsError(missing)).toEqual({ statusCode: 404, message: "Tool 'nope' does not exist.", error: 'Not Found' });
  });

  it('deletes a tool with { deleted: true }; it leaves the list at once, then 404s', async () => {
    await created(validTool('doomed'));
    const reply = await emu.call('DELETE', '/ai-agents/tools/doomed');
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ deleted: true });
    expect(await names()).not.toContain('doomed');
    expect((await emu.call('GET', '/ai-agents/tools/doomed')).status).toBe(404);
    const again = await emu.call('DELETE', '/ai-agents/tools/doomed');
    expect(again.status).toBe(404);
    agentsError(again);
  });

  it('lets a deleted name be created again with POST', async () => {
    await created(validTool('reborn'));
    await emu.call('DELETE', '/ai-agents/tools/reborn');
    expect((await post(validTool('reborn'))).status).toBe(200);
  });
});

describe('putCreates: the seed reading, where PUT creates an unknown tool', () => {
  it('is off by default, on with the option, and switchable at runtime', async () => {
    const upsert = await startTestEmulator({ putCreates: true });
    try {
      const reply = await upsert.call('PUT', '/ai-agents/tools/upserted', validTool('upserted'));
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ name: 'upserted', type: 'action' });
      expect((await upsert.admin('GET', '/config')).json).toMatchObject({ putCreates: true });
      // POST still refuses a name that exists, whichever way it was created.
      expect((await upsert.createTool(validTool('upserted'))).status).toBe(400);
      expect((await upsert.admin('POST', '/config', { putCreates: false })).json).toMatchObject({ putCreates: false });
      expect((await upsert.call('PUT', '/ai-agents/tools/upserted_2', validTool('upserted_2'))).status).toBe(404);
      // Updating an existing tool works either way.
      expect((await upsert.call('PUT', '/ai-agents/tools/upserted', validTool('upserted'))).status).toBe(200);
    } finally {
      await upsert.close();
    }
  });
});
