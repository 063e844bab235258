// Per-resource `environments:` and list/map vars (docs/spec/manifest.md#per-environment-resources), through resolveManifest.
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/core/parse.js';
import { resolveManifest, type ResolveOptions } from '../../src/core/resolve.js';

const resolve = (text: string, options: Partial<ResolveOptions> = {}) => resolveManifest(parseManifest('agents.yaml', text), { env: {}, mode: 'plan', ...options });

const messages = (text: string, options: Partial<ResolveOptions> = {}) => resolve(text, options).diagnostics.map((d) => `${d.line}:${d.column} ${d.path}: ${d.message}`);

const ENVIRONMENTS = `version: 1
environments:
  us: { appId: app-us, region: us, vars: { model: m-us, shared: [t_common, t_us], meta: { tier: gold, limits: { rpm: 10 } } } }
  eu: { appId: app-eu, region: eu, vars: { model: m-eu, shared: [t_common], meta: { tier: silver } } }
`;

const tool = (name: string, extra = '') => `  ${name}: { displayName: ${name}, executionText: x, doNotExecute: true${extra} }`;

describe('per-resource environments', () => {
  const manifest = `${ENVIRONMENTS}tools:
${tool('t_common')}
${tool('t_us', ', environments: [us]')}
agents:
  everywhere: { name: E, integrationType: llm, integrateWith: m, tools: [t_common] }
  us_only: { name: U, integrationType: llm, integrateWith: m, tools: [t_us, t_common], environments: [us] }
knowledgeBase:
  websites:
    docs_eu: { parentUniqueId: web_1, exclude: [], environments: [eu] }
`;

  it('keeps a resource only in its environments, and never sends the key', () => {
    const us = resolve(manifest, { environment: 'us' });
    expect(us.diagnostics).toEqual([]);
    expect(us.desired?.resources.map((r) => r.address)).toEqual(['tool.t_common', 'tool.t_us', 'agent.everywhere', 'agent.us_only']);
    for (const resource of us.desired?.resources ?? []) expect(resource.spec).not.toHaveProperty('environments');
    const eu = resolve(manifest, { environment: 'eu' });
    expect(eu.diagnostics).toEqual([]);
    expect(eu.desired?.resources.map((r) => r.address)).toEqual(['tool.t_common', 'agent.everywhere', 'website.docs_eu']);
    expect(eu.desired?.resources.at(-1)?.spec).toEqual({ parentUniqueId: 'web_1', exclude: [] });
  });

  it('names an unknown environment at its position, with a did-you-mean', () => {
    const bad = manifest.replace('environments: [us] }\nagents', 'environments: [us, uss] }\nagents');
    expect(messages(bad, { environment: 'us' })).toEqual([`7:87 tools.t_us.environments[1]: unknown environment "uss"; the manifest defines us, eu; did you mean "us"?`]);
  });

  it('refuses an empty list', () => {
    const bad = manifest.replace('environments: [eu]', 'environments: []');
    expect(messages(bad, { environment: 'us' }).join('\n')).toEqual(
      ['13:66 knowledgeBase.websites.docs_eu.environments: environments: [] puts this resource in no environment; name at least one, or leave the key out to mean every environment'].join('\n'),
    );
  });

  it('refuses an agent that names a tool missing from one of its environments', () => {
    const bad = manifest.replace(
      'everywhere: { name: E, integrationType: llm, integrateWith: m, tools: [t_common] }',
      'everywhere: { name: E, integrationType: llm, integrateWith: m, tools: [t_common, t_us] }',
    );
    expect(messages(bad, { environment: 'us' })).toEqual([]);
    expect(messages(bad, { environment: 'eu' })).toEqual([
      `9:84 agents.everywhere.tools[1]: tool "t_us" does not exist in environment "eu" (it has environments: [us]), but this agent does; add "eu" to the tool's environments, or limit the agent with environments:`,
    ]);
    // validate without -e checks each environment and says which one the problem is in.
    expect(messages(bad, { mode: 'validate' })).toEqual([expect.stringMatching(/^9:84 agents.everywhere.tools\[1\]: environment "eu": tool "t_us" does not exist in environment "eu"/)]);
  });

  it('ignores interpolation problems in a resource the environment does not have', () => {
    const text = `${ENVIRONMENTS}tools:
${tool('t_us', ', environments: [us], description: "${var.only_us} ${secret:US_TOKEN}"')}
`.replace('model: m-us,', 'model: m-us, only_us: hello,');
    const eu = resolve(text, { environment: 'eu' });
    expect(eu.diagnostics).toEqual([]);
    expect(eu.desired?.resources).toEqual([]);
    // In us the same problems are real ones.
    expect(messages(text, { environment: 'us' })).toEqual([expect.stringContaining('secret US_TOKEN is not set')]);
    // validate with no -e checks every environment, and says which one a problem belongs to.
    expect(messages(text, { mode: 'validate', env: {} })).toEqual([expect.stringMatching(/environment "us": secret US_TOKEN is not set.*plan and apply will need it/)]);
  });
});

