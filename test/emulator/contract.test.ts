// The emulator's accepted request bodies, checked against the request schemas of CometChat's
// public OpenAPI files (the extracts of shared/reference, copied to test/fixtures/reference). Where api-interface.md (the seed
// interface, our authority) and an extract disagree, the emulator follows the seed; each such case
// below is marked `disagrees` with the reason.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, validLlmAgent, validTool, type TestEmulator } from './helpers.js';

const referenceFolder = fileURLToPath(new URL('../fixtures/reference/', import.meta.url));
const agentsDoc = JSON.parse(readFileSync(`${referenceFolder}cometchat-ai-agents.openapi-extract.json`, 'utf8')) as Record<string, unknown>;
const messagesDoc = JSON.parse(readFileSync(`${referenceFolder}cometchat-messages.openapi-extract.json`, 'utf8')) as Record<string, unknown>;

// OpenAPI 3.0 adds keywords (example, discriminator, format: url) that plain JSON Schema tools do not know.
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(agentsDoc, 'agents');
ajv.addSchema(messagesDoc, 'messages');
const schema = (ref: string): ValidateFunction => {
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`no schema at ${ref}`);
  return validate;
};

const TOOL = 'agents#/components/schemas/ToolDto';
const AGENT = 'agents#/components/schemas/CreateAgentDTO';
const PROCESS = 'agents#/components/schemas/ProcessDiscoveredUrlsDto';
const MESSAGE = 'messages#/components/schemas/messageCategorySchema';
const CUSTOM = 'messages#/components/schemas/customCategorySchema';
const MESSAGE_ONE_OF = 'messages#/paths/~1messages/post/requestBody/content/application~1json/schema';

interface AcceptedCase {
  label: string;
  method: 'PUT' | 'POST';
  path: string;
  body: Record<string, unknown>;
  schemaRef: string;
  /** Why the extract rejects a body the seed interface allows; absent when both agree. */
  disagrees?: string;
}

const mastraAgent = validLlmAgent({ integrationType: 'agent', integrateWith: 'mastra', icon: 'https://example.com/a.png', integrationMeta: { baseUrl: 'https://agent.example.com', agentId: 'w' } });

const accepted: AcceptedCase[] = [
  { label: 'a tool with parameters', method: 'PUT', path: '/ai-agents/tools/c_weather', body: validTool('c_weather'), schemaRef: TOOL },
  { label: 'a doNotExecute tool without parameters', method: 'PUT', path: '/ai-agents/tools/c_client', body: { name: 'c_client', displayName: 'C', executionText: 'c', doNotExecute: true }, schemaRef: TOOL },
  {
    label: 'a tool with empty parameters',
    method: 'PUT',
    path: '/ai-agents/tools/c_empty',
    body: validTool('c_empty', { parameters: {} }),
    schemaRef: TOOL,
    // api-interface.md: parameters "may be an empty object"; the extract's ParametersDto requires type and properties.
    disagrees: 'ParametersDto requires type and properties, but the seed allows {}',
  },
  { label: 'an agent integration (mastra) with icon and baseUrl', method: 'POST', path: '/ai-agents/agents', body: mastraAgent, schemaRef: AGENT },
  {
    label: 'an agent integration without icon',
    method: 'POST',
    path: '/ai-agents/agents',
    body: { ...mastraAgent, icon: undefined },
    schemaRef: AGENT,
    // api-interface.md marks icon optional; every DTO in the extract lists it as required.
    disagrees: 'the extract requires icon; the seed makes it optional',
  },
  {
    label: 'an llm agent',
    method: 'POST',
    path: '/ai-agents/agents',
    body: validLlmAgent({ icon: 'https://example.com/a.png' }),
    schemaRef: AGENT,
    // api-interface.md allows integrationType llm with any integrateWith; the extract only covers BYO platforms.
    disagrees: 'the extract knows only integrationType agent and a fixed integrateWith list',
  },
  { label: 'a process call with exclude', method: 'POST', path: '/ai-agents/agent-builder/knowledge-base/website/web_demo/discovered-urls/process', body: { exclude: ['url_7', 'url_9'] }, schemaRef: PROCESS },
  { label: 'a process call with an empty exclude', method: 'POST', path: '/ai-agents/agent-builder/knowledge-base/website/web_demo/discovered-urls/process', body: { exclude: [] }, schemaRef: PROCESS },
  { label: 'a text message with category', method: 'POST', path: '/messages', body: { receiver: 'bob', receiverType: 'user', category: 'message', type: 'text', data: { text: 'hi', metadata: { a: 1 } }, tags: ['t'], muid: 'm1' }, schemaRef: MESSAGE_ONE_OF },
  { label: 'a custom message', method: 'POST', path: '/messages', body: { receiver: 'ops', receiverType: 'group', category: 'custom', type: 'deploy', data: { customData: { v: 1 } } }, schemaRef: MESSAGE_ONE_OF },
  { label: 'a message to multipleReceivers', method: 'POST', path: '/messages', body: { multipleReceivers: { uids: ['alice'], guids: ['ops'] }, category: 'message', data: { text: 'hi' } }, schemaRef: MESSAGE_ONE_OF },
  {
    label: 'a text message relying on the category default',
    method: 'POST',
    path: '/messages',
    body: { receiver: 'bob', receiverType: 'user', data: { text: 'hi' } },
    schemaRef: MESSAGE_ONE_OF,
    // Both oneOf branches match a body without category (neither declares it required), so oneOf fails;
    // api-interface.md gives category the default "message". The body is valid against that branch alone.
    disagrees: 'oneOf without a required discriminator matches both branches',
  },
];

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

