// docs/spec/server.md#field-facts: the field tables are complete, every entry reaches the wire, and
// a server that normalises what it stores (defaults filled, a field renamed, sets sorted,
// bookkeeping added, timestamps in either form) is read as holding exactly what was sent.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/api-types.js';
import { planChanges } from '../../src/core/diff.js';
import { exportManifest } from '../../src/core/export-manifest.js';
import { agentBody, agentPatchBody, agentKind } from '../../src/core/kinds/agent/index.js';
import { AGENT_FIELDS } from '../../src/core/kinds/agent/fields.js';
import { changedFieldsOf, factsOf, wireName } from '../../src/core/kinds/fields.js';
import { KINDS, RESOURCE_TYPES, timestampMs } from '../../src/core/kinds/index.js';
import { toolBody, toolKind } from '../../src/core/kinds/tool/index.js';
import { jsonEqual } from '../../src/core/json-equal.js';
import { normalizeSpec } from '../../src/core/normalize.js';
import { refreshState } from '../../src/core/refresh.js';
import { agentSchema } from '../../src/core/kinds/agent/manifest.js';
import { toolSchema } from '../../src/core/kinds/tool/manifest.js';
import { websiteSchema } from '../../src/core/kinds/website/manifest.js';
import { textSchema } from '../../src/core/kinds/text/manifest.js';
import type { AgentSpec, ToolSpec } from '../../src/core/desired.js';
import { builderAgentSchema } from '../../src/core/kinds/builder-agent/manifest.js';
import { fileSchema } from '../../src/core/kinds/file/manifest.js';
import { renderManifestYaml } from '../../src/render/manifest-yaml.js';
import { parseManifest } from '../../src/core/parse.js';
import { resolveManifest } from '../../src/core/resolve.js';
import { baseBody, desiredOf, digest, stateOf } from './diff-fixtures.js';

// websiteSchema is built on first use (z.lazy); its object is the inner type.
const SCHEMAS = {
  tool: toolSchema,
  agent: agentSchema,
  website: websiteSchema._zod.innerType,
  text: textSchema._zod.innerType,
  file: fileSchema._zod.innerType,
  builderAgent: builderAgentSchema._zod.innerType,
} as const;
/** Manifest keys that are about the manifest, not the resource: never sent, never in a table. */
const MANIFEST_ONLY = new Set(['environments']);

describe('the field tables', () => {
  it.each(RESOURCE_TYPES)('has one entry per %s schema key, and nothing else', (type) => {
    const schemaKeys = Object.keys(SCHEMAS[type].shape).filter((key) => !MANIFEST_ONLY.has(key));
    const tableKeys = factsOf(KINDS[type].fields).map(([field]) => field);
    // Tools are named by their manifest key; the spec carries it as `name`.
    // A website records the URLs its globs matched (never written in a manifest).
    // A text entry's `file` is where its text comes from; the spec holds the text itself.
    // A file entry names a local file; the spec holds what was read of it, not where it lies.
    const expected =
      type === 'tool'
        ? [...schemaKeys, 'name']
        : type === 'website'
          ? [...schemaKeys, 'matchedUrls']
          : type === 'text'
            ? schemaKeys.filter((key) => key !== 'file')
            : type === 'file'
              ? ['fileName', 'mimeType', 'bytes', 'digest']
              : schemaKeys;
    expect(tableKeys.sort()).toEqual(expected.sort());
  });

  it('sends every agent field under its wire name when the spec holds it', () => {
    const spec: AgentSpec = {
      name: 'A',
      integrationType: 'agent',
      integrateWith: 'x',
      isActive: false,
      tools: ['t'],
      actions: ['a'],
      icon: 'https://example.com/i.png',
      instruction: 'Hi',
      suggestions: ['s'],
      platformTools: ['p'],
      integrationMeta: { baseUrl: 'https://a.example.com' },
      metaData: { k: 'v' },
    };
    const body = agentBody(spec);
    for (const [field, fact] of factsOf(AGENT_FIELDS)) expect(body, field).toHaveProperty([wireName(field, fact)]);
    // And a PATCH of every field does too: no entry is dropped on the way to the wire.
    const patch = agentPatchBody(spec, new Set(factsOf(AGENT_FIELDS).map(([field]) => field)));
    expect(Object.keys(patch).sort()).toEqual(Object.keys(body).sort());
  });

  it('sends every tool field that is sent for an executed tool', () => {
    const spec: ToolSpec = {
      name: 'n',
      displayName: 'N',
      executionText: 'x',
      description: 'd',
      doNotExecute: false,
      parameters: { type: 'object', properties: { a: { type: 'string', description: 'A' } } },
    };
    const body = toolBody(spec) as unknown as JsonObject;
    for (const [field, fact] of factsOf(toolKind.fields)) expect(body, field).toHaveProperty([wireName(field, fact)]);
  });
});

describe('PATCH bodies', () => {
  const before = normalizeSpec('agent', { name: 'A', integrationType: 'llm', integrateWith: 'x', icon: 'https://example.com/i.png', suggestions: ['b', 'a'], metaData: { k: 1 } });
  it('carry only the fields that change, a dropped one as its empty value, never null', () => {
    const after = normalizeSpec('agent', { name: 'A', integrationType: 'llm', integrateWith: 'x', suggestions: ['b', 'a'], metaData: { k: 2 } });
    const changed = changedFieldsOf(agentKind.fields, before, after, jsonEqual);
    expect([...changed].sort()).toEqual(['icon', 'metaData']);
    expect(agentPatchBody(after as unknown as AgentSpec, changed)).toEqual({ icon: '', metaData: { k: 2 } });
  });
});

