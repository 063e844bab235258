// resolveManifest: the Desired model, sensitive paths, environments and base URLs.
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/core/parse.js';
import { resolveManifest, type ResolveOptions } from '../../src/core/resolve.js';

const MANIFEST = `version: 1
environments:
  local: { appId: local, region: us, baseUrl: "http://127.0.0.1:4010/v3/", vars: { model: m-local } }
  prod: { appId: acme, region: eu, vars: { model: m-prod } }
tools:
  zeta:
    displayName: Z
    executionText: z
    doNotExecute: true
  alpha:
    displayName: A
    executionText: a
    description: d
    parameters: { type: object, properties: { q: { type: string, description: Q, enum: [x, y] } }, required: [q, q] }
agents:
  bot:
    name: Bot
    integrationType: agent
    integrateWith: \${var.model}
    tools: [zeta, zeta]
    actions: [alpha]
    integrationMeta:
      baseUrl: https://agent.example.com
      headers: { Authorization: "Bearer \${secret:TOKEN}", X-Team: core }
    suggestions: ["a \${secret:TOKEN}"]
knowledgeBase:
  websites:
    docs: { parentUniqueId: web_1, exclude: [url_9, url_10, url_9] }
notify: { receiver: ops, receiverType: group }
external:
  tools: [search_web]
`;

const resolve = (text: string, options: Partial<ResolveOptions> = {}) => resolveManifest(parseManifest('agents.yaml', text), { env: { TOKEN: 't0k' }, mode: 'plan', environment: 'local', ...options });

