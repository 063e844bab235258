// The house rule "no function in src/ over 80 lines" (docs/architecture.md), kept true by
// measuring: scripts/function-length.mjs reads every file with the TypeScript parser.
import { describe, expect, it } from 'vitest';
import { MAX_FUNCTION_LINES, measureFunctions, measureSource } from '../../scripts/function-length.mjs';

/** A function of `lines` lines in all, its header and closing brace included. */
function body(lines: number): string {
  return Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
}

describe('function length', () => {
  // Parsing all of src/ takes about a second: once for the whole file.
  const all = measureFunctions();

  it('no function in src/ is over 80 lines', () => {
    const long = all.filter((f) => f.lines > MAX_FUNCTION_LINES).map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
    expect(long).toEqual([]);
  });

  it('measures every function in src/', () => {
    expect(MAX_FUNCTION_LINES).toBe(80);
    expect(all.length).toBeGreaterThan(1000);
    expect(all.some((f) => f.file === 'src/io/apply/executor.ts' && f.name === 'executePlan')).toBe(true);
  });

  it('counts declarations, arrows, methods and nested functions from first line to closing brace', () => {
    const text = [
      `export function declared() {\n${body(81)}\n}`,
      `const arrow = () => {\n${body(80)}\n};`,
      `class C {\n  method() {\n${body(3)}\n  }\n}`,
      `const o = { inner: function () {\n${body(82)}\n} };`,
      `function outer() {\n  const nested = async () => {\n${body(5)}\n  };\n}`,
    ].join('\n');
    const found = measureSource('x.ts', text).map(({ name, lines }) => [name, lines]);
    expect(found).toEqual([
      ['declared', 81],
      ['arrow', 80],
      ['method', 3],
      ['inner', 82],
      ['outer', 7],
      ['nested', 5],
    ]);
  });
});
