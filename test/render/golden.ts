// Golden files: compare with test/render/golden/<name>; UPDATE_GOLDEN=1 rewrites them. A missing
// golden file fails the test (it is never created silently).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

const DIR = join(import.meta.dirname, 'golden');

/** Timestamps vary run to run in real plans; goldens hold a placeholder. */
export function normalize(text: string): string {
  return text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, '<TIME>');
}

export function expectGolden(name: string, actual: string): void {
  const file = join(DIR, name);
  const text = normalize(actual);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, text);
  expect(existsSync(file), `golden file ${name} is missing; run with UPDATE_GOLDEN=1`).toBe(true);
  expect(text).toBe(readFileSync(file, 'utf8'));
}