describe('resolveManifest', () => {
  it('builds Desired: ordered resources, defaults applied, sets normalized', () => {
    const { desired, diagnostics } = resolve(MANIFEST);
    expect(diagnostics).toEqual([]);
    expect(desired?.environment).toEqual({ name: 'local', appId: 'local', region: 'us', baseUrl: 'http://127.0.0.1:4010/v3', apiKeyEnv: 'COMETCHAT_API_KEY' });
    expect(desired?.resources.map((r) => r.address)).toEqual(['tool.alpha', 'tool.zeta', 'agent.bot', 'website.docs']);
    expect(desired?.resources[1]?.spec).toEqual({ name: 'zeta', displayName: 'Z', executionText: 'z', description: '', doNotExecute: true, parameters: {} });
    expect(desired?.resources[0]?.spec).toMatchObject({ parameters: { required: ['q'], properties: { q: { enum: ['x', 'y'] } } } });
    const agent = desired?.resources[2];
    expect(agent?.spec).toMatchObject({ integrateWith: 'm-local', tools: ['zeta'], actions: ['alpha'], isActive: true });
    expect(desired?.resources[3]?.spec).toEqual({ parentUniqueId: 'web_1', exclude: ['url_10', 'url_9'] });
    expect(desired?.notify).toEqual({ receiver: 'ops', receiverType: 'group' });
    expect(desired?.externalTools).toEqual(['search_web']);
  });

  it('tracks sensitive paths relative to the spec, and always marks integrationMeta.headers', () => {
    const agent = resolve(MANIFEST).desired?.resources.find((r) => r.type === 'agent');
    expect(agent?.sensitive).toEqual(expect.arrayContaining([['integrationMeta', 'headers', 'Authorization'], ['suggestions'], ['integrationMeta', 'headers']]));
    expect(agent?.sensitive).toHaveLength(3);
    expect(resolve(MANIFEST).desired?.resources.find((r) => r.type === 'tool')?.sensitive).toEqual([]);
  });

  it('uses the selected environment and the regional default base URL', () => {
    const { desired } = resolve(MANIFEST, { environment: 'prod' });
    expect(desired?.environment.baseUrl).toBe('https://acme.api-eu.cometchat.io/v3');
    expect(desired?.resources.find((r) => r.type === 'agent')?.spec).toMatchObject({ integrateWith: 'm-prod' });
  });

  it('lets AGENTSYNC_BASE_URL override every environment, and checks it', () => {
    const ok = resolve(MANIFEST, { environment: 'prod', env: { TOKEN: 't', AGENTSYNC_BASE_URL: 'http://localhost:9999/v3' } });
    expect(ok.desired?.environment.baseUrl).toBe('http://localhost:9999/v3');
    for (const url of ['http://10.0.0.1/v3', 'http://[::1]:1/v3', 'http://127.8.0.1/v3', 'https://x.example/v3']) {
      const result = resolve(MANIFEST, { env: { TOKEN: 't', AGENTSYNC_BASE_URL: url } });
      expect(result.desired === undefined, url).toBe(url === 'http://10.0.0.1/v3');
    }
  });

  it('validate mode checks every environment and needs no secret', () => {
    const result = resolveManifest(parseManifest('agents.yaml', MANIFEST), { env: {}, mode: 'validate' });
    expect(result.environments).toEqual(['local', 'prod']);
    expect(result.diagnostics.map((d) => d.severity)).toEqual(['warning', 'warning']);
    expect(result.desired).toBeUndefined();
  });

  it('plan mode treats an unset secret as an error', () => {
    const result = resolve(MANIFEST, { env: {} });
    expect(result.desired).toBeUndefined();
    expect(result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message)).toEqual([
      expect.stringContaining('secret TOKEN is not set'),
      expect.stringContaining('secret TOKEN is not set'),
    ]);
  });

  it('keeps $${ literal and never interpolates keys', () => {
    const text =
      'version: 1\nenvironments:\n  local: { appId: local, region: us }\nagents:\n  a:\n    name: A\n    integrationType: llm\n    integrateWith: x\n    instruction: "cost $${price}"\n    metaData: { "${HOME}": 1 }\n';
    const { desired, diagnostics } = resolve(text, { env: { HOME: '/root' } });
    expect(diagnostics).toEqual([]);
    expect(desired?.resources[0]?.spec).toMatchObject({ instruction: 'cost ${price}', metaData: { '${HOME}': 1 } });
  });

  it('reports the API keys and secret values that output must hide, and nothing shorter than 4 characters is matched', () => {
    const env = { TOKEN: 'tok-123456', COMETCHAT_API_KEY: 'key-abcdef', OTHER: 'not-a-key' };
    const result = resolve(MANIFEST, { env });
    expect(result.sensitiveValues).toEqual(expect.arrayContaining(['key-abcdef', 'tok-123456']));
    expect(result.sensitiveValues).not.toContain('not-a-key');
    expect(resolve(MANIFEST, { env: {}, mode: 'validate', environment: undefined }).sensitiveValues).toEqual([]);
  });

  it('makes a plain field that holds the API key or a secret sensitive, so it is digested and never shown', () => {
    const text = `version: 1
environments:
  local: { appId: local, region: us, apiKeyEnv: DEPLOY_KEY }
agents:
  a:
    name: A
    integrationType: llm
    integrateWith: x
    instruction: "use key-abcdef please"
    suggestions: [hi, "tok-123456 again"]
    metaData: { note: "a \${secret:TOKEN}", echo: "tok-123456", short: abc }
`;
    const { desired, diagnostics } = resolve(text, { env: { TOKEN: 'tok-123456', DEPLOY_KEY: 'key-abcdef' } });
    expect(diagnostics).toEqual([]);
    expect(desired?.resources[0]?.sensitive).toEqual(expect.arrayContaining([['instruction'], ['suggestions'], ['metaData', 'note'], ['metaData', 'echo']]));
    expect(desired?.resources[0]?.sensitive).toHaveLength(4);
  });

  it('checks tool types: tools only doNotExecute tools, actions only the others; external names unchecked', () => {
    const text = `version: 1
environments:
  local: { appId: local, region: us }
tools:
  card: { displayName: C, executionText: c, doNotExecute: true }
  run: { displayName: R, executionText: r, description: d, parameters: {} }
  odd: { displayName: O, executionText: o, description: d, parameters: {}, doNotExecute: "yes" }
agents:
  a: { name: A, integrationType: llm, integrateWith: x, tools: [card, run, search_web, odd], actions: [card, run, search_web] }
external:
  tools: [search_web]
`;
    const errors = resolve(text)
      .diagnostics.filter((d) => d.severity === 'error')
      .map((d) => `${d.path}: ${d.message}`);
    expect(errors).toEqual([
      'tools.odd.doNotExecute: must be true or false (got "yes")',
      'agents.a.tools[1]: run is an action (doNotExecute is false): move it from tools to actions',
      'agents.a.actions[0]: card is a tool (doNotExecute is true): move it from actions to tools',
    ]);
  });
});
