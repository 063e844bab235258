// lintManifest: each rule with a manifest that trips it and one that does not, positions, and `lint:`.
import { describe, expect, it } from 'vitest';
import { lintManifest, type LintFinding } from '../../src/core/lint/index.js';
import { parseManifest } from '../../src/core/parse.js';
import { MANIFEST_SECTIONS, REFERRING_FIELDS, RESOURCE_TYPES, type ResourceType } from '../../src/core/kinds/index.js';

const HEAD = `version: 1
environments:
  prod: { appId: acme, region: eu }
`;

/** A clean manifest: every rule passes. Tests append or replace parts of it. */
const CLEAN = `${HEAD}tools:
  lookup_order:
    displayName: Lookup order
    executionText: Looking up the order
    description: Finds an order by its number and returns its status
    parameters:
      type: object
      properties:
        id: { type: string, description: "Order number, e.g. A-1042" }
agents:
  support:
    name: Support
    integrationType: llm
    integrateWith: gpt-4o
    instruction: Help customers with their orders.
    actions: [lookup_order]
`;

const lint = (text: string): LintFinding[] => lintManifest(parseManifest('agents.yaml', text));
const only = (text: string, rule: string) => lint(text).filter((f) => f.rule === rule);
const brief = (f: LintFinding) => `${f.line}:${f.column} ${f.severity} ${f.rule}`;

describe('lint: a clean manifest', () => {
  it('has no findings', () => {
    expect(lint(CLEAN)).toEqual([]);
  });
});

