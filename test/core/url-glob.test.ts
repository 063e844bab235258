import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileGlobSet, compileUrlGlob, urlGlobProblem } from '../../src/core/url-glob.js';

const cases: [glob: string, url: string, expected: boolean][] = [
  ['https://docs.example.com/blog/**', 'https://docs.example.com/blog/2024/hello', true],
  ['https://docs.example.com/blog/**', 'https://docs.example.com/blog/', true],
  ['https://docs.example.com/blog/**', 'https://docs.example.com/blog', false],
  ['https://docs.example.com/blog/**', 'https://docs.example.com/blogger', false],
  ['https://docs.example.com/blog/*', 'https://docs.example.com/blog/hello', true],
  ['https://docs.example.com/blog/*', 'https://docs.example.com/blog/2024/hello', false],
  ['**/changelog*', 'https://docs.example.com/changelog', true],
  ['**/changelog*', 'https://docs.example.com/a/b/changelog-2024', true],
  ['**/changelog*', 'https://docs.example.com/changelog/v2', false],
  ['**/changelog**', 'https://docs.example.com/changelog/v2', true],
  ['*', 'https://x', false],
  ['**', 'https://x/y', true],
  ['https://a.com/x?y=*', 'https://a.com/x?y=1', true],
  ['https://a.com/x?y=*', 'https://a.com/xay=1', false],
  ['https://a.com/page.html', 'https://a.com/page.html', true],
  ['https://a.com/page.html', 'https://a.com/pageXhtml', false],
  ['https://*.example.com/**', 'https://docs.example.com/a', true],
  ['https://*.example.com/**', 'https://a/b.example.com/a', false],
  ['https://a.com/*/x/**/y', 'https://a.com/p/x/y', false],
  ['https://a.com/*/x/**/y', 'https://a.com/p/x//y', true],
  ['https://a.com/*/x/**/y', 'https://a.com/p/x/q/r/y', true],
  // The host is case-insensitive (RFC 3986 §6.2.2.1); the path is not.
  ['https://A.com/', 'https://a.com/', true],
  ['https://a.com/A', 'https://a.com/a', false],
];

describe('URL globs', () => {
  it.each(cases)('%s against %s is %s', (glob, url, expected) => {
    expect(compileUrlGlob(glob).matches(url)).toBe(expected);
  });

  it.each([
    ['', /empty/],
    ['   ', /empty/],
    ['https://a.com/***', /three or more stars/],
    ['/blog/**', /start it with http/],
    ['blog/**', /start it with http/],
    ['https://a.com/a b', /spaces/],
    ['ftp://a.com/**', /start it with http/],
  ])('refuses %j', (glob, message) => {
    expect(urlGlobProblem(glob)).toMatch(message);
    expect(() => compileUrlGlob(glob)).toThrow(message);
  });

  it('accepts the globs of the contract', () => {
    for (const glob of ['https://docs.example.com/blog/**', '**/changelog*', '*']) expect(urlGlobProblem(glob)).toBeUndefined();
  });

  it('agrees with a regular expression built from the same rules', () => {
    const piece = fc.constantFrom('a', 'b', '/', '*', '**');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.array(fc.constantFrom('a', 'b', '/'), { maxLength: 12 }), (pieces, chars) => {
        const glob = `**${pieces.join('')}`.replace(/\*{3,}/g, '**');
        const url = chars.join('');
        const regex = new RegExp(`^${glob.replace(/\*\*|\*/g, (m) => (m === '**' ? '.*' : '[^/]*'))}$`);
        expect(compileUrlGlob(glob).matches(url)).toBe(regex.test(url));
      }),
      { numRuns: 2000 },
    );
  });

  it('stays linear on a glob that would make a backtracking matcher explode', () => {
    const glob = `https://a.com/${'**a'.repeat(19)}**b`; // the most wildcards validate accepts
    const url = `https://a.com/${'a'.repeat(20_000)}`;
    const started = performance.now();
    expect(compileUrlGlob(glob).matches(url)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('names the first matching glob in manifest order, and matches 10,000 URLs quickly', () => {
    const set = compileGlobSet(['https://d.com/blog/**', '**/changelog*', '**/blog/**']);
    expect(set.firstMatch('https://d.com/blog/x')).toBe(0);
    expect(set.firstMatch('https://e.com/blog/x')).toBe(2);
    expect(set.firstMatch('https://d.com/changelog')).toBe(1);
    expect(set.firstMatch('https://d.com/guide')).toBe(-1);
    const urls = Array.from({ length: 10_000 }, (_, i) => `https://d.com/section-${i % 50}/page-${i}`);
    const started = performance.now();
    const matched = urls.filter((url) => set.firstMatch(url) !== -1).length;
    expect(matched).toBe(0);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