describe('list and map vars', () => {
  const manifest = `${ENVIRONMENTS}tools:
${tool('t_common')}
${tool('t_us')}
agents:
  bot:
    name: Bot \${var.model}
    integrationType: llm
    integrateWith: \${var.model}
    tools: \${var.shared}
    metaData: \${var.meta}
`;

  it('takes a list or map whole where the value is exactly ${var.X}', () => {
    const us = resolve(manifest, { environment: 'us' });
    expect(us.diagnostics).toEqual([]);
    expect(us.desired?.resources.find((r) => r.address === 'agent.bot')?.spec).toMatchObject({
      name: 'Bot m-us',
      tools: ['t_common', 't_us'],
      metaData: { tier: 'gold', limits: { rpm: 10 } },
    });
    const eu = resolve(manifest, { environment: 'eu' });
    expect(eu.desired?.resources.find((r) => r.address === 'agent.bot')?.spec).toMatchObject({ tools: ['t_common'], metaData: { tier: 'silver' } });
  });

  it('keeps scalars as text, as before', () => {
    const text = manifest.replace('model: m-us,', 'model: 4,');
    expect(resolve(text, { environment: 'us' }).desired?.resources.find((r) => r.address === 'agent.bot')?.spec).toMatchObject({ integrateWith: '4', name: 'Bot 4' });
  });

  it('refuses a list or map inside a longer string, at the variable', () => {
    const text = manifest.replace('name: Bot ${var.model}', 'name: Bot ${var.shared}');
    expect(messages(text, { environment: 'us' })).toEqual([
      '10:15 agents.bot.name: vars.shared is a list, so ${var.shared} must be the whole value (exactly "${var.shared}"), not part of a longer string',
    ]);
  });

  it('lets the schema check what a whole var holds', () => {
    const text = manifest.replace('meta: { tier: silver }', 'meta: [silver]');
    expect(messages(text, { environment: 'eu' }).join('\n')).toMatch(/agents\.bot\.metaData: must be/);
  });

  it('checks the tools a list var names against each environment', () => {
    const text = `${ENVIRONMENTS}tools:
${tool('t_common')}
${tool('t_us', ', environments: [us]')}
agents:
  bot: { name: Bot, integrationType: llm, integrateWith: m, tools: "\${var.shared}" }
`;
    expect(messages(text, { mode: 'validate' })).toEqual([]);
    expect(resolve(text, { environment: 'us' }).desired?.resources.at(-1)?.spec).toMatchObject({ tools: ['t_common', 't_us'] });
    const wrong = text.replace('shared: [t_common], meta', 'shared: [t_us], meta');
    expect(messages(wrong, { mode: 'validate' })).toEqual([expect.stringContaining('environment "eu": tool "t_us" does not exist in environment "eu"')]);
  });

  it('validates every environment without -e', () => {
    const text = manifest.replace('shared: [t_common]', 'shared: [t_missing]');
    expect(messages(text, { mode: 'validate' }).join('\n')).toMatch(/environment "eu": unknown tool "t_missing"|agents\.bot\.tools/);
  });
});

describe('a resource that uses a var only its environments have', () => {
  it('resolves in an environment without the var, where the resource does not exist', () => {
    const text = `version: 1
environments:
  us: { appId: app-us, region: us, vars: { shared: [t_common] } }
  in: { appId: app-in, region: in }
tools:
  t_common: { displayName: C, executionText: c, doNotExecute: true }
agents:
  bot: { name: Bot, integrationType: llm, integrateWith: m, tools: "\${var.shared}", environments: [us] }
`;
    const india = resolve(text, { environment: 'in' });
    expect(india.diagnostics).toEqual([]);
    expect(india.desired?.resources.map((r) => r.address)).toEqual(['tool.t_common']);
    expect(resolve(text, { environment: 'us' }).desired?.resources.map((r) => r.address)).toEqual(['tool.t_common', 'agent.bot']);
    expect(messages(text, { mode: 'validate' })).toEqual([]);
    // A real schema error in the us-only agent is still an error when planning in.
    expect(messages(text.replace('name: Bot, ', ''), { environment: 'in' })).toEqual([expect.stringContaining('missing required key "name"')]);
  });
});
