// nestedDeeperThan (src/core/json-depth.ts): the guard every read of a state, journal line or saved
// plan passes before code that recurses walks it.
import { describe, expect, it } from 'vitest';
import { nestedDeeperThan } from '../../src/core/json-depth.js';

/** `levels` nested containers, alternating objects and arrays, as JSON.parse would give them. */
function nested(levels: number, key = 'a'): unknown {
  let text = '1';
  for (let i = 0; i < levels; i++) text = i % 2 === 0 ? `[${text}]` : `{"${key}":${text}}`;
  return JSON.parse(text) as unknown;
}

describe('nestedDeeperThan', () => {
  it('counts objects and arrays alike; exactly `max` levels pass, one more does not', () => {
    expect(nestedDeeperThan(nested(10), 10)).toBe(false);
    expect(nestedDeeperThan(nested(11), 10)).toBe(true);
    expect(nestedDeeperThan(nested(5_000), 1_000)).toBe(true);
  });

  it('a scalar, null or a flat record is no depth at all', () => {
    for (const value of [1, 'text', null, true, undefined]) expect(nestedDeeperThan(value, 0)).toBe(false);
    expect(nestedDeeperThan({ a: 1, b: 'x', c: null }, 1)).toBe(false);
  });

  it('finds a deep branch beside shallow ones, and one under an own __proto__ key', () => {
    const wide = { shallow: [1, 2, { x: 1 }], deep: nested(50) };
    expect(nestedDeeperThan(wide, 40)).toBe(true);
    expect(nestedDeeperThan(JSON.parse(`{"__proto__": ${JSON.stringify(nested(50))}}`) as unknown, 40)).toBe(true);
  });
});