describe('accepted request bodies against the OpenAPI extracts', () => {
  it.each(accepted)('$label', async ({ method, path, body, schemaRef, disagrees }) => {
    const reply = await emu.call(method, path, body);
    expect(reply.status, JSON.stringify(reply.json)).toBeLessThan(300);
    const validate = schema(schemaRef);
    const valid = validate(body);
    if (disagrees) {
      expect(valid, `expected the extract to disagree: ${disagrees}`).toBe(false);
    } else {
      expect(validate.errors ?? []).toEqual([]);
    }
  });

  it('a message without category is valid against the message branch the seed default picks', () => {
    expect(schema(MESSAGE)({ receiver: 'bob', receiverType: 'user', data: { text: 'hi' } })).toBe(true);
    expect(schema(CUSTOM)({ receiver: 'ops', receiverType: 'group', category: 'custom', type: 'x', data: { customData: {} } })).toBe(true);
  });
});

describe('bodies both the extract and the seed reject are rejected by the emulator', () => {
  const rejected: Array<[string, string, string, Record<string, unknown>, string]> = [
    ['a tool name breaking the pattern', '/ai-agents/tools/9x', 'PUT', validTool('9x'), TOOL],
    ['a tool without displayName', '/ai-agents/tools/nd', 'PUT', { ...validTool('nd'), displayName: undefined }, TOOL],
    ['a parameter property without description', '/ai-agents/tools/pd', 'PUT', validTool('pd', { parameters: { type: 'object', properties: { a: { type: 'string' } } } }), TOOL],
    ['an agent integration without baseUrl', '/ai-agents/agents', 'POST', { ...mastraAgent, integrationMeta: { agentId: 'w' } }, AGENT],
    ['a process call without exclude', '/ai-agents/agent-builder/knowledge-base/website/web_demo/discovered-urls/process', 'POST', {}, PROCESS],
    ['a message with an unknown type', '/messages', 'POST', { receiver: 'bob', receiverType: 'user', category: 'message', type: 'sticker', data: { text: 'x' } }, MESSAGE_ONE_OF],
  ];
  it.each(rejected)('%s', async (_label, path, method, body, schemaRef) => {
    expect(schema(schemaRef)(JSON.parse(JSON.stringify(body)))).toBe(false);
    const reply = await emu.call(method, path, body);
    expect(reply.status).toBe(400);
  });
});

describe('responses against the extracts', () => {
  it('the batch result matches the documented response schema', async () => {
    const reply = await emu.call('POST', '/ai-agents/agent-builder/knowledge-base/website/web_demo/discovered-urls/process', { exclude: [] });
    const responseSchema = schema('agents#/paths/~1ai-agents~1agent-builder~1knowledge-base~1website~1{parentUniqueId}~1discovered-urls~1process/post/responses/200/content/application~1json/schema');
    expect(responseSchema(reply.json)).toBe(true);
  });

  it('the tool record matches the response schema except for timestamp types', async () => {
    const reply = await emu.call('PUT', '/ai-agents/tools/r_tool', validTool('r_tool'));
    const responseSchema = schema('agents#/paths/~1ai-agents~1tools~1{name}/put/responses/200/content/application~1json/schema');
    // api-interface.md types createdAt/updatedAt as date-time strings; the extract says integer. We follow the seed.
    const record = reply.json as Record<string, unknown>;
    expect(responseSchema({ ...record, createdAt: 0, updatedAt: 0 })).toBe(true);
    expect(responseSchema(record)).toBe(false);
  });
});
