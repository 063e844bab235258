// Issue 31 items 7 and 14: a glob's size is bounded in validate (so plan's matching cost is
// bounded), and a URL spelled differently but naming the same resource (RFC 3986 §6.2.2) cannot
// escape an exclude glob.
import { describe, expect, it } from 'vitest';
import { compileGlobSet, compileUrlGlob, MAX_URL_GLOB_LENGTH, MAX_URL_GLOB_WILDCARDS, urlGlobProblem } from '../../src/core/url-glob.js';
import { normalizeUrl } from '../../src/core/url-normalize.js';
import { matchWebsite } from '../../src/core/kinds/website/match.js';
import { parseManifest } from '../../src/core/parse.js';
import { resolveManifest } from '../../src/core/resolve.js';
import { MAX_EXCLUDE_GLOBS } from '../../src/core/kinds/website/manifest.js';

function websiteManifest(exclude: string): string {
  return `version: 1
environments:
  local: { appId: local, region: us }
knowledgeBase:
  websites:
    docs:
      url: https://d.com
      exclude:
        - https://d.com/ok/**
        - ${exclude}
`;
}

function validateDiagnostics(text: string): string[] {
  return resolveManifest(parseManifest('agents.yaml', text), { env: {}, mode: 'validate' }).diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`);
}

describe('URL glob bounds (item 7)', () => {
  it('refuses thousands of ** groups and an over-long glob, naming the bound', () => {
    expect(urlGlobProblem(`https://d.com/${'**a'.repeat(3000)}**`)).toBe(`a URL glob may be at most ${MAX_URL_GLOB_LENGTH} characters long (this one has 9016); match a shorter part of the URL`);
    expect(urlGlobProblem(`https://d.com/${'**/a'.repeat(MAX_URL_GLOB_WILDCARDS + 1)}`)).toBe(
      `a URL glob may have at most ${MAX_URL_GLOB_WILDCARDS} wildcards (* or **; this one has ${MAX_URL_GLOB_WILDCARDS + 1}); one ** already spans any number of path segments`,
    );
    expect(urlGlobProblem(`https://d.com/${'x'.repeat(MAX_URL_GLOB_LENGTH - 14)}`)).toBeUndefined();
    expect(urlGlobProblem(`https://d.com/${'*/'.repeat(MAX_URL_GLOB_WILDCARDS)}`)).toBeUndefined();
  });

  it('validate reports a pathological glob at its line and column, quoted short', () => {
    const glob = `https://d.com/${'**a'.repeat(3000)}**`;
    expect(validateDiagnostics(websiteManifest(glob))).toEqual([
      `agents.yaml:10:11: "${glob.slice(0, 60)}…" (9016 characters) is not a valid URL glob: a URL glob may be at most ${MAX_URL_GLOB_LENGTH} characters long (this one has 9016); match a shorter part of the URL`,
    ]);
    const starry = `https://d.com/${'*/'.repeat(21)}`;
    expect(validateDiagnostics(websiteManifest(starry))).toEqual([
      `agents.yaml:10:11: "${starry}" is not a valid URL glob: a URL glob may have at most ${MAX_URL_GLOB_WILDCARDS} wildcards (* or **; this one has 21); one ** already spans any number of path segments`,
    ]);
  });

  it('validate refuses more exclude globs than a plan can match quickly', () => {
    const many = Array.from({ length: MAX_EXCLUDE_GLOBS + 1 }, (_, i) => `        - https://d.com/p${i}/**`).join('\n');
    const text = websiteManifest('https://d.com/x').replace(/ {8}- https:\/\/d\.com\/ok\/\*\*\n {8}- https:\/\/d\.com\/x\n/, `${many}\n`);
    expect(validateDiagnostics(text)).toEqual([
      `agents.yaml:${9 + MAX_EXCLUDE_GLOBS}:11: a website may have at most ${MAX_EXCLUDE_GLOBS} exclude globs (this one has ${MAX_EXCLUDE_GLOBS + 1}); every discovered URL is matched against each`,
    ]);
  });

  it('keeps the worst glob validate accepts cheap against long URLs', () => {
    // The most wildcards and length allowed, all overlapping, against URLs made to keep every state alive.
    const glob = `https://d.com/${'**a'.repeat(MAX_URL_GLOB_WILDCARDS)}${'a'.repeat(MAX_URL_GLOB_LENGTH - 14 - 3 * MAX_URL_GLOB_WILDCARDS - 1)}b`;
    expect(urlGlobProblem(glob)).toBeUndefined();
    const urls = Array.from({ length: 100 }, (_, i) => ({ id: `u${i}`, url: `https://d.com/${'a'.repeat(2000)}/${i}`, status: 'discovered' }));
    const started = performance.now();
    expect(matchWebsite([glob], urls).excludeIds).toEqual([]);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('one URI, several spellings (item 14)', () => {
  it.each([
    ['https://d.com/%62log/secret', 'https://d.com/blog/secret'],
    ['https://d.com/blog/%7euser/%2fx%3A', 'https://d.com/blog/~user/%2Fx%3A'],
    ['HTTPS://D.Com/blog/x', 'https://d.com/blog/x'],
    ['https://d.com:443/blog/x', 'https://d.com/blog/x'],
    ['http://d.com:80/blog/x', 'http://d.com/blog/x'],
    ['http://d.com:8080/blog/x', 'http://d.com:8080/blog/x'],
    ['https://d.com/x/../blog/./secret', 'https://d.com/blog/secret'],
    ['https://d.com/x/%2E%2E/blog/secret', 'https://d.com/blog/secret'],
    ['https://d.com/blog/..', 'https://d.com/'],
    ['https://d.com/a?q=/../b', 'https://d.com/a?q=/../b'],
    ['https://user@D.COM/Path', 'https://user@d.com/Path'],
    ['https://d.com/%zz%4', 'https://d.com/%zz%4'],
  ])('%s is %s', (url, normal) => {
    expect(normalizeUrl(url)).toBe(normal);
  });

  it.each([
    ['https://d.com/blog/**', 'https://d.com/%62log/secret'],
    ['https://d.com/blog/**', 'https://d.com/%62%6C%6f%67/secret'],
    ['https://d.com/blog/**', 'HTTPS://D.COM/blog/secret'],
    ['https://d.com/blog/**', 'https://d.com:443/blog/secret'],
    ['https://d.com/blog/**', 'https://d.com/docs/../blog/secret'],
    ['**/blog/**', 'https://d.com/%62log/secret'],
    ['https://d.com/%62log/*', 'https://d.com/blog/secret'],
    ['https://d.com/a%2fb', 'https://d.com/a%2Fb'],
    ['https://D.com/**', 'https://d.com/x'],
  ])('%s excludes %s', (glob, url) => {
    expect(compileUrlGlob(glob).matches(url)).toBe(true);
    expect(compileGlobSet([glob]).firstMatch(url)).toBe(0);
    expect(matchWebsite([glob], [{ id: 'u1', url, status: 'discovered' }]).excludeIds).toEqual(['u1']);
  });

  it.each([
    // %2F is a slash in data, not a path separator; the path itself stays case-sensitive.
    ['https://d.com/blog/**', 'https://d.com/blog%2Fsecret'],
    ['https://d.com/blog/**', 'https://d.com/BLOG/secret'],
    ['https://d.com/blog/**', 'https://d.com/blog/../secret'],
  ])('%s does not exclude %s', (glob, url) => {
    expect(compileUrlGlob(glob).matches(url)).toBe(false);
  });
});