describe('reading a server that normalises', () => {
  const desired = desiredOf(baseBody);
  const state = stateOf(desired);
  const agentState = state.resources['agent.support'];
  const toolState = state.resources['tool.get_weather'];
  /** The support agent as a document store would list it. */
  const storedAgent = (overrides: JsonObject = {}): JsonObject => ({
    _id: '65a1b2c3d4e5f60718293a4b',
    __v: 3,
    uid: agentState?.remoteId ?? '',
    appId: 'app',
    name: 'Support assistant',
    isActive: true,
    integrationType: 'llm',
    integrateWith: 'gpt-4o',
    tools: ['search_web', 'get_weather'],
    actions: ['get_weather'],
    icon: '',
    instruction: 'You help customers.\nBe brief.\nNever guess.',
    // An ordered list: a server keeps it as sent (docs/spec/server.md#how-records-compare).
    suggestions: ['Where is my order?', 'Refund'],
    cometchatTools: ['calc', 'web'],
    integrationMeta: {},
    metaData: { 'a.b': 1, team: 'care' },
    deletedAt: null,
    createdAt: 1795600000000,
    updatedAt: '2026-11-24T10:00:00Z',
    ...overrides,
  });
  const storedTool: JsonObject = {
    _id: toolState?.remoteId ?? '',
    __v: 0,
    name: 'get_weather',
    type: 'action',
    displayName: 'Get weather',
    executionText: 'Checking the weather',
    doNotExecute: false,
    tool: {
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: { type: 'object', properties: { unit: { type: 'string', description: 'Unit', enum: ['c', 'f'] }, city: { type: 'string', description: 'City name' } }, required: ['unit', 'city'] },
    },
  };
  const refresh = (agentEntry: JsonObject) => {
    const read = (kind: typeof agentKind | typeof toolKind, entry: JsonObject) => kind.refresh?.read(entry);
    const agent = read(agentKind, agentEntry);
    const tool = read(toolKind, storedTool);
    return refreshState({
      state,
      snapshot: { agent: { records: agent ? [agent] : [], matchable: true }, tool: { records: tool ? [tool] : [], matchable: true } },
      digest,
      sensitiveOf: () => [],
    });
  };

  it('sees no drift in filled defaults, renamed fields, sorted sets, bookkeeping or either timestamp form', () => {
    const refreshed = refresh(storedAgent());
    expect(refreshed.drift).toEqual([]);
    const plan = planChanges({ desired, state: refreshed.state, digest, refresh: refreshed });
    expect(plan.summary).toMatchObject({ create: 0, update: 0 });
  });

  it('compares a field the server does not return with the state, not as drift', () => {
    const { suggestions: _notReturned, cometchatTools: _neither, ...entry } = storedAgent();
    expect(refresh(entry).drift).toEqual([]);
  });

  it('shows drift on exactly the field a dashboard edit changed', () => {
    const refreshed = refresh(storedAgent({ instruction: 'Edited in the dashboard' }));
    expect(refreshed.drift.map((d) => [d.address, d.fields.map((f) => f.path)])).toEqual([['agent.support', ['instruction']]]);
  });

  it('reads a null optional field as its empty value, which equals absent', () => {
    const refreshed = refresh(storedAgent({ icon: null, integrationMeta: null }));
    expect(refreshed.drift).toEqual([]);
  });

  it('reads timestamps as ISO strings or epoch milliseconds', () => {
    expect(timestampMs('2026-11-24T10:00:00Z')).toBe(Date.parse('2026-11-24T10:00:00Z'));
    expect(timestampMs(1795600000000)).toBe(1795600000000);
    expect(agentKind.refresh?.read(storedAgent())?.createdAtMs).toBe(1795600000000);
  });

  it('exports what a person would write, which validates and is the same bytes every time', () => {
    const agent = agentKind.refresh?.read(storedAgent({ isActive: false, tools: ['search_web'], integrationMeta: { creds: [{ user: 'u', password: 'hunter2-secret' }] } }));
    const tool = toolKind.refresh?.read({
      ...storedTool,
      tool: { ...(storedTool.tool as JsonObject), parameters: { type: 'object', properties: { city: { type: 'string', description: 'City' } }, required: [] } },
    });
    if (!agent || !tool) throw new Error('unreadable');
    const snapshot = { agent: { records: [agent], matchable: true }, tool: { records: [tool], matchable: true } };
    const exported = exportManifest(snapshot, { name: 'us', appId: 'acme', region: 'us' });
    const text = renderManifestYaml(exported.document);
    expect(text).toBe(renderManifestYaml(exportManifest(snapshot, { name: 'us', appId: 'acme', region: 'us' }).document));
    expect(text).not.toMatch(/icon|_id|__v|createdAt|updatedAt|appId: app|required: \[\]|hunter2/);
    expect(text).toContain('${secret:');
    const secrets = Object.fromEntries(exported.secrets.map((s) => [s.name, 'x']));
    const resolution = resolveManifest(parseManifest('exported.yaml', text), { env: secrets, mode: 'plan' });
    expect(resolution.diagnostics).toEqual([]);
  });
});
