// The emulator's accepted request bodies, checked against the request schemas of CometChat's
// public OpenAPI files (extracts copied to test/fixtures/reference; docs/spec/server.md#the-public-reference). Where
// a version of the reference and the seed interface disagree, the emulator accepts what either
// allows; each such case below is marked `disagrees` with the version and the reason. Answers are
// checked in test/contract/emulator-answers.test.ts.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCreateResponse } from '../../src/core/api-types.js';
import { validateRequestBody, type ReferenceVersion } from '../contract/openapi.js';
import { startTestEmulator, type TestEmulator } from '../support/emulator.js';
import { validLlmAgent, validTool } from './helpers.js';

const referenceFolder = fileURLToPath(new URL('../fixtures/reference/', import.meta.url));
const messagesDoc = JSON.parse(readFileSync(`${referenceFolder}cometchat-messages.openapi-extract.json`, 'utf8')) as Record<string, unknown>;

// The AI-agent operations are checked by test/contract/openapi.ts (versions A and O); the messages
// extract is checked here with its own Ajv. OpenAPI 3.0 adds keywords (example, discriminator) that
// plain JSON Schema tools do not know.
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(messagesDoc, 'messages');
const schema = (ref: string): ValidateFunction => {
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`no schema at ${ref}`);
  return validate;
};

const MESSAGE = 'messages#/components/schemas/messageCategorySchema';
const CUSTOM = 'messages#/components/schemas/customCategorySchema';
const MESSAGE_ONE_OF = 'messages#/paths/~1messages/post/requestBody/content/application~1json/schema';

interface AcceptedCase {
  label: string;
  method: 'PUT' | 'POST' | 'PATCH';
  path: string;
  body: Record<string, unknown>;
  /** The versions whose extract rejects a body the emulator accepts, and why; absent when all agree. */
  disagrees?: { versions: ReferenceVersion[]; why: string };
}

const mastraAgent = validLlmAgent({ integrationType: 'agent', integrateWith: 'mastra', icon: 'https://example.com/a.png', integrationMeta: { baseUrl: 'https://agent.example.com', agentId: 'w' } });
const processPath = '/ai-agents/agent-builder/knowledge-base/website/web_demo/discovered-urls/process';

// Run in order: the PUT case updates the tool the first case creates.
const accepted: AcceptedCase[] = [
  { label: 'a tool with parameters (POST: A only documents it)', method: 'POST', path: '/ai-agents/tools', body: validTool('c_weather') },
  { label: 'a doNotExecute tool without parameters', method: 'POST', path: '/ai-agents/tools', body: { name: 'c_client', displayName: 'C', executionText: 'c', doNotExecute: true } },
  {
    label: 'a tool with empty parameters',
    method: 'POST',
    path: '/ai-agents/tools',
    body: validTool('c_empty', { parameters: {} }),
    // api-interface.md: parameters "may be an empty object"; ParametersDto requires type and properties.
    disagrees: { versions: ['A'], why: 'ParametersDto requires type and properties, but the seed allows {}' },
  },
  { label: 'a tool update (PUT: A and O)', method: 'PUT', path: '/ai-agents/tools/c_weather', body: validTool('c_weather', { displayName: 'Weather' }) },
  { label: 'an agent integration (mastra) with icon and baseUrl', method: 'POST', path: '/ai-agents/agents', body: mastraAgent },
  {
    label: 'an agent integration without icon',
    method: 'POST',
    path: '/ai-agents/agents',
    body: { ...mastraAgent, icon: undefined },
    // api-interface.md and A make icon optional; every DTO of O requires it.
    disagrees: { versions: ['O'], why: 'O requires icon; the seed and A make it optional' },
  },
  {
    label: 'an llm agent',
    method: 'POST',
    path: '/ai-agents/agents',
    body: validLlmAgent({ icon: 'https://example.com/a.png' }),
    // The seed and A allow integrationType llm with any integrateWith; O only covers BYO platforms.
    disagrees: { versions: ['O'], why: 'O knows only integrationType agent and a fixed integrateWith list' },
  },
  { label: 'a process call with exclude', method: 'POST', path: processPath, body: { exclude: ['url_7', 'url_9'] } },
  { label: 'a process call with an empty exclude', method: 'POST', path: processPath, body: { exclude: [] } },
];