describe('lint rules, each failing and passing', () => {
  it('unused-tool: a tool no agent lists', () => {
    const text = CLEAN.replace('    actions: [lookup_order]\n', '');
    expect(only(text, 'unused-tool').map(brief)).toEqual(['5:3 warning unused-tool']);
    expect(only(text, 'unused-tool')[0]?.message).toContain('tool "lookup_order" is not used by any agent');
    expect(only(CLEAN, 'unused-tool')).toEqual([]);
  });

  it('unused-tool: a tool listed in tools (not actions) counts as used', () => {
    const text = CLEAN.replace('    actions: [lookup_order]\n', '    tools: [lookup_order]\n');
    expect(only(text, 'unused-tool')).toEqual([]);
  });

  it('duplicate-agent-name: two agents with the same name', () => {
    const twin = `  support_two:\n    name: Support\n    integrationType: llm\n    integrateWith: gpt-4o\n    instruction: Also help.\n`;
    const findings = only(CLEAN + twin, 'duplicate-agent-name');
    expect(findings.map(brief)).toEqual(['21:11 error duplicate-agent-name']);
    expect(findings[0]?.message).toBe('agents support_two and support (line 15) have the same name "Support"; users and the dashboard cannot tell them apart');
    expect(only(CLEAN + twin.replace('name: Support', 'name: Support two'), 'duplicate-agent-name')).toEqual([]);
  });

  it('missing-instruction: an agent without one, or with an empty one', () => {
    const without = CLEAN.replace('    instruction: Help customers with their orders.\n', '');
    expect(only(without, 'missing-instruction').map(brief)).toEqual(['14:3 warning missing-instruction']);
    const empty = CLEAN.replace('Help customers with their orders.', '""');
    expect(only(empty, 'missing-instruction').map(brief)).toEqual(['18:5 warning missing-instruction']);
    expect(only(CLEAN, 'missing-instruction')).toEqual([]);
  });

  it('short-tool-description: under 20 characters', () => {
    const text = CLEAN.replace('Finds an order by its number and returns its status', 'Finds an order');
    const findings = only(text, 'short-tool-description');
    expect(findings.map(brief)).toEqual(['8:18 warning short-tool-description']);
    expect(findings[0]?.message).toContain('14-character description');
    // Exactly 20 characters passes; a description from a variable cannot be judged.
    expect(only(CLEAN.replace('Finds an order by its number and returns its status', 'Finds orders by id!!'), 'short-tool-description')).toEqual([]);
    expect(only(CLEAN.replace('Finds an order by its number and returns its status', '${var.d}'), 'short-tool-description')).toEqual([]);
  });

  it('comma-split-flow-map: the text after a comma became a key', () => {
    const text = CLEAN.replace('description: "Order number, e.g. A-1042"', 'description: Order number, e.g. A-1042');
    const findings = only(text, 'comma-split-flow-map');
    expect(findings.map(brief)).toEqual(['12:56 error comma-split-flow-map']);
    expect(findings[0]?.path).toBe('tools.lookup_order.parameters.properties.id["e.g. A-1042"]');
    expect(findings[0]?.message).toContain('quote the whole text (description: "Order number, e.g. A-1042")');
    // Quoted, or block YAML, or an explicit empty value: no finding.
    expect(only(CLEAN, 'comma-split-flow-map')).toEqual([]);
    expect(only(`${HEAD}x: { a: 1, b: }\n`, 'comma-split-flow-map')).toEqual([]);
    expect(only(`${HEAD}x: { a: "quoted", b }\n`, 'comma-split-flow-map')).toEqual([]);
  });

  it('secret-literal: token shapes anywhere, literals under credential keys, never ${secret:…}', () => {
    const key = 'sk-' + 'a1B2c3D4e5F6g7H8i9J0k1L2';
    const shaped = CLEAN.replace('Help customers with their orders.', `Use key ${key} for lookups.`);
    const findings = only(shaped, 'secret-literal');
    expect(findings.map(brief)).toEqual(['18:26 error secret-literal']);
    expect(findings[0]?.message).toContain('looks like an OpenAI-style API key');
    expect(JSON.stringify(findings)).not.toContain(key);
    expect(findings[0]?.lineText).toBeUndefined();

    const headers = (value: string) => `${CLEAN}    integrationMeta: { headers: { Authorization: "${value}", X-Api-Key: ${value === 'x' ? 'x' : 'abcd1234efgh'} } }\n`;
    expect(only(headers('Bearer 0123456789abcdef0123'), 'secret-literal').map(brief)).toEqual(['20:51 error secret-literal', '20:92 error secret-literal']);
    expect(only(headers('Bearer ${secret:TOKEN}').replace('abcd1234efgh', '${secret:KEY}'), 'secret-literal')).toEqual([]);
    // Short values and sentences under such keys are not taken for credentials.
    expect(only(headers('x'), 'secret-literal')).toEqual([]);
    expect(only(CLEAN, 'secret-literal')).toEqual([]);
  });

  it('insecure-url: http:// except loopback', () => {
    const text = CLEAN.replace('Help customers with their orders.', 'See http://docs.example.com/help and https://ok.example.com');
    const findings = only(text, 'insecure-url');
    expect(findings.map(brief)).toEqual(['18:22 warning insecure-url']);
    expect(findings[0]?.message).toBe('http:// URL to docs.example.com: anything sent there travels unencrypted; use https://');
    const local = `${HEAD.replace('{ appId: acme, region: eu }', '{ appId: acme, region: eu, baseUrl: "http://127.0.0.1:4010/v3" }')}`;
    expect(only(local, 'insecure-url')).toEqual([]);
    expect(only(`${HEAD}x: http://localhost:8080\n`, 'insecure-url')).toEqual([]);
    expect(only(CLEAN, 'insecure-url')).toEqual([]);
  });
});

describe('lint: configuration and bad input', () => {
  it('lint: turns a rule off or changes its severity', () => {
    const text = CLEAN.replace('    actions: [lookup_order]\n', '').replace('    instruction: Help customers with their orders.\n', '');
    expect(lint(text).map((f) => `${f.rule} ${f.severity}`)).toEqual(['unused-tool warning', 'missing-instruction warning']);
    const configured = `${text}lint:\n  unused-tool: off\n  missing-instruction: error\n`;
    expect(lint(configured).map((f) => `${f.rule} ${f.severity}`)).toEqual(['missing-instruction error']);
  });

  it('an unknown rule or setting in lint: is an error that suggests the right one', () => {
    const findings = lint(`${CLEAN}lint:\n  unused-tools: off\n  insecure-url: loud\n`);
    expect(findings.map(brief)).toEqual(['21:3 error lint-config', '22:17 error lint-config']);
    expect(findings[0]?.message).toContain('unknown lint rule "unused-tools"; did you mean "unused-tool"?');
    expect(findings[1]?.message).toBe('lint.insecure-url must be off, warning or error');
  });

  it('a file that cannot be parsed gives its parse errors', () => {
    const findings = lint('version: 1\nenvironments: [\n');
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.rule === 'parse' && f.severity === 'error')).toBe(true);
  });

  it('a malformed manifest is linted without throwing', () => {
    expect(() => lint(`${HEAD}tools: [a, b]\nagents: { x: 1, y: { tools: 3, name: 7 } }\n`)).not.toThrow();
  });
});

