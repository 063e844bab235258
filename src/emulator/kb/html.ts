// Just enough HTML reading for a crawl: the title, the meta description, a text preview and the
// targets of <a href>. One pass of a linear tokenizer (html-tokens.ts), not regular expressions
// over the page: a hostile page cannot make it slow, and a page it misreads only loses links,
// never crashes the crawl.
import { htmlTokens } from './html-tokens.js';

export interface PageFacts {
  title: string;
  description: string;
  /** The page's text, whitespace collapsed, cut at 500 characters as the reference's `content` is. */
  content: string;
  hrefs: string[];
}

const PREVIEW_CHARS = 500;
/** Text of these is never shown on the page, so it is not part of the preview. */
const HIDDEN = new Set(['script', 'style', 'title']);

export function readHtml(html: string): PageFacts {
  let title: string | undefined;
  let titleText: string | undefined;
  let description: string | undefined;
  let inHead = false;
  let hidden = false;
  const text: string[] = [];
  const hrefs: string[] = [];
  for (const token of htmlTokens(html)) {
    if (token.kind === 'text') {
      if (titleText !== undefined) titleText += token.text;
      if (!inHead && !hidden) text.push(token.text);
      continue;
    }
    hidden = token.kind === 'start' && HIDDEN.has(token.name);
    if (token.kind === 'end') {
      if (token.name === 'head') inHead = false;
      if (token.name === 'title' && titleText !== undefined) [title, titleText] = [title ?? titleText, undefined];
      continue;
    }
    if (token.name === 'head') inHead = true;
    else if (token.name === 'body') inHead = false;
    else if (token.name === 'title' && title === undefined) titleText = '';
    else if (token.name === 'a' && token.attributes.has('href')) hrefs.push(decodeEntities(token.attributes.get('href') ?? ''));
    else if (token.name === 'meta' && description === undefined && token.attributes.get('name')?.toLowerCase() === 'description') description = token.attributes.get('content') ?? '';
  }
  const preview = decodeEntities(text.join(' ').replace(/\s+/g, ' ').trim()).slice(0, PREVIEW_CHARS);
  return { title: decodeEntities(title ?? '').trim(), description: decodeEntities(description ?? '').trim(), content: preview, hrefs };
}

/** The `<loc>` entries of a sitemap. */
export function readSitemap(xml: string): string[] {
  const locations: string[] = [];
  let loc: string | undefined;
  for (const token of htmlTokens(xml)) {
    if (token.kind === 'text') {
      if (loc !== undefined) loc += token.text;
    } else if (token.kind === 'start') {
      loc = token.name === 'loc' ? '' : undefined;
    } else if (token.name === 'loc' && loc !== undefined) {
      const url = loc.trim();
      if (url !== '') locations.push(decodeEntities(url));
      loc = undefined;
    }
  }
  return locations;
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" })[name] ?? '');
}
