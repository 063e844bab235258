// Server records → manifest document: keys, secrets, references, escaping, and determinism. The
// document is then resolved by the real resolver, so "it validates" is checked, not assumed.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/api-types.js';
import { isUserError } from '../../src/core/errors.js';
import { exportManifest, type ExportEnvironment } from '../../src/core/export-manifest.js';
import { slugOf } from '../../src/core/kinds/agent/export.js';
import type { RemoteRecord } from '../../src/core/kinds/index.js';
import { parseManifest } from '../../src/core/parse.js';
import type { ServerSnapshot } from '../../src/core/refresh.js';
import { resolveManifest } from '../../src/core/resolve.js';
import { renderManifestYaml } from '../../src/render/manifest-yaml.js';

const environment: ExportEnvironment = { name: 'us', appId: 'acme-us', region: 'us' };

const tool = (name: string, spec: JsonObject = {}): RemoteRecord => ({
  remoteId: `id_${name}`,
  identity: name,
  spec: { name, displayName: name, executionText: 'Working', doNotExecute: false, description: `Does ${name}`, parameters: {}, ...spec },
});
const agent = (uid: string, name: string, spec: JsonObject = {}): RemoteRecord => ({
  remoteId: uid,
  identity: name,
  spec: { name, isActive: true, integrateWith: 'gpt-4o', integrationType: 'llm', tools: [], actions: [], ...spec },
});
const snapshotOf = (tools: RemoteRecord[], agents: RemoteRecord[]): ServerSnapshot => ({
  tool: { records: tools, matchable: true },
  agent: { records: agents, matchable: true },
  text: { records: [], matchable: true },
});

/** The exported document as a manifest file, resolved with the secrets it asks for. */
function resolveExported(document: JsonObject, secrets: Record<string, string> = {}) {
  const text = renderManifestYaml(document);
  return resolveManifest(parseManifest('exported.yaml', text), { env: secrets, mode: 'plan' });
}

describe('slugOf', () => {
  it.each([
    ['Support Desk (EU)', 'support_desk_eu'],
    ['  Ünïcödé  bot ', 'unicode_bot'],
    ['already_a_slug_2', 'already_a_slug_2'],
    ['日本語', 'agent'],
    ['', 'agent'],
    ['$${weird}', 'weird'],
  ])('%j → %j', (name, slug) => expect(slugOf(name)).toBe(slug));
});

