// Hostile manifests: broken YAML, resource-exhaustion attempts, schema and reference errors.
// Big inputs are generated here at test time, never committed.
import { applyWith, editedManifest, GOOD_MANIFEST, replaceOnce, type HostileCase } from './cases.js';

const r = replaceOnce;
const MB = 1024 * 1024;

function writeRaw(name: string, content: (good: string) => string | Uint8Array, run: Parameters<typeof applyWith>[2] = {}): HostileCase {
  return { name, setup: (files) => applyWith(files, files.write('agents.yaml', content(GOOD_MANIFEST)), run) };
}

export const syntaxCases: HostileCase[] = [
  editedManifest('unclosed flow sequence', (m) => r(m, 'actions: [get_weather]', 'actions: [get_weather')),
  // A tab breaks the YAML structure below it too; every resulting error is reported.
  editedManifest('tab indentation', (m) => r(m, '    displayName: Get weather', '\tdisplayName: Get weather'), { errors: 7 }),
  editedManifest('unterminated double-quoted string', (m) => r(m, 'name: Support assistant', 'name: "Support assistant')),
  editedManifest('duplicate key in a tool', (m) => r(m, '    displayName: Get weather\n', '    displayName: Get weather\n    displayName: Other\n')),
  editedManifest('duplicate top-level key', (m) => `${m}version: 1\n`),
  editedManifest('duplicate tool name', (m) => r(m, 'agents:\n', '  get_weather:\n    displayName: b\n    executionText: c\n    doNotExecute: true\nagents:\n')),
  editedManifest('mapping value where none is allowed', (m) => r(m, 'region: us', 'region: us: eu')),
  editedManifest('unknown alias', (m) => r(m, 'actions: [get_weather]', 'actions: *nope')),
  editedManifest('duplicate key inside free-form metaData', (m) => r(m, '    actions: [get_weather]\n', '    actions: [get_weather]\n    metaData: { a: 1, a: 2 }\n')),
  editedManifest('two documents', (m) => `${m}---\nversion: 1\n`),
  // Indentation mistakes: one sentence about indentation, at the line that is wrong.
  editedManifest('key indented too far', (m) => r(m, '    executionText: Checking the weather', '      executionText: Checking the weather')),
  editedManifest('key indented too little', (m) => r(m, '    executionText: Checking the weather', '   executionText: Checking the weather')),
  editedManifest('unquoted ${…} inside a flow list', (m) => r(m, 'exclude: [url_7]', 'exclude: [${var.model}]')),
  editedManifest('__proto__ key in metaData', (m) => r(m, '    actions: [get_weather]\n', '    actions: [get_weather]\n    metaData: { __proto__: { isAdmin: true } }\n')),
  editedManifest('tool named __proto__', (m) => r(m, '  get_weather:\n', '  __proto__:\n    displayName: x\n    executionText: y\n    doNotExecute: true\n  get_weather:\n')),
  writeRaw('empty file', () => ''),
  writeRaw('only comments', () => '# nothing here\n# at all\n'),
  writeRaw('a list at the top level', () => '- version: 1\n- tools: {}\n'),
  writeRaw('a scalar at the top level', () => 'just some text\n'),
  writeRaw('binary bytes', () => Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)),
  writeRaw('NUL byte inside a value', (m) => r(m, 'Checking the weather', 'Checking\u0000the weather')),
  writeRaw('UTF-16 file', (m) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(m, 'utf16le')])),
  writeRaw('invalid UTF-8 in the middle', (m) => {
    const at = m.indexOf('Support assistant');
    return Buffer.concat([Buffer.from(m.slice(0, at)), Buffer.from([0xc3, 0x28]), Buffer.from(m.slice(at))]);
  }),
];

