import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolRecord } from '../../src/core/api-types.js';
import { errorCode, errorMessage, sleep, startTestEmulator, validTool, type TestEmulator } from './helpers.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ appId: 'app1' });
});
afterAll(() => emu.close());

const put = (name: string, body: unknown) => emu.call('PUT', `/ai-agents/tools/${encodeURIComponent(name)}`, body);

describe('PUT /ai-agents/tools/{name}', () => {
  it('creates the documented record', async () => {
    const reply = await put('get_weather', validTool('get_weather'));
    expect(reply.status).toBe(200);
    const tool = reply.json as ToolRecord;
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
  });

  it('keeps createdAt across updates and moves updatedAt', async () => {
    const first = (await put('stamp', validTool('stamp'))).json as ToolRecord;
    await sleep(5);
    const second = (await put('stamp', validTool('stamp', { displayName: 'Renamed' }))).json as ToolRecord;
    expect(second.createdAt).toBe(first.createdAt);
    expect(Date.parse(second.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
    expect(second.displayName).toBe('Renamed');
  });

  it('moves updatedAt even for two updates in the same millisecond', async () => {
    const replies = await Promise.all([put('burst', validTool('burst')), put('burst', validTool('burst'))]);
    const [a, b] = replies.map((reply) => (reply.json as ToolRecord).updatedAt);
    expect(a).not.toBe(b);
  });

  it('types a doNotExecute tool as "tool" and lets description and parameters go', async () => {
    const reply = await put('client_side', { name: 'client_side', displayName: 'C', executionText: 'c', doNotExecute: true });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ type: 'tool', doNotExecute: true, tool: { name: 'client_side' } });
    expect((reply.json as ToolRecord).tool).not.toHaveProperty('description');
    const withEmpty = await put('client_side2', { name: 'client_side2', displayName: 'C', executionText: 'c', doNotExecute: true, parameters: {} });
    expect(withEmpty.status).toBe(200);
  });

  it('accepts empty parameters and keeps extra JSON Schema keywords on a property', async () => {
    expect((await put('no_params', validTool('no_params', { parameters: {} }))).status).toBe(200);
    const parameters = { type: 'object', properties: { unit: { type: 'string', description: 'Unit', enum: ['c', 'f'] } } };
    const reply = await put('kw', validTool('kw', { parameters }));
    expect(reply.status).toBe(200);
    expect((reply.json as ToolRecord).tool.parameters).toEqual(parameters);
  });

  it('accepts the full name alphabet: letters, digits, _, $ and -', async () => {
    const reply = await put('$a-b_9', validTool('$a-b_9'));
    expect(reply.status).toBe(200);
    expect((reply.json as ToolRecord)._id).toBe('app1_$a-b_9');
  });

  const rejections: Array<[string, string, unknown, string]> = [
    ['a name starting with a digit', '9lives', validTool('9lives'), 'name'],
    ['a name with a space', 'a b', validTool('a b'), 'name'],
    ['a missing displayName', 'x1', validTool('x1', { displayName: undefined }), 'displayName'],
    ['a numeric displayName', 'x1', validTool('x1', { displayName: 5 }), 'displayName'],
    ['a missing executionText', 'x1', validTool('x1', { executionText: undefined }), 'executionText'],
    ['a missing description without doNotExecute', 'x1', validTool('x1', { description: undefined }), 'description'],
    ['missing parameters without doNotExecute', 'x1', validTool('x1', { parameters: undefined }), 'parameters'],
    ['non-empty parameters with doNotExecute', 'x1', validTool('x1', { doNotExecute: true }), 'parameters'],
    ['a non-boolean doNotExecute', 'x1', validTool('x1', { doNotExecute: 'yes' }), 'doNotExecute'],
    ['parameters.type other than object', 'x1', validTool('x1', { parameters: { type: 'array', properties: {} } }), 'parameters.type'],
    ['parameters without properties', 'x1', validTool('x1', { parameters: { type: 'object' } }), 'parameters.properties'],
    ['a property without description', 'x1', validTool('x1', { parameters: { type: 'object', properties: { a: { type: 'string' } } } }), 'parameters.properties.a.description'],
    ['a property with a non-string type', 'x1', validTool('x1', { parameters: { type: 'object', properties: { a: { type: 1, description: 'd' } } } }), 'parameters.properties.a.type'],
    ['required naming a missing property', 'x1', validTool('x1', { parameters: { type: 'object', properties: {}, required: ['ghost'] } }), 'ghost'],
    ['required that is not a string array', 'x1', validTool('x1', { parameters: { type: 'object', properties: {}, required: 'a' } }), 'parameters.required'],
    ['an unknown key in parameters', 'x1', validTool('x1', { parameters: { type: 'object', properties: {}, extra: true } }), 'parameters.extra'],
    ['an unknown top-level key (a typo)', 'x1', { ...validTool('x1'), displayname: 'typo' }, 'displayname'],
    ['a path name that differs from the body name', 'other', validTool('x1'), 'name'],
    ['an array body', 'x1', [validTool('x1')], 'JSON object'],
  ];
  it.each(rejections)('rejects %s with 400 naming the field', async (_label, pathName, body, field) => {
    const reply = await put(pathName, body);
    expect(reply.status).toBe(400);
    expect(errorCode(reply)).toBe('ERR_BAD_REQUEST');
    expect(errorMessage(reply)).toContain(field);
    expect((await emu.call('GET', `/ai-agents/tools/${encodeURIComponent(pathName)}`)).status).toBe(404);
  });

  it('decodes a percent-encoded path name before comparing it with the body', async () => {
    const reply = await emu.call('PUT', '/ai-agents/tools/%24dollar', validTool('$dollar'));
    expect(reply.status).toBe(200);
  });
});