describe('exportManifest', () => {
  it('keys agents by a unique slug, in uid order whatever the server order, with _2, _3 skipping taken keys', () => {
    const agents = [agent('u3', 'Support'), agent('u1', 'Support'), agent('u2', 'support'), agent('u9', 'Support 2')];
    const once = exportManifest(snapshotOf([], agents), environment);
    const keys = Object.fromEntries(Object.entries(once.document.agents as JsonObject).map(([key, entry]) => [key, `${(entry as JsonObject).name as string}`]));
    // By uid: u1 keeps "support"; "Support 2" wants support_2 as it is, so u2 and u3 get _3 and _4.
    expect(Object.keys(keys)).toEqual(['support', 'support_2', 'support_3', 'support_4']);
    expect(keys).toEqual({ support: 'Support', support_2: 'Support 2', support_3: 'support', support_4: 'Support' });
    const reversed = exportManifest(snapshotOf([], [...agents].reverse()), environment);
    expect(renderManifestYaml(reversed.document)).toBe(renderManifestYaml(once.document));
    expect(once.sharedIdentities).toEqual([
      { address: 'agent.support', identity: 'Support', remoteId: 'u1' },
      { address: 'agent.support_4', identity: 'Support', remoteId: 'u3' },
    ]);
  });

  it('writes tools as the manifest would: defaults left out, parameters only for executed tools', () => {
    const params = { type: 'object', properties: { city: { type: 'string', description: 'City' } }, required: ['city'] };
    const { document } = exportManifest(
      snapshotOf(
        [tool('weather', { parameters: params }), tool('card', { doNotExecute: true, description: '', parameters: {} }), tool('none', { parameters: { type: 'object', properties: {} } })],
        [],
      ),
      environment,
    );
    expect(document.tools).toEqual({
      card: { displayName: 'card', executionText: 'Working', doNotExecute: true },
      none: { displayName: 'none', executionText: 'Working', description: 'Does none', parameters: {} },
      weather: { displayName: 'weather', executionText: 'Working', description: 'Does weather', parameters: params },
    });
    expect(document.environments).toEqual({ us: { appId: 'acme-us', region: 'us' } });
  });

  it('replaces headers and credential-looking values by named secret placeholders, and never writes their values', () => {
    const meta = {
      baseUrl: 'https://agent.example.com',
      headers: { Authorization: 'Bearer top-secret-1', 'X-Team': 'team-secret-2', Empty: '' },
      apiKey: 'top-secret-3',
      region: 'eu',
      credentials: { user: 'top-secret-5', retries: 3 },
    };
    const exported = exportManifest(
      snapshotOf([], [agent('u1', 'Returns Desk', { integrationType: 'agent', integrationMeta: meta, metaData: { team: 'care', nested: { accessToken: 'top-secret-4' } } })]),
      environment,
    );
    const text = renderManifestYaml(exported.document);
    expect(text).not.toMatch(/top-secret|team-secret/);
    expect(exported.secrets).toEqual([
      { name: 'AGENT_RETURNS_DESK_HEADERS_AUTHORIZATION', address: 'agent.returns_desk', path: 'integrationMeta.headers.Authorization' },
      { name: 'AGENT_RETURNS_DESK_HEADERS_X_TEAM', address: 'agent.returns_desk', path: 'integrationMeta.headers.X-Team' },
      { name: 'AGENT_RETURNS_DESK_APIKEY', address: 'agent.returns_desk', path: 'integrationMeta.apiKey' },
      { name: 'AGENT_RETURNS_DESK_CREDENTIALS_USER', address: 'agent.returns_desk', path: 'integrationMeta.credentials.user' },
      { name: 'AGENT_RETURNS_DESK_ACCESSTOKEN', address: 'agent.returns_desk', path: 'metaData.nested.accessToken' },
    ]);
    const entry = (exported.document.agents as JsonObject).returns_desk as JsonObject;
    expect(entry.integrationMeta).toEqual({
      baseUrl: 'https://agent.example.com',
      headers: { Authorization: '${secret:AGENT_RETURNS_DESK_HEADERS_AUTHORIZATION}', 'X-Team': '${secret:AGENT_RETURNS_DESK_HEADERS_X_TEAM}', Empty: '' },
      apiKey: '${secret:AGENT_RETURNS_DESK_APIKEY}',
      region: 'eu',
      credentials: { user: '${secret:AGENT_RETURNS_DESK_CREDENTIALS_USER}', retries: 3 },
    });
    // With the secrets set, the export resolves back to exactly what the server holds.
    const values = {
      AGENT_RETURNS_DESK_HEADERS_AUTHORIZATION: 'Bearer top-secret-1',
      AGENT_RETURNS_DESK_HEADERS_X_TEAM: 'team-secret-2',
      AGENT_RETURNS_DESK_APIKEY: 'top-secret-3',
      AGENT_RETURNS_DESK_CREDENTIALS_USER: 'top-secret-5',
      AGENT_RETURNS_DESK_ACCESSTOKEN: 'top-secret-4',
    };
    const resolution = resolveExported(exported.document, values);
    expect(resolution.diagnostics).toEqual([]);
    const resolved = resolution.desired?.resources.find((r) => r.address === 'agent.returns_desk');
    expect(resolved?.spec).toMatchObject({ integrationMeta: meta, metaData: { team: 'care', nested: { accessToken: 'top-secret-4' } } });
  });

  it('keeps tools and actions; names the export does not hold go to external.tools', () => {
    const { document } = exportManifest(snapshotOf([tool('lookup')], [agent('u1', 'Helper', { actions: ['lookup', 'gone_action'], tools: ['platform_card'] })]), environment);
    expect((document.agents as JsonObject).helper).toMatchObject({ actions: ['gone_action', 'lookup'], tools: ['platform_card'] });
    expect(document.external).toEqual({ tools: ['gone_action', 'platform_card'] });
    expect(resolveExported(document).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it("escapes a literal ${ so that interpolation gives the server's text back", () => {
    const text = 'Say ${name}, $${x}, $$ and $ {y}';
    const { document } = exportManifest(snapshotOf([tool('t', { description: text })], [agent('u1', 'Bot ${1}', { instruction: text })]), environment);
    const resolution = resolveExported(document);
    expect(resolution.diagnostics).toEqual([]);
    const specs = Object.fromEntries((resolution.desired?.resources ?? []).map((r) => [r.address, r.spec as JsonObject]));
    expect(specs['tool.t']?.description).toBe(text);
    expect(specs['agent.bot_1']).toMatchObject({ name: 'Bot ${1}', instruction: text });
  });

  it('leaves out a kind most apps do not use when the server holds none: an app without them exports as before', () => {
    const exported = exportManifest({ ...snapshotOf([], []), builderAgent: { records: [], matchable: true }, file: { records: [], matchable: true } }, environment);
    expect(Object.keys(exported.document)).not.toContain('builderAgents');
    expect(exported.document.knowledgeBase).toBeUndefined();
    expect(Object.keys(exported.counts).sort()).toEqual(['agent', 'tool']);
  });

  it('says what it cannot export, and refuses what it cannot export faithfully', () => {
    const exported = exportManifest(snapshotOf([], []), environment);
    // Files are listed but never exportable: without their listing they are unreadable like websites.
    expect(exported.unreadable).toEqual(['website', 'file', 'builderAgent']);
    expect(exported.counts).toEqual({ tool: 0, agent: 0 });
    const refusal = (snapshot: ServerSnapshot): string => {
      try {
        exportManifest(snapshot, environment);
      } catch (err) {
        expect(isUserError(err)).toBe(true);
        return (err as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refusal({ ...snapshotOf([], []), agent: { records: [], matchable: false } })).toContain('lists agents without their ids');
    expect(refusal(snapshotOf([tool('same'), { ...tool('same'), remoteId: 'other' }], []))).toContain('two tools named "same"');
    expect(refusal(snapshotOf([], [{ remoteId: 'u1', identity: 'No type', spec: { name: 'No type', integrateWith: 'x' } }]))).toContain('has no "integrationType"');
  });
});