interface MessageCase {
  label: string;
  body: Record<string, unknown>;
  /** Why the extract rejects a body the seed interface allows; absent when both agree. */
  disagrees?: string;
}

const messages: MessageCase[] = [
  { label: 'a text message with category', body: { receiver: 'bob', receiverType: 'user', category: 'message', type: 'text', data: { text: 'hi', metadata: { a: 1 } }, tags: ['t'], muid: 'm1' } },
  { label: 'a custom message', body: { receiver: 'ops', receiverType: 'group', category: 'custom', type: 'deploy', data: { customData: { v: 1 } } } },
  { label: 'a message to multipleReceivers', body: { multipleReceivers: { uids: ['alice'], guids: ['ops'] }, category: 'message', data: { text: 'hi' } } },
  {
    label: 'a text message relying on the category default',
    body: { receiver: 'bob', receiverType: 'user', data: { text: 'hi' } },
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

describe('accepted AI-agent request bodies against versions A and O', () => {
  it.each(accepted)('$label', async ({ method, path, body, disagrees }) => {
    const reply = await emu.call(method, path, body);
    expect(reply.status, JSON.stringify(reply.json)).toBeLessThan(300);
    const problems = validateRequestBody(method, path, JSON.parse(JSON.stringify(body)) as unknown);
    if (!disagrees) {
      expect(problems).toEqual([]);
      return;
    }
    for (const version of disagrees.versions)
      expect(
        problems.some((line) => line.startsWith(`${version} `)),
        `${version} should disagree: ${disagrees.why}`,
      ).toBe(true);
    expect(problems.filter((line) => !disagrees.versions.some((version) => line.startsWith(`${version} `)))).toEqual([]);
  });

  it('a PATCH with a subset of fields is a valid UpdateAgentDTO', async () => {
    const uid = ((await emu.call('POST', '/ai-agents/agents', validLlmAgent())).json as AgentCreateResponse).agent.uid;
    const body = { name: 'Renamed', isActive: false, actions: ['c_weather'] };
    expect((await emu.call('PATCH', `/ai-agents/agents/${uid}`, body)).status).toBe(200);
    expect(validateRequestBody('PATCH', `/ai-agents/agents/${uid}`, body)).toEqual([]);
  });
});

describe('accepted message bodies against the messages extract', () => {
  it.each(messages)('$label', async ({ body, disagrees }) => {
    const reply = await emu.call('POST', '/messages', body);
    expect(reply.status, JSON.stringify(reply.json)).toBeLessThan(300);
    const validate = schema(MESSAGE_ONE_OF);
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

describe('bodies both the reference and the seed reject are rejected by the emulator', () => {
  const rejected: Array<[string, string, string, Record<string, unknown>]> = [
    ['a tool name breaking the pattern', '/ai-agents/tools', 'POST', validTool('9x')],
    ['a tool without displayName', '/ai-agents/tools', 'POST', { ...validTool('nd'), displayName: undefined }],
    ['a parameter property without description', '/ai-agents/tools', 'POST', validTool('pd', { parameters: { type: 'object', properties: { a: { type: 'string' } } } })],
    ['an agent integrationType outside the enum', '/ai-agents/agents', 'POST', validLlmAgent({ integrationType: 'robot' })],
    ['a process call without exclude', processPath, 'POST', {}],
  ];
  it.each(rejected)('%s', async (_label, path, method, body) => {
    expect(validateRequestBody(method, path, JSON.parse(JSON.stringify(body)) as unknown, { versions: ['A'] })).not.toEqual([]);
    expect((await emu.call(method, path, body)).status).toBe(400);
  });

  it('a message with an unknown type', async () => {
    const body = { receiver: 'bob', receiverType: 'user', category: 'message', type: 'sticker', data: { text: 'x' } };
    expect(schema(MESSAGE_ONE_OF)(body)).toBe(false);
    expect((await emu.call('POST', '/messages', body)).status).toBe(400);
  });
});
