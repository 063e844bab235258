// Citations of the documentation must land somewhere: every `docs/….md#anchor` written in the code,
// the tests, the scripts and the documents (and every relative `[…](….md#anchor)` link in a markdown
// file) names a file that exists and a heading it has, by GitHub's anchor rules. The behaviour spec
// (docs/spec/README.md#citing-it) is what src/ cites; nothing there may cite the old contract.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const SCANNED_FOLDERS = ['src', 'test', 'scripts', 'bench', '.ci', 'docs'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.git', 'out']);
const TEXT_FILE = /\.(ts|mts|cts|js|mjs|cjs|md|sh|json|ya?ml|txt)$|^[^.]+$/;
const LARGEST_FILE = 4 * 1024 * 1024;

/** A path from the repository's root, as citations write it: `docs/spec/server.md#refresh`. */
const ROOTED_CITATION = /(?<![\w./-])(docs\/[\w./-]*\.md)(#[\w-]*)?/g;
/** A markdown link to a markdown file or to an anchor of the same file: `[refresh](spec/server.md#refresh)`, `[x](#y)`. */
const MARKDOWN_LINK = /\]\(\s*<?([^)\s>#]*\.md|)(#[^)\s>]*)?>?(?:\s+"[^"]*")?\s*\)/g;

function filesBelow(folder: string): string[] {
  if (!existsSync(folder)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) found.push(...filesBelow(full));
    } else if (entry.isFile() && TEXT_FILE.test(entry.name) && statSync(full).size <= LARGEST_FILE) {
      found.push(full);
    }
  }
  return found;
}

function scannedFiles(): string[] {
  const rootFiles = readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(md|ts|js|mjs|cjs|json|ya?ml)$/.test(entry.name) && entry.name !== 'package-lock.json')
    .map((entry) => path.join(ROOT, entry.name));
  return [...rootFiles, ...SCANNED_FOLDERS.flatMap((folder) => filesBelow(path.join(ROOT, folder)))].filter((file) => file !== SELF).sort();
}

/** GitHub's anchor for a heading's text: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or an image shows its text
    .replace(/<[^>]+>/g, '') // inline HTML shows nothing of its tags
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();

/** Every anchor a markdown file has: its headings' slugs (repeats numbered -1, -2, …) and explicit ids. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const fenceMark = /^\s{0,3}(```+|~~~+)/.exec(line)?.[1];
    if (fenceMark !== undefined) {
      if (fence === undefined) fence = fenceMark[0];
      else if (fenceMark[0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    for (const match of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1] ?? '');
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+\s*)?$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = githubSlug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function anchorsOfFile(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (anchors === undefined) anchorCache.set(file, (anchors = anchorsOf(readFileSync(file, 'utf8'))));
  return anchors;
}

interface Citation {
  /** `src/core/refresh.ts:1`. */
  at: string;
  /** As written. */
  text: string;
  /** The file it names, absolute. */
  target: string;
  /** Without `#`; undefined when the citation names no anchor. */
  anchor?: string;
}

function citationsIn(file: string): Citation[] {
  const text = readFileSync(file, 'utf8');
  const relative = path.relative(ROOT, file);
  const citations: Citation[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, index) => {
    const at = `${relative}:${index + 1}`;
    const seen = new Set<string>();
    const add = (written: string, target: string, anchor: string | undefined): void => {
      const key = `${target}#${anchor ?? ''}`;
      if (seen.has(key)) return;
      seen.add(key);
      citations.push({ at, text: written, target, ...(anchor === undefined ? {} : { anchor }) });
    };
    for (const match of line.matchAll(ROOTED_CITATION)) {
      add(match[0], path.join(ROOT, match[1] ?? ''), match[2] === undefined ? undefined : match[2].slice(1));
    }
    if (!file.endsWith('.md')) return;
    // A link inside a code block or a code span is an example, not a link.
    const fenceMark = /^\s{0,3}(```+|~~~+)/.exec(line)?.[1];
    if (fenceMark !== undefined) fence = fence === undefined ? fenceMark[0] : fenceMark[0] === fence ? undefined : fence;
    if (fence !== undefined || fenceMark !== undefined) return;
    for (const match of line.replace(/(`+)[^`]*?\1/g, '').matchAll(MARKDOWN_LINK)) {
      const linked = match[1] ?? '';
      const anchor = match[2] === undefined ? undefined : decodeURIComponent(match[2].slice(1));
      if (linked === '' && anchor === undefined) continue;
      add(match[0], linked === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(linked)), anchor);
    }
  });
  return citations;
}

/** What is wrong with one citation, or undefined when it lands. */
function problemOf(citation: Citation): string | undefined {
  if (!existsSync(citation.target) || !statSync(citation.target).isFile()) return `${citation.at}: ${citation.text}: ${path.relative(ROOT, citation.target)} does not exist`;
  if (citation.anchor === undefined) return undefined;
  if (citation.anchor === '') return `${citation.at}: ${citation.text}: an empty anchor`;
  const anchors = anchorsOfFile(citation.target);
  if (anchors.has(citation.anchor)) return undefined;
  return `${citation.at}: ${citation.text}: ${path.relative(ROOT, citation.target)} has no heading with the anchor #${citation.anchor}`;
}

describe('documentation citations', () => {
  const files = scannedFiles();
  const citations = files.flatMap(citationsIn);

  it('reads the code, the tests and the documents, and finds the spec cited', () => {
    expect(files.some((file) => file.endsWith(path.join('src', 'index.ts')))).toBe(true);
    expect(files.some((file) => file.endsWith(path.join('.ci', 'run')))).toBe(true);
    expect(citations.filter((c) => c.target.includes(`${path.sep}docs${path.sep}spec${path.sep}`)).length).toBeGreaterThan(50);
  });

  it('every docs/….md citation and markdown link names a file that exists and a heading it has', () => {
    expect(citations.map(problemOf).filter((problem) => problem !== undefined)).toEqual([]);
  });

  it('src/ cites the spec, not the contract that is not in the repository', () => {
    const stale = files
      .filter((file) => path.relative(ROOT, file).startsWith(`src${path.sep}`))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) => (/CONTRACT\s*§|CONTRACT\s+\d/.test(line) ? [`${path.relative(ROOT, file)}:${index + 1}: ${line.trim()}`] : [])),
      );
    expect(stale).toEqual([]);
  });
});

describe('GitHub anchors', () => {
  it.each([
    ['Saved plans', 'saved-plans'],
    ['The server normalises what it stores', 'the-server-normalises-what-it-stores'],
    ['`kb status`', 'kb-status'],
    ['Deleting with `--prune`', 'deleting-with---prune'],
    ['Exit codes: 0, 1 and 2', 'exit-codes-0-1-and-2'],
    ['[A link](x.md) and <b>bold</b>', 'a-link-and-bold'],
    ['snake_case stays', 'snake_case-stays'],
  ])('%s → #%s', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });

  it('numbers repeated headings and skips fenced code', () => {
    const anchors = anchorsOf('# Title\n## Output\n```\n## Not a heading\n```\n### Output\n## Output ##\n<a name="kept"></a>\n');
    expect([...anchors].sort()).toEqual(['kept', 'output', 'output-1', 'output-2', 'title']);
  });
});
