// URL globs for a website's `exclude` (docs/spec/knowledge-base.md#url-globs). A glob is matched against the whole URL:
//   `**`  any characters, `/` included (across path segments), possibly none;
//   `*`   any characters except `/` (within one path segment), possibly none;
//   anything else matches itself, case-sensitively in the path (`?`, `[` and `.` are plain characters).
// So `https://docs.example.com/blog/**` matches everything below `/blog/` (not `/blog` itself), and
// `**/changelog*` matches a last segment starting with `changelog` on any host.
//
// Both sides are first put in one spelling (core/url-normalize.ts, RFC 3986 §6.2.2): `%62log` is
// `blog`, the scheme and host are case-insensitive, `:443` on https is no port, `/a/../b` is `/b`.
// So a URL cannot escape a glob by being spelled differently.
//
// Matching simulates the glob as an automaton over the set of positions it could be at (Thompson's
// construction), never backtracking: each URL character costs at most one step per glob token, so
// `**a**a**a…` against a long URL stays linear in the URL's length. A literal prefix is checked
// first, which rejects most URLs in one comparison.
import { normalizeGlobText, normalizeUrl } from './url-normalize.js';

/**
 * Matching costs up to (wildcards + overlapping literal states) steps per URL character, for every
 * URL of the site at every plan: the bounds keep the worst glob validate accepts near a real one's
 * cost. A real exclude glob is a URL prefix with a few wildcards.
 */
export const MAX_URL_GLOB_LENGTH = 1000;
export const MAX_URL_GLOB_WILDCARDS = 20;

type Token = { kind: 'text'; char: number } | { kind: 'star' } | { kind: 'globstar' };

export interface UrlGlob {
  readonly source: string;
  matches(url: string): boolean;
  /** For a URL already through normalizeUrl: a set of globs normalises each URL once. */
  matchesNormalized(url: string): boolean;
}

const SLASH = '/'.charCodeAt(0);

/** Why a glob cannot be used, as a phrase; undefined when it is fine. */
export function urlGlobProblem(glob: string): string | undefined {
  if (glob.trim() === '') return 'a URL glob must not be empty';
  if (glob.length > MAX_URL_GLOB_LENGTH) return `a URL glob may be at most ${MAX_URL_GLOB_LENGTH} characters long (this one has ${glob.length}); match a shorter part of the URL`;
  if (/\*{3,}/.test(glob)) return 'use * (within a path segment) or ** (across segments), not three or more stars in a row';
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(glob)) return 'a URL glob must not contain spaces or control characters (percent-encode them, as in the URL)';
  if (!/^(https?:\/\/|\*)/.test(glob)) return 'a URL glob is matched against whole URLs: start it with http://, https:// or * (e.g. "**/blog/**")';
  const wildcards = glob.match(/\*{1,2}/g)?.length ?? 0;
  if (wildcards > MAX_URL_GLOB_WILDCARDS)
    return `a URL glob may have at most ${MAX_URL_GLOB_WILDCARDS} wildcards (* or **; this one has ${wildcards}); one ** already spans any number of path segments`;
  return undefined;
}

/** Compiles a glob; throws when urlGlobProblem finds one (validate reports those first). */
export function compileUrlGlob(glob: string): UrlGlob {
  const problem = urlGlobProblem(glob);
  if (problem !== undefined) throw new Error(`invalid URL glob ${JSON.stringify(glob)}: ${problem}`);
  const text = normalizeGlobText(glob);
  const tokens = tokenize(text);
  const firstWild = tokens.findIndex((token) => token.kind !== 'text');
  if (firstWild === -1) return withNormalizing(glob, (url) => url === text);
  const prefix = text.slice(0, firstWild);
  const simulate = matcher(tokens);
  // Every literal run must occur in a matching URL: one includes() each rejects most URLs cheaply.
  const runs = text
    .slice(prefix.length)
    .split('*')
    .filter((run) => run.length > 0);
  return withNormalizing(glob, (url) => url.startsWith(prefix) && runs.every((run) => url.includes(run)) && simulate(url));
}

function withNormalizing(source: string, matchesNormalized: (url: string) => boolean): UrlGlob {
  return { source, matchesNormalized, matches: (url) => matchesNormalized(normalizeUrl(url)) };
}

function tokenize(glob: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < glob.length; i++) {
    if (glob[i] !== '*') tokens.push({ kind: 'text', char: glob.charCodeAt(i) });
    else if (glob[i + 1] === '*') {
      tokens.push({ kind: 'globstar' });
      i++;
    } else tokens.push({ kind: 'star' });
  }
  return tokens;
}

/**
 * The automaton: state i means "tokens before i are matched". A wildcard state may stay on a
 * character or be left without one. Active states are kept in a list with a generation marker per
 * state, so a step costs the number of active states, not the glob's length. The buffers belong
 * to the compiled glob and are reused by every match (matching is synchronous, so never shared).
 */
function matcher(tokens: readonly Token[]): (url: string) => boolean {
  const accept = tokens.length;
  const mark = new Float64Array(accept + 1).fill(-1);
  let generation = 0;
  let active: number[] = [];
  let next: number[] = [];
  const add = (list: number[], state: number): void => {
    // Follow the empty moves: a wildcard may match nothing.
    for (let s = state; s <= accept && mark[s] !== generation; s++) {
      mark[s] = generation;
      list.push(s);
      if (s === accept || tokens[s]?.kind === 'text') break;
    }
  };
  return (url) => {
    generation++;
    active.length = 0;
    add(active, 0);
    for (let i = 0; i < url.length && active.length > 0; i++) {
      const char = url.charCodeAt(i);
      generation++;
      next.length = 0;
      for (const state of active) {
        const token = tokens[state];
        if (token === undefined) continue;
        if (token.kind === 'text') {
          if (token.char === char) add(next, state + 1);
        } else if (token.kind === 'globstar' || char !== SLASH) {
          add(next, state);
        }
      }
      [active, next] = [next, active];
    }
    return mark[accept] === generation;
  };
}

/** Which glob of a list excludes a URL: the first that matches, in manifest order. */
export interface GlobSet {
  readonly globs: readonly UrlGlob[];
  /** The index of the first matching glob, or -1. */
  firstMatch(url: string): number;
}

export function compileGlobSet(globs: readonly string[]): GlobSet {
  const compiled = globs.map(compileUrlGlob);
  return {
    globs: compiled,
    firstMatch(url) {
      const normal = normalizeUrl(url);
      for (let i = 0; i < compiled.length; i++) if ((compiled[i] as UrlGlob).matchesNormalized(normal)) return i;
      return -1;
    },
  };
}
