// Every request body the client sends, checked against CometChat's public request schemas. The
// built CLI applies a manifest that uses every field (then removes optional ones, which makes the
// PATCH clear them), the emulator logs each body, and each logged body is validated.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';
import { runCli } from '../support/cli.js';
import { validateRequestBody, type ReferenceVersion } from './openapi.js';

const FULL = `version: 1
environments:
  local: { appId: local, region: us }
tools:
  with_params:
    displayName: With params
    executionText: Working
    description: Has parameters
    parameters: { type: object, properties: { city: { type: string, description: City, enum: [a, b] } }, required: [city] }
  no_params:
    displayName: No params
    executionText: Working
    description: Executes, takes nothing
    parameters: {}
  client_side:
    displayName: Client side
    executionText: Showing
    doNotExecute: true
agents:
  llm_agent:
    name: LLM agent
    integrationType: llm
    integrateWith: gpt-4o
    tools: [client_side]
    actions: [with_params, no_params]
    icon: https://example.com/i.png
    instruction: Be kind.
    suggestions: [Hello?]
    platformTools: [web_search]
    metaData: { team: support }
  remote_agent:
    name: Remote agent
    integrationType: agent
    integrateWith: langgraph
    integrationMeta: { baseUrl: "https://agent.example.com", headers: { Authorization: "\${secret:TOKEN}" } }
knowledgeBase:
  websites:
    docs: { parentUniqueId: web_demo, exclude: [url_1] }
`;

/** The same, with every optional agent field removed: the PATCH clears them. */
const TRIMMED = FULL.replace(/ {4}icon: .*\n {4}instruction: .*\n {4}suggestions: .*\n {4}platformTools: .*\n {4}metaData: .*\n/, '');

/**
 * Which public versions each body must satisfy, and why not both:
 * - Agent bodies: version O documents only `integrationType: agent` with a fixed set of
 *   frameworks (`integrateWith` enum) and requires `icon`; the seed and version A allow `llm`
 *   agents and an agent without an icon, which the manifest allows too. So agent bodies are held
 *   to A, which is the version that documents every operation.
 * - Everything else is held to every version that documents the operation.
 */
function versionsFor(method: string, path: string): readonly ReferenceVersion[] {
  return path.startsWith('/v3/ai-agents/agents') ? ['A'] : ['A', 'O'];
}

/** Where a body holds a null, if anywhere: none of the public schemas allows one (docs/spec/server.md#how-records-compare). */
function nullPath(value: unknown, path = ''): string | undefined {
  if (value === null) return path || '(body)';
  if (typeof value !== 'object') return undefined;
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    const found = nullPath(member, `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A PATCH clears an optional field with its type's empty value. */
function clearedFields(body: Record<string, unknown>): string[] {
  return Object.entries(body)
    .filter(([, value]) => value === '' || (Array.isArray(value) && value.length === 0) || (typeof value === 'object' && value !== null && Object.keys(value).length === 0))
    .map(([key]) => key);
}

describe.each([
  ['the public reference', false, false],
  ['the seed reading (--put-creates)', true, false],
  ['a server that stores as sent (--store-as-sent)', false, true],
])('every request body the client sends, against %s', (_name, putCreates, storeAsSent) => {
  let emu: TestEmulator;
  let dir: string;
  beforeAll(async () => {
    emu = await startTestEmulator({ putCreates, storeAsSent });
    dir = await mkdtemp(join(tmpdir(), 'agentsync-contract-'));
  });
  afterAll(async () => {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('matches the public request schemas', async () => {
    const env = { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url, TOKEN: 'Bearer t0ken' };
    await writeFile(join(dir, 'agents.yaml'), FULL);
    expect((await runCli(['apply', '--auto-approve'], { cwd: dir, env })).code).toBe(0);
    await writeFile(join(dir, 'agents.yaml'), TRIMMED.replace('Has parameters', 'Has parameters, changed').replace('exclude: [url_1]', 'exclude: [url_2]'));
    expect((await runCli(['apply', '--auto-approve'], { cwd: dir, env })).code).toBe(0);

    const sent = (await emu.apiWrites()).filter((r) => r.status !== null && r.status < 300);
    const calls = new Set(sent.map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/, '{uid}').replace(/tools\/\w+$/, 'tools/{name}')}`));
    // Both create paths of a tool, agent create and update, and the website call were exercised.
    expect([...calls].sort()).toEqual(
      [
        putCreates ? undefined : 'POST /v3/ai-agents/tools',
        'PUT /v3/ai-agents/tools/{name}',
        'POST /v3/ai-agents/agents',
        'PATCH /v3/ai-agents/agents/{uid}',
        'POST /v3/ai-agents/agent-builder/knowledge-base/website/web_demo/discovered-urls/process',
      ]
        .filter((c) => c !== undefined)
        .sort(),
    );
    let clearedSomething = false;
    for (const request of sent) {
      const path = request.path.replace(/^\/v3/, '');
      const body = request.body;
      expect(nullPath(body), `${request.method} ${path} holds a null`).toBeUndefined();
      const cleared = request.method === 'PATCH' ? clearedFields(body as Record<string, unknown>) : [];
      if (cleared.length > 0) {
        clearedSomething = true;
        expect(cleared.sort()).toEqual(['icon', 'instruction', 'metaData', 'platformTools', 'suggestions']);
      }
      expect(validateRequestBody(request.method, path, body, { versions: versionsFor(request.method, request.path) }), `${request.method} ${path}`).toEqual([]);
    }
    expect(clearedSomething).toBe(true);
  });
});
