// Just enough HTML reading for a crawl: the title, the meta description, a text preview and the
// targets of <a href>. Regular expressions, not a parser: the emulator crawls test and demo sites,
// and a page it misreads only loses links, never crashes the crawl.

export interface PageFacts {
  title: string;
  description: string;
  /** The page's text, whitespace collapsed, cut at 500 characters as the reference's `content` is. */
  content: string;
  hrefs: string[];
}

const PREVIEW_CHARS = 500;

export function readHtml(html: string): PageFacts {
  const title = decodeEntities(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '').trim();
  const description = decodeEntities(metaDescription(html)).trim();
  const text = html
    .replace(/<(script|style|head)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const hrefs: string[] = [];
  for (const match of html.matchAll(/<a\s[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
    hrefs.push(decodeEntities(match[1] ?? match[2] ?? match[3] ?? ''));
  }
  return { title, description, content: decodeEntities(text).slice(0, PREVIEW_CHARS), hrefs };
}

/** The `<loc>` entries of a sitemap. */
export function readSitemap(xml: string): string[] {
  return [...xml.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/gi)].map((match) => decodeEntities(match[1] ?? ''));
}

function metaDescription(html: string): string {
  for (const match of html.matchAll(/<meta\s[^>]*>/gi)) {
    const tag = match[0];
    if (!/name\s*=\s*["']?description["']?/i.test(tag)) continue;
    return /content\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(tag)?.slice(1).find((value) => value !== undefined) ?? '';
  }
  return '';
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" })[name] ?? '');
}
