// The emulator's kinds are listed once, in src/emulator/resources/registry.ts. A kind folder that no
// registry line names would serve no route at all; this holds the folders and the lines together.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EMULATOR_KINDS } from '../../src/emulator/resources/registry.js';

const RESOURCES_DIR = fileURLToPath(new URL('../../src/emulator/resources/', import.meta.url));

describe('the emulator resource registry', () => {
  it('names every kind folder under src/emulator/resources/, and no other', () => {
    const folders = readdirSync(RESOURCES_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect([...EMULATOR_KINDS].sort()).toEqual(folders);
  });
});
