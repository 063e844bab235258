import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestEmulator, API_KEY, type TestEmulator } from '../support/emulator.js';
import { runCli } from '../support/cli.js';

let emu: TestEmulator;
let dir: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  emu = await startTestEmulator();
  dir = await mkdtemp(join(tmpdir(), 'agentsync-send-'));
  env = { COMETCHAT_API_KEY: API_KEY, AGENTSYNC_BASE_URL: emu.url };
  await writeFile(
    join(dir, 'agents.yaml'),
    ['version: 1', 'environments: { local: { appId: local, region: us } }', 'tools: {}', 'agents:', '  helper: { name: Helper, integrationType: llm, integrateWith: gpt-4o }'].join('\n') + '\n',
  );
  const applied = await runCli(['apply', '--auto-approve'], { cwd: dir, env });
  expect(applied.code).toBe(0);
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await fetch(`${emu.origin}/__emulator/requests`, { method: 'DELETE' });
});

const send = (...args: string[]) => runCli(['send', ...args], { cwd: dir, env });

describe('agentsync send', () => {
  it('sends a text message to a group with tags, muid and onBehalfOf, and prints its id', async () => {
    const result = await send('--to', 'group:ops', '--text', 'Deployed v2', '--tag', 'deploy', '--tag', 'v2', '--muid', 'm-123', '--on-behalf-of', 'deploy-bot');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [request] = await emu.apiRequests('POST');
    expect(request).toMatchObject({ path: '/v3/messages', onBehalfOf: 'deploy-bot' });
    expect(request?.body).toEqual({ receiver: 'ops', receiverType: 'group', category: 'message', type: 'text', data: { text: 'Deployed v2' }, tags: ['deploy', 'v2'], muid: 'm-123' });
    expect(result.stdout.trim()).toMatch(/^\S+$/);
  });

  it('quotes a message by id', async () => {
    const first = await send('--to', 'user:alice', '--text', 'first');
    const id = first.stdout.trim();
    const reply = await send('--to', 'user:alice', '--text', 'second', '--quote', id);
    expect(reply.code).toBe(0);
    const last = (await emu.apiRequests('POST')).at(-1);
    expect(last?.body).toMatchObject({ receiver: 'alice', receiverType: 'user', quotedMessageId: id });
  });

  it('resolves agent:KEY to the uid recorded in state', async () => {
    const state = await runCli(['state', 'show', 'agent.helper', '--json'], { cwd: dir, env });
    const uid = (JSON.parse(state.stdout) as { remoteId: string }).remoteId;
    const sent = await send('--to', 'agent:helper', '--text', 'ping');
    expect(sent.code).toBe(0);
    expect(sent.stdout.trim()).toMatch(/^\S+$/);
    const [request] = await emu.apiRequests('POST');
    expect(request?.body).toMatchObject({ receiver: uid, receiverType: 'user' });
    expect(request?.status).toBe(200);
  });

  it('rejects an unknown agent key or a malformed --to before any call', async () => {
    const unknown = await send('--to', 'agent:nobody', '--text', 'x');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/agent "nobody" is not in the state.*known agents: helper/);
    const malformed = await send('--to', 'alice', '--text', 'x');
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/--to must be user:UID, group:GUID or agent:KEY/);
    expect(await emu.apiRequests()).toEqual([]);
  });

  it('reports an API refusal in one line with the status and code, never the key', async () => {
    const result = await send('--to', 'user:nobody-here', '--text', 'x');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: sending the message failed: POST \/messages answered 404 ERR_UID_NOT_FOUND: .+\n$/);
    expect(result.stderr + result.stdout).not.toContain(API_KEY);
  });
});