export const exhaustionCases: HostileCase[] = [
  // The classic billion laughs: nine levels of ten aliases each.
  writeRaw('alias bomb', (m) => {
    const levels = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 10; i++) levels.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]`);
    return r(m, '    actions: [get_weather]\n', `    actions: [get_weather]\n    metaData:\n${levels.map((l) => `      ${l}`).join('\n')}\n`);
  }),
  writeRaw('10,000-level flow nesting', (m) => r(m, '    actions: [get_weather]\n', `    actions: [get_weather]\n    metaData: { deep: ${'['.repeat(10_000)}${']'.repeat(10_000)} }\n`)),
  writeRaw('10,000-level nested maps', (m) => r(m, '    actions: [get_weather]\n', `    actions: [get_weather]\n    metaData: ${'{a: '.repeat(10_000)}1${'}'.repeat(10_000)}\n`)),
  // 50 MB of otherwise valid tools: refused for its size before it is parsed.
  writeRaw('50 MB manifest', (m) => {
    const tool = (i: number) => `  t${i}:\n    displayName: ${'d'.repeat(200)}\n    executionText: e\n    doNotExecute: true\n`;
    const chunk = Array.from({ length: 1000 }, (_, i) => tool(i)).join('');
    const copies = Math.ceil((50 * MB) / chunk.length);
    const body = Array.from({ length: copies }, (_, c) => chunk.replace(/ {2}t(\d+):/g, (_, i: string) => `  t${c}_${i}:`)).join('');
    return r(m, 'agents:\n', `${body}agents:\n`);
  }),
  // One 4 MB string, anchored once and aliased 9,000 times: few nodes, 36 GB of text.
  writeRaw('4 MB string aliased 9,000 times', (m) => {
    const copies = Array.from({ length: 9000 }, () => '        - *big').join('\n');
    return r(m, '    actions: [get_weather]\n', `    actions: [get_weather]\n    metaData:\n      text: &big ${'x'.repeat(4 * MB)}\n      copies:\n${copies}\n`);
  }),
  // 10 MB (just under the size limit) in a value that is wrong: the error must not echo it.
  writeRaw('10 MB string in an enum', (m) => r(m, 'region: us', `region: ${'x'.repeat(10_000_000)}`)),
  // A key the name pattern refuses; the agent's reference to get_weather then breaks too.
  writeRaw('10 MB invalid tool name', (m) => r(m, '  get_weather:\n    displayName', `  1${'w'.repeat(10_000_000)}:\n    displayName`), { errors: 2 }),
];

export const schemaCases: HostileCase[] = [
  editedManifest('version 2', (m) => r(m, 'version: 1', 'version: 2')),
  editedManifest('version as a string', (m) => r(m, 'version: 1', 'version: "1"')),
  editedManifest('version missing', (m) => r(m, 'version: 1\n', '')),
  editedManifest('environments empty', (m) => r(m, 'environments:\n  local:\n    appId: local\n    region: us\n    vars: { model: gpt-4o }\n', 'environments: {}\n'), { errors: 2 }),
  editedManifest('region not an enum value', (m) => r(m, 'region: us', 'region: mars')),
  editedManifest('appId missing', (m) => r(m, '    appId: local\n', '')),
  editedManifest('baseUrl with a non-http scheme', (m) => r(m, '    region: us\n', '    region: us\n    baseUrl: ftp://example.com/v3\n'), { env: { AGENTSYNC_BASE_URL: '' } }),
  editedManifest('appId that changes the host', (m) => r(m, 'appId: local', 'appId: "127.0.0.1:4010#"')),
  editedManifest('baseUrl with a password', (m) => r(m, '    region: us\n', '    region: us\n    baseUrl: http://deploy:Hunter2Pass@127.0.0.1:4010/v3\n'), { env: { AGENTSYNC_BASE_URL: '' } }),
  {
    name: 'AGENTSYNC_BASE_URL with a password',
    setup: (files) => applyWith(files, files.manifest, { env: { AGENTSYNC_BASE_URL: 'http://deploy:Hunter2Pass@127.0.0.1:9/v3' } }),
  },
  editedManifest('an action listed under tools', (m) => r(m, 'actions: [get_weather]', 'tools: [get_weather]')),
  editedManifest('apiKeyEnv not a variable name', (m) => r(m, '    region: us\n', '    region: us\n    apiKeyEnv: 1BAD-NAME\n')),
  editedManifest('unknown top-level key', (m) => `${m}extras: {}\n`),
  editedManifest('typo in a tool key', (m) => r(m, '    displayName: Get weather\n', '    displayName: Get weather\n    displayname: Get weather\n')),
  editedManifest('tool name with a space', (m) => r(m, '  get_weather:\n', '  "get weather":\n'), { errors: 2 }),
  editedManifest('tool name starting with a digit', (m) => r(m, '  get_weather:\n', '  1weather:\n'), { errors: 2 }),
  editedManifest('description missing', (m) => r(m, '    description: Current weather for a city\n', '')),
  // doNotExecute also makes get_weather a tool, so the agent's actions list is wrong too.
  editedManifest('parameters with doNotExecute true', (m) => r(m, '    description: Current weather for a city\n', '    description: Current weather for a city\n    doNotExecute: true\n'), {
    errors: 2,
  }),
  editedManifest('parameters.type array', (m) => r(m, '      type: object', '      type: array')),
  editedManifest('property without a description', (m) => r(m, '{ type: string, description: City name }', '{ type: string }')),
  editedManifest('required names an unknown property', (m) => r(m, 'required: [city]', 'required: [city, country]')),
  editedManifest('integrationType not an enum value', (m) => r(m, 'integrationType: llm', 'integrationType: robot')),
  editedManifest('integrationType agent without integrationMeta', (m) => r(m, 'integrationType: llm', 'integrationType: agent')),
  editedManifest('integrationMeta.baseUrl not a URL', (m) => r(m, 'integrationType: llm', 'integrationType: agent\n    integrationMeta: { baseUrl: not a url }')),
  editedManifest('icon with a javascript: URL', (m) => r(m, '    actions: [get_weather]\n', '    actions: [get_weather]\n    icon: "javascript:alert(1)"\n')),
  editedManifest('isActive as a string', (m) => r(m, '    actions: [get_weather]\n', '    actions: [get_weather]\n    isActive: "yes"\n')),
  editedManifest('agent actions as a string', (m) => r(m, 'actions: [get_weather]', 'actions: get_weather')),
  editedManifest('empty agent name', (m) => r(m, 'name: Support assistant', 'name: ""')),
  editedManifest('displayName as a number', (m) => r(m, 'displayName: Get weather', 'displayName: 123')),
  editedManifest('notify receiverType not an enum value', (m) => `${m}notify: { receiver: ops, receiverType: channel }\n`),
  editedManifest('website without exclude', (m) => r(m, '      exclude: [url_7]\n', '')),
];

export const referenceCases: HostileCase[] = [
  editedManifest('agent uses an unknown tool', (m) => r(m, '    actions: [get_weather]\n', '    actions: [get_weather]\n    tools: [no_such_tool]\n')),
  editedManifest('agent uses an unknown action', (m) => r(m, 'actions: [get_weather]', 'actions: [get_weather, no_such_action]')),
  editedManifest('unset environment variable', (m) => r(m, 'name: Support assistant', 'name: ${AGENTSYNC_TORTURE_UNSET}')),
  editedManifest('the API key interpolated', (m) => r(m, 'name: Support assistant', 'name: "bot ${COMETCHAT_API_KEY}"')),
  editedManifest('unknown var', (m) => r(m, 'integrateWith: ${var.model}', 'integrateWith: ${var.nothing}')),
  editedManifest('unset secret', (m) => r(m, '    actions: [get_weather]\n', '    actions: [get_weather]\n    instruction: ${secret:AGENTSYNC_TORTURE_UNSET_SECRET}\n')),
  // A valid manifest with a question to answer, not an invalid one: the message names the choices, not a line.
  editedManifest('several environments and no --env', (m) => r(m, 'environments:\n', 'environments:\n  prod:\n    appId: prod\n    region: eu\n'), { lineColIn: undefined }),
  {
    name: 'an --env that does not exist',
    setup: (files) => {
      const run = applyWith(files, files.manifest);
      return { ...run, args: [...run.args, '--env', 'staging'], lineColIn: undefined, names: undefined };
    },
  },
];
