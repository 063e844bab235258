// The README's manifest reference is hand-written; this keeps it honest against the schema.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { manifestSchema } from '../../src/core/schema.js';

type JsonSchemaNode = { properties?: Record<string, JsonSchemaNode>; additionalProperties?: JsonSchemaNode | boolean; anyOf?: JsonSchemaNode[]; items?: JsonSchemaNode };

function collectKeys(node: JsonSchemaNode | boolean | undefined, into: Set<string>): void {
  if (!node || typeof node === 'boolean') return;
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    into.add(key);
    collectKeys(child, into);
  }
  collectKeys(node.additionalProperties, into);
  for (const branch of node.anyOf ?? []) collectKeys(branch, into);
  collectKeys(node.items, into);
}

describe('README manifest reference', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const keys = new Set<string>();
  collectKeys(z.toJSONSchema(manifestSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaNode, keys);

  it('finds the schema keys to check', () => {
    expect(keys.size).toBeGreaterThan(25);
  });

  it.each([...keys].sort())('documents `%s`', (key) => {
    expect(readme).toMatch(new RegExp('`([a-zA-Z.]*\\.)?' + key.replace(/\$/g, '\\$') + '(\\.[a-zA-Z<>]+)*`'));
  });
});
