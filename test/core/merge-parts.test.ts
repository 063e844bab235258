// mergeParts: the parts of a manifest in many files merge by key into the tree one file would give,
// a key defined twice names both places, and every path leads back to the file that wrote it.
import { describe, expect, it } from 'vitest';
import { formatDiagnosticLine } from '../../src/core/diagnostics.js';
import { lintManifest } from '../../src/core/lint/index.js';
import { mergeParts } from '../../src/core/merge-parts.js';
import { parseManifest, parseManifestPart } from '../../src/core/parse.js';
import { resolveManifest } from '../../src/core/resolve.js';

const merge = (files: Record<string, string>) =>
  mergeParts(
    'parts',
    Object.entries(files).map(([file, text]) => parseManifestPart(file, text)),
  );
const errorLines = (files: Record<string, string>): string[] => merge(files).diagnostics.map(formatDiagnosticLine);

const ENV = 'version: 1\nenvironments:\n  local: { appId: local, region: us }\n';
const TOOL = (name: string, description = 'Looks things up for the user.') => `  ${name}:\n    displayName: ${name}\n    executionText: Working\n    description: ${description}\n    parameters: {}\n`;

describe('mergeParts', () => {
  it('gives the tree of the same manifest in one file, entries in part order', () => {
    const parts = {
      'a/env.yaml': ENV,
      'a/tools.yaml': `tools:\n${TOOL('lookup')}`,
      'b/agents.yaml': 'agents:\n  bot:\n    name: Bot\n    integrationType: llm\n    integrateWith: gpt-4o\n    actions: [lookup, more]\n',
      'b/more.yaml': `tools:\n${TOOL('more')}external:\n  tools: [search_web]\n`,
    };
    const merged = merge(parts);
    const whole = parseManifest('one.yaml', Object.values(parts).join(''));
    // Concatenating the parts repeats `tools:`, so compare with the one-file form written properly.
    const oneFile = parseManifest('one.yaml', `${ENV}tools:\n${TOOL('lookup')}${TOOL('more')}${parts['b/agents.yaml']}external:\n  tools: [search_web]\n`);
    expect(whole.diagnostics.some((d) => d.message.includes('duplicate key "tools"'))).toBe(true);
    expect(merged.diagnostics).toEqual([]);
    expect(merged.value).toEqual(oneFile.value);
    expect(Object.keys(merged.value?.tools as object)).toEqual(['lookup', 'more']);
    const resolution = resolveManifest(merged, { env: {}, mode: 'plan' });
    expect(resolution.diagnostics).toEqual([]);
    expect(resolution.desired?.resources.map((r) => r.address)).toEqual(expect.arrayContaining(['tool.lookup', 'tool.more', 'agent.bot']));
  });

  it('refuses an entry defined in two parts, naming both places as file:line:col', () => {
    expect(errorLines({ 'env.yaml': ENV, 'one.yaml': `tools:\n${TOOL('lookup')}`, 'two.yaml': `# again\ntools:\n${TOOL('lookup')}` })).toEqual([
      'two.yaml:3:3: error: tools.lookup is already defined in one.yaml:2:3; each one may be defined in one file only (at tools.lookup)',
    ]);
    expect(errorLines({ 'env.yaml': ENV, 'more-env.yaml': 'environments:\n  local: { appId: other, region: eu }\n' })).toEqual([
      'more-env.yaml:2:3: error: environments.local is already defined in env.yaml:3:3; each one may be defined in one file only (at environments.local)',
    ]);
    expect(
      errorLines({
        'env.yaml': ENV,
        'kb1.yaml': 'knowledgeBase:\n  websites:\n    docs: { url: "https://a.example/" }\n',
        'kb2.yaml': 'knowledgeBase:\n  websites:\n    docs: { url: "https://b.example/" }\n',
      }),
    ).toEqual(['kb2.yaml:3:5: error: knowledgeBase.websites.docs is already defined in kb1.yaml:3:5; each one may be defined in one file only (at knowledgeBase.websites.docs)']);
  });

  it('merges websites from different parts, and lint settings rule by rule', () => {
    const merged = merge({
      'env.yaml': `${ENV}lint:\n  unused-tool: off\n`,
      'kb1.yaml': 'knowledgeBase:\n  websites:\n    docs: { url: "https://a.example/" }\n',
      'kb2.yaml': 'knowledgeBase:\n  websites:\n    blog: { url: "https://b.example/" }\nlint:\n  missing-instruction: error\n',
    });
    expect(merged.diagnostics).toEqual([]);
    expect(merged.value?.knowledgeBase).toEqual({ websites: { docs: { url: 'https://a.example/' }, blog: { url: 'https://b.example/' } } });
    expect(merged.value?.lint).toEqual({ 'unused-tool': 'off', 'missing-instruction': 'error' });
    expect(errorLines({ 'a.yaml': 'lint:\n  unused-tool: off\n', 'b.yaml': 'lint:\n  unused-tool: error\n' })).toEqual([
      'b.yaml:2:3: error: lint.unused-tool is already defined in a.yaml:2:3; each one may be defined in one file only (at lint.unused-tool)',
    ]);
  });

  it('requires version to agree, and notify and state to be in one part', () => {
    expect(errorLines({ 'a.yaml': ENV, 'b.yaml': 'version: 1\n' })).toEqual([]);
    expect(errorLines({ 'a.yaml': ENV, 'b.yaml': '\nversion: 2\n' })).toEqual(['b.yaml:2:1: error: version is 2 here but 1 in a.yaml:1:1; every file must give the same value (at version)']);
    expect(errorLines({ 'a.yaml': `${ENV}notify: { receiver: ops, receiverType: group }\n`, 'b.yaml': 'notify: { receiver: ops, receiverType: group }\n' })).toEqual([
      'b.yaml:1:1: error: notify is already defined in a.yaml:4:1; a key may be defined in one file only (at notify)',
    ]);
    expect(errorLines({ 'a.yaml': `${ENV}state: { url: "postgres://db/x" }\n`, 'b.yaml': 'state: { url: "postgres://db/x" }\n' })).toHaveLength(1);
    // A section that is not a map in one part cannot be merged with another part's: that is a second definition.
    expect(errorLines({ 'a.yaml': 'tools: []\n', 'b.yaml': `tools:\n${TOOL('x')}` })).toEqual([
      'b.yaml:1:1: error: tools is already defined in a.yaml:1:1; a key may be defined in one file only (at tools)',
    ]);
  });

  it('joins lists in part order and points each item back at its own file and index', () => {
    const merged = merge({
      'a.yaml': `${ENV}moved:\n  - { from: agent.a, to: agent.b }\n`,
      'b.yaml': 'moved:\n  - { from: agent.c, to: agent.d }\n  - { from: agent.x, to: nowhere }\n',
    });
    expect(merged.value?.moved).toEqual([
      { from: 'agent.a', to: 'agent.b' },
      { from: 'agent.c', to: 'agent.d' },
      { from: 'agent.x', to: 'nowhere' },
    ]);
    const at = merged.locator.diagnostic(['moved', 2, 'to'], 'here');
    expect([at.file, at.line, at.path]).toEqual(['b.yaml', 3, 'moved[1].to']);
    const resolution = resolveManifest(merged, { env: {}, mode: 'validate' });
    expect(resolution.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnosticLine)).toEqual([
      'a.yaml:5:26: error: agent.b is not in the manifest: moved names where a resource went (at moved[0].to)',
      'b.yaml:2:26: error: agent.d is not in the manifest: moved names where a resource went (at moved[0].to)',
      'b.yaml:3:26: error: "nowhere" is not an address (tool.NAME, agent.KEY or website.KEY) (at moved[1].to)',
    ]);
  });

  it('resolves ${…} in every part, in place, and reports an unset variable in the file that reads it', () => {
    const merged = merge({
      'a.yaml': `${ENV.replace('appId: local', 'appId: "${APP:-local}"')}external:\n  tools: ["\${EXTERNAL}"]\n`,
      'b.yaml': `external:\n  tools: [fixed]\ntools:\n${TOOL('lookup', '${DESCRIPTION}')}`,
      'c.yaml': 'external:\n  tools: ["${MISSING}"]\n',
    });
    const resolution = resolveManifest(merged, { env: { EXTERNAL: 'search_web', DESCRIPTION: 'A description long enough.' }, mode: 'plan' });
    expect(resolution.diagnostics.map(formatDiagnosticLine)).toEqual([
      'c.yaml:2:12: error: environment variable MISSING is not set (write ${MISSING:-default} to give it a default) (at external.tools[0])',
    ]);
    const done = resolveManifest(merge({ 'a.yaml': `${ENV}external:\n  tools: ["\${EXTERNAL}"]\n`, 'b.yaml': `external:\n  tools: [fixed]\ntools:\n${TOOL('lookup', '${DESCRIPTION}')}` }), {
      env: { EXTERNAL: 'search_web', DESCRIPTION: 'A description long enough.' },
      mode: 'plan',
    });
    expect(done.diagnostics).toEqual([]);
    expect(done.desired?.resources.find((r) => r.address === 'tool.lookup')?.spec).toMatchObject({ description: 'A description long enough.' });
    expect([...(done.desired?.externalTools ?? [])].sort()).toEqual(['fixed', 'search_web']);
  });

  it('reports schema errors and missing keys in the file that holds them', () => {
    const lines = resolveManifest(merge({ 'a.yaml': 'environments:\n  local: { appId: local, region: us }\n', 'b.yaml': 'tools:\n  t:\n    displayName: T\n' }), {
      env: {},
      mode: 'validate',
    }).diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`);
    expect(lines).toContain('a.yaml:1 missing required key "version"');
    expect(lines.filter((line) => line.startsWith('b.yaml:2 '))).not.toEqual([]);
  });

  it('lints the merged manifest, each finding in its own file; rules that read the YAML read every file', () => {
    const findings = lintManifest(
      merge({
        'a.yaml': `${ENV}agents:\n  one: { name: Same, integrationType: llm, integrateWith: gpt-4o, instruction: Help. }\n`,
        'b.yaml': `agents:\n  two: { name: Same, integrationType: llm, integrateWith: gpt-4o, instruction: Help. }\ntools:\n${TOOL('unused', 'http://example.com is where it looks things up')}`,
      }),
    );
    expect(findings.map((f) => `${f.rule} ${f.file}:${f.line}:${f.column}`)).toEqual(['duplicate-agent-name b.yaml:2:16', 'unused-tool b.yaml:4:3', 'insecure-url b.yaml:7:18']);
    expect(findings[0]?.message).toContain('(a.yaml:5)');
  });

  it('is the one file itself when there is one part', () => {
    const only = parseManifestPart('only.yaml', ENV);
    expect(mergeParts('folder', [only])).toBe(only);
  });

  it('treats an empty part as empty and a part that is not a map as an error in that file', () => {
    expect(errorLines({ 'a.yaml': ENV, 'b.yaml': '# nothing here yet\n' })).toEqual([]);
    expect(errorLines({ 'a.yaml': ENV, 'b.yaml': '- a\n- b\n' })).toEqual(['b.yaml:1:1: error: a manifest part must be a map of keys (environments, tools, agents, …), not a list']);
    expect(merge({ 'a.yaml': ENV, 'b.yaml': '- a\n' }).value).toBeUndefined();
  });
});
