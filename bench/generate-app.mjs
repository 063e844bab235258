#!/usr/bin/env node
// A seeded, reproducible *server* for export benchmarks and tests: an emulator data file (the
// format of `agentsync emulator --data`) holding an app that was "clicked together" with `count`
// tools and agents, as the server stores them. The same (count, seed) always gives the same file.
//
//   node bench/generate-app.mjs --count 10000 --seed 42 [--app-id local] > app.json
//
// About 10% are agents. A quarter of the tools are `doNotExecute` (type `tool`), the rest actions;
// each agent names some of each in the right list, every tenth agent has a secret header, and
// every 25th is an `agent`-type integration with a base URL.
import process from 'node:process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { seededRandom } from './generate.mjs';

const WORDS = ['weather', 'order', 'invoice', 'ticket', 'refund', 'shipment', 'account', 'profile', 'booking', 'calendar', 'inventory', 'payment'];
const EPOCH = Date.parse('2025-01-01T00:00:00.000Z');
const pad = (n) => String(n).padStart(5, '0');

/** The header value every tenth agent holds, so a test can set the export's secrets. */
export function headerSecret(agentIndex) {
  return `Bearer token-${pad(agentIndex)}-s3cr3t`;
}

export function generateAppData({ count, seed = 42, appId = 'local' }) {
  const random = seededRandom(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const agentCount = Math.max(1, Math.round(count * 0.1));
  const toolCount = Math.max(2, count - agentCount);
  const iso = (i) => new Date(EPOCH + i * 1000).toISOString();
  const tools = [];
  for (let i = 1; i <= toolCount; i++) {
    const name = `tool_${pad(i)}`;
    const doNotExecute = i % 4 === 0;
    const subject = pick(WORDS);
    const properties = {};
    for (let p = 0; p < 1 + Math.floor(random() * 3); p++) properties[`p${p}_${pick(WORDS)}`] = { type: 'string', description: `The ${pick(WORDS)} to use`, ...(p === 0 ? { enum: ['a', 'b'] } : {}) };
    tools.push({
      _id: `${appId}_${name}`,
      appId,
      name,
      type: doNotExecute ? 'tool' : 'action',
      displayName: `${subject} lookup ${i}`,
      executionText: `Looking up the ${subject}`,
      doNotExecute,
      tool: doNotExecute ? { name } : { name, description: `Finds the ${subject} by ${pick(WORDS)}`, parameters: { type: 'object', properties, required: [Object.keys(properties)[0]] } },
      createdAt: iso(i),
      updatedAt: iso(i),
    });
  }
  const ofType = (type) => tools.filter((t) => t.type === type).map((t) => t.name);
  const toolNames = ofType('tool');
  const actionNames = ofType('action');
  const agents = [];
  for (let i = 1; i <= agentCount; i++) {
    const integrationType = i % 25 === 0 ? 'agent' : 'llm';
    const meta = integrationType === 'agent' || i % 10 === 0 ? { baseUrl: `https://agents.example.com/${i}` } : undefined;
    if (meta && i % 10 === 0) meta.headers = { Authorization: headerSecret(i) };
    agents.push({
      uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      appId,
      name: `Assistant ${pad(i)}`,
      isActive: i % 7 !== 0,
      integrateWith: integrationType === 'agent' ? 'langgraph' : 'gpt-4o',
      integrationType,
      tools: [...new Set([pick(toolNames), pick(toolNames)])].sort(),
      actions: [...new Set([pick(actionNames), pick(actionNames), pick(actionNames)])].sort(),
      instruction: `You help customers with their ${pick(WORDS)}.\nBe brief.`,
      suggestions: [`Where is my ${pick(WORDS)}?`],
      ...(meta ? { integrationMeta: meta } : {}),
      ...(i % 3 === 0 ? { metaData: { team: pick(WORDS) } } : {}),
      deletedAt: null,
      createdAt: iso(i),
      updatedAt: iso(i),
    });
  }
  return { version: 1, appId, nextMessageId: 1, users: [], groups: [], websites: [], tools, agents, messages: [] };
}

function parseArgs(argv) {
  const args = { count: 1000, seed: 42, appId: 'local' };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--count') args.count = Number(value);
    else if (flag === '--seed') args.seed = Number(value);
    else if (flag === '--app-id') args.appId = value;
    else if (flag === '--out') args.out = value;
    else throw new Error(`unknown option ${flag}`);
  }
  return args;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = parseArgs(process.argv.slice(2));
  const text = JSON.stringify(generateAppData(args)) + '\n';
  if (args.out) writeFileSync(args.out, text);
  else process.stdout.write(text);
}