describe('merge semantics: why a client must send every field it manages', () => {
  it('keeps a description the body no longer carries', async () => {
    await put('merge_me', validTool('merge_me', { description: 'Old description' }));
    // The manifest turned the tool into a client-side tool and dropped its description and parameters.
    // A client that sends only what is left does NOT remove them on the server:
    const reply = await put('merge_me', { name: 'merge_me', displayName: 'M', executionText: 'm', doNotExecute: true });
    const tool = reply.json as ToolRecord;
    expect(tool.type).toBe('tool');
    expect(tool.tool.description).toBe('Old description');
    expect(tool.tool.parameters).toEqual(validTool('x').parameters);
    // Only sending the fields explicitly (empty values) brings the server in line with the manifest.
    const fixed = (await put('merge_me', { name: 'merge_me', displayName: 'M', executionText: 'm', doNotExecute: true, description: '', parameters: {} })).json as ToolRecord;
    expect(fixed.tool.description).toBe('');
    expect(fixed.tool.parameters).toEqual({});
  });

  it('replaces, not deep-merges, the parameters object', async () => {
    await put('params_replace', validTool('params_replace'));
    const parameters = { type: 'object', properties: { zip: { type: 'string', description: 'Zip' } } };
    const tool = (await put('params_replace', validTool('params_replace', { parameters }))).json as ToolRecord;
    expect(tool.tool.parameters).toEqual(parameters);
  });

  it('resets doNotExecute to its default false when the body leaves it out', async () => {
    await put('flip', { name: 'flip', displayName: 'F', executionText: 'f', doNotExecute: true });
    const tool = (await put('flip', validTool('flip'))).json as ToolRecord;
    expect(tool).toMatchObject({ doNotExecute: false, type: 'action' });
  });
});

describe('GET and DELETE', () => {
  it('lists tools and filters by type', async () => {
    await put('list_action', validTool('list_action'));
    await put('list_tool', { name: 'list_tool', displayName: 'T', executionText: 't', doNotExecute: true });
    const all = (await emu.call('GET', '/ai-agents/tools')).json as ToolRecord[];
    expect(all.map((tool) => tool.name)).toEqual(expect.arrayContaining(['list_action', 'list_tool', 'search_web']));
    const actions = (await emu.call('GET', '/ai-agents/tools?type=action')).json as ToolRecord[];
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.every((tool) => tool.type === 'action')).toBe(true);
    const tools = (await emu.call('GET', '/ai-agents/tools?type=tool')).json as ToolRecord[];
    expect(tools.map((tool) => tool.name)).toContain('list_tool');
    expect(tools.every((tool) => tool.type === 'tool')).toBe(true);
    expect((await emu.call('GET', '/ai-agents/tools?type=bogus')).status).toBe(400);
  });

  it('gets one tool and answers 404 ERR_TOOL_NOT_FOUND for an unknown one', async () => {
    await put('get_one', validTool('get_one'));
    expect(((await emu.call('GET', '/ai-agents/tools/get_one')).json as ToolRecord).name).toBe('get_one');
    const missing = await emu.call('GET', '/ai-agents/tools/nope');
    expect(missing.status).toBe(404);
    expect(errorCode(missing)).toBe('ERR_TOOL_NOT_FOUND');
  });

  it('deletes a tool with { deleted: true }, then 404s', async () => {
    await put('doomed', validTool('doomed'));
    const reply = await emu.call('DELETE', '/ai-agents/tools/doomed');
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ deleted: true });
    expect((await emu.call('GET', '/ai-agents/tools/doomed')).status).toBe(404);
    const again = await emu.call('DELETE', '/ai-agents/tools/doomed');
    expect(again.status).toBe(404);
    expect(errorCode(again)).toBe('ERR_TOOL_NOT_FOUND');
  });
});
