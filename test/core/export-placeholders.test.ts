// `export` never writes a secret: where the manifest read a value from ${secret:NAME} (in any field,
// a name or an instruction too), the export writes that placeholder back; credential fields get
// placeholders of their own, and none of those may be the environment's API key variable.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/api-types.js';
import { exportManifest, type ExportEnvironment } from '../../src/core/export-manifest.js';
import type { RemoteRecord } from '../../src/core/kinds/index.js';
import type { ServerSnapshot } from '../../src/core/refresh.js';
import { renderManifestYaml } from '../../src/render/manifest-yaml.js';

const environment: ExportEnvironment = { name: 'us', appId: 'acme-us', region: 'us' };
const agent = (uid: string, spec: JsonObject): RemoteRecord => ({
  remoteId: uid,
  identity: typeof spec.name === 'string' ? spec.name : undefined,
  spec: { isActive: true, integrateWith: 'gpt-4o', integrationType: 'llm', tools: [], actions: [], ...spec },
});
const snapshotOf = (agents: RemoteRecord[]): ServerSnapshot => ({ tool: { records: [], matchable: true }, agent: { records: agents, matchable: true } });

describe("export and the manifest's secrets", () => {
  const NAME = 'Project Nightingale 7731';
  const PROMPT = 'sk-prompt-8f2e9a1c77';

  it('writes ${secret:NAME} wherever the server holds a value the manifest took from that secret', () => {
    const records = [agent('u1', { name: NAME, instruction: `Use the key ${PROMPT} politely.\nBe brief.` })];
    const exported = exportManifest(snapshotOf(records), environment, [
      { name: 'AGENT_NAME', value: NAME },
      { name: 'PROMPT_KEY', value: PROMPT },
    ]);
    const text = renderManifestYaml(exported.document);
    expect(text).not.toContain(NAME);
    expect(text).not.toContain('nightingale');
    expect(text).not.toContain(PROMPT);
    expect(text).toContain('${secret:AGENT_NAME}');
    expect(text).toContain('Use the key ${secret:PROMPT_KEY} politely.');
    expect(exported.secrets.map((s) => s.name).sort()).toEqual(['AGENT_NAME', 'PROMPT_KEY']);
  });

  it('still escapes a literal ${ around a placeholder', () => {
    const exported = exportManifest(snapshotOf([agent('u1', { name: 'Bot', instruction: `\${literal} ${PROMPT}` })]), environment, [{ name: 'PROMPT_KEY', value: PROMPT }]);
    expect(renderManifestYaml(exported.document)).toContain('$${literal} ${secret:PROMPT_KEY}');
  });

  it("a credential placeholder never takes the API key variable's name", () => {
    const records = [agent('u1', { name: 'Support', integrationType: 'agent', integrationMeta: { baseUrl: 'https://a.example.com', headers: { Authorization: 'Bearer x' } } })];
    const plain = exportManifest(snapshotOf(records), environment);
    const taken = plain.secrets[0]?.name ?? '';
    expect(taken).not.toBe('');
    const clash = exportManifest(snapshotOf(records), { ...environment, apiKeyEnv: taken });
    expect(clash.secrets.map((s) => s.name)).not.toContain(taken);
    expect(renderManifestYaml(clash.document)).not.toContain(`\${secret:${taken}}`);
    const byDefault = exportManifest(
      snapshotOf([agent('u1', { name: 'Cometchat Api', integrationType: 'agent', integrationMeta: { baseUrl: 'https://a.example.com', headers: { Key: 'k' } } })]),
      environment,
    );
    expect(byDefault.secrets.map((s) => s.name)).not.toContain('COMETCHAT_API_KEY');
  });
});
