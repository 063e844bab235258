// core/zod.ts: the sections of the manifest schema built on first use (core/schema.ts). One that a
// manifest leaves out is never built, and one that it holds reads exactly as if it had been built
// up front: the same output, the same issues and the same JSON Schema.
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { optionalSection } from '../../src/core/zod.js';

const section = () => z.strictObject({ name: z.string(), size: z._default(z.number(), 1) });

/** A section that counts its builds. */
function countedSection() {
  const built = { count: 0 };
  const lazy = z.lazy(() => {
    built.count += 1;
    return section();
  });
  return { built, lazy };
}

describe('optionalSection', () => {
  it('builds the section only when the input holds it, and then once', () => {
    const { built, lazy } = countedSection();
    const schema = z.strictObject({ version: z.literal(1), notify: optionalSection(lazy) });
    expect(schema.parse({ version: 1 })).toEqual({ version: 1 });
    expect(schema.safeParse({ version: 2 }).success).toBe(false);
    expect(built.count).toBe(0);
    expect(schema.parse({ version: 1, notify: { name: 'a' } })).toEqual({ version: 1, notify: { name: 'a', size: 1 } });
    expect(schema.parse({ version: 1, notify: { name: 'b' } })).toEqual({ version: 1, notify: { name: 'b', size: 1 } });
    expect(built.count).toBe(1);
  });

  it.each([[undefined], [{ name: 'a' }], [{ name: 1 }], [{ name: 'a', extra: true }], [{}], ['text'], [null], [[]]])('parses %j as z.optional of the section built up front', (value) => {
    const upFront = z.strictObject({ notify: z.optional(section()) });
    const onFirstUse = z.strictObject({ notify: optionalSection(z.lazy(section)) });
    const input = value === undefined ? {} : { notify: value };
    const expected = upFront.safeParse(input);
    const actual = onFirstUse.safeParse(input);
    expect(actual.data).toEqual(expected.data);
    expect(actual.error?.issues).toEqual(expected.error?.issues);
  });

  it('has the JSON Schema of z.optional of the section built up front', () => {
    const upFront = z.strictObject({ notify: z.optional(section()) });
    const onFirstUse = z.strictObject({ notify: optionalSection(z.lazy(section)) });
    expect(z.toJSONSchema(onFirstUse, { io: 'input' })).toEqual(z.toJSONSchema(upFront, { io: 'input' }));
  });
});

describe('z.lazy in a map or a list', () => {
  it('waits without help until an entry needs it', () => {
    const { built, lazy } = countedSection();
    const schema = z.strictObject({ websites: z._default(z.record(z.string(), lazy), {}), moved: z._default(z.array(lazy), []) });
    expect(schema.parse({})).toEqual({ websites: {}, moved: [] });
    expect(schema.parse({ websites: {}, moved: [] })).toEqual({ websites: {}, moved: [] });
    expect(built.count).toBe(0);
    expect(schema.parse({ moved: [{ name: 'a' }] })).toEqual({ websites: {}, moved: [{ name: 'a', size: 1 }] });
    expect(built.count).toBe(1);
  });
});