describe('lint: values that come from variables', () => {
  it('unused-tool: a tool named through a list var in any environment counts as used', () => {
    const text = CLEAN.replace('    actions: [lookup_order]\n', '    actions: ${var.order_tools}\n').replace(
      'prod: { appId: acme, region: eu }',
      'prod: { appId: acme, region: eu, vars: { order_tools: [lookup_order] } }\n  dev: { appId: acme-dev, region: eu, vars: { order_tools: [] } }',
    );
    expect(only(text, 'unused-tool')).toEqual([]);
    expect(only(text.replace('order_tools: [lookup_order]', 'order_tools: []'), 'unused-tool').map((f) => f.rule)).toEqual(['unused-tool']);
  });

  it('duplicate-agent-name: names from variables are not compared', () => {
    const twin = `  support_two:\n    name: \${var.name}\n    integrationType: llm\n    integrateWith: gpt-4o\n    instruction: Also help.\n`;
    expect(only(CLEAN.replace('name: Support', 'name: ${var.name}') + twin, 'duplicate-agent-name')).toEqual([]);
  });

  it('secret-literal: a URL with a password, but not one read from the environment', () => {
    const text = `${CLEAN}state:\n  url: postgres://agentsync:hunter2hunter2@db.example.com/agentsync\n`;
    const findings = only(text, 'secret-literal');
    expect(findings.map(brief)).toEqual(['21:8 error secret-literal']);
    expect(findings[0]?.message).toContain('looks like a URL with a password');
    expect(JSON.stringify(findings)).not.toContain('hunter2');
    expect(only(`${CLEAN}state:\n  url: \${AGENTSYNC_STATE_URL}\n`, 'secret-literal')).toEqual([]);
  });
});

describe('lint walks the kinds of the kind registry', () => {
  /** A valid entry of each kind, without references: a kind missing here does not compile. */
  const ENTRY: { readonly [T in ResourceType]: Record<string, unknown> } = {
    tool: { displayName: 'Lookup', executionText: 'Looking up', description: 'Finds an order by its number and returns its status', doNotExecute: true },
    agent: { name: 'Support', integrationType: 'llm', integrateWith: 'gpt-4o', instruction: 'Help.' },
    website: { url: 'https://docs.example/' },
    text: { title: 'Refunds', text: 'Refunds take 5 days.' },
    file: { file: 'handbook.pdf' },
    builderAgent: { name: 'Concierge', instruction: 'Help.' },
  };
  /** A manifest (JSON is YAML) with one entry of each kind, each in the section the registry gives it. */
  const manifestWith = (extra: { type: ResourceType; field: string; value: unknown } | undefined): string => {
    const tree: Record<string, unknown> = { version: 1, environments: { prod: { appId: 'acme', region: 'eu' } } };
    for (const type of RESOURCE_TYPES) {
      let at = tree;
      for (const segment of MANIFEST_SECTIONS[type]) at = (at[segment] ??= {}) as Record<string, unknown>;
      at[`one_${type}`] = extra?.type === type ? { ...ENTRY[type], [extra.field]: extra.value } : ENTRY[type];
    }
    return JSON.stringify(tree, null, 1);
  };

  it('counts a tool as used when any field the registry says names tools lists it, and only then', () => {
    const toolFields = REFERRING_FIELDS.filter((referring) => referring.refersTo === 'tool');
    expect(toolFields.length).toBeGreaterThan(0);
    expect(only(manifestWith(undefined), 'unused-tool').map((f) => f.message)).toEqual([expect.stringContaining('tool "one_tool" is not used')]);
    for (const { type, field } of toolFields) expect(only(manifestWith({ type, field, value: ['one_tool'] }), 'unused-tool'), `${type}.${field}`).toEqual([]);
  });
});
