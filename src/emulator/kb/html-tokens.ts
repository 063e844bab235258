// A small HTML tokenizer for the crawler: start tags with their attributes, end tags, and text.
// Written as one forward scan so that its cost is linear in the page whatever the page holds: the
// regular expressions it replaces rescanned the rest of the page from every unclosed `<a ` or
// `<title>`, and a 1 MB page of those blocked the emulator for about a minute.
//
// It follows the HTML tokenizer's choices where they matter for a crawl: comments, doctypes and
// `<?…>` are skipped; `<script>`, `<style>`, `<title>` and `<textarea>` hold raw text up to their
// end tag; a tag (or a quoted attribute value, or a comment) that never ends swallows the rest of
// the page, as the HTML specification's end-of-file rules do. Attribute names are lowercased.

export type HtmlToken = { kind: 'text'; text: string } | { kind: 'start'; name: string; attributes: ReadonlyMap<string, string> } | { kind: 'end'; name: string };

/** Elements whose content is text up to their own end tag, never markup. */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea']);

const isSpace = (c: string): boolean => c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f';
const isLetter = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

export function* htmlTokens(html: string): Generator<HtmlToken> {
  const end = html.length;
  let i = 0; // where the text not yet yielded starts
  let scan = 0; // where to look for the next `<`; a `<` that opens nothing stays part of the text
  const textUpTo = (at: number): HtmlToken | undefined => (at > i ? { kind: 'text', text: html.slice(i, at) } : undefined);
  while (scan < end) {
    const lt = html.indexOf('<', scan);
    if (lt === -1) break;
    const next = html.charAt(lt + 1);
    const opensTag = isLetter(next) || (next === '/' && isLetter(html.charAt(lt + 2)));
    if (!opensTag && next !== '!' && next !== '?') {
      scan = lt + 1;
      continue;
    }
    const text = textUpTo(lt);
    if (text) yield text;
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      if (close === -1) return;
      i = close + 3;
    } else if (!opensTag) {
      const close = html.indexOf('>', lt + 2);
      if (close === -1) return;
      i = close + 1;
    } else if (next === '/') {
      const tag = readTag(html, lt + 2);
      if (tag === undefined) return;
      yield { kind: 'end', name: tag.name };
      i = tag.after;
    } else {
      const tag = readTag(html, lt + 1);
      if (tag === undefined) return;
      yield { kind: 'start', name: tag.name, attributes: tag.attributes };
      i = tag.after;
      if (RAW_TEXT.has(tag.name)) {
        const close = findEndTag(html, tag.name, i);
        yield { kind: 'text', text: html.slice(i, close === -1 ? end : close) };
        if (close === -1) return;
        i = close; // the end tag itself is read on the next turn
      }
    }
    scan = i;
  }
  const rest = textUpTo(end);
  if (rest) yield rest;
}

interface Tag {
  name: string;
  attributes: Map<string, string>;
  /** The index just after the tag's `>`. */
  after: number;
}

/** A tag's name and attributes from `at` (just after `<` or `</`); undefined when the page ends inside it. */
function readTag(html: string, at: number): Tag | undefined {
  let i = at;
  while (i < html.length && !isSpace(html.charAt(i)) && html.charAt(i) !== '/' && html.charAt(i) !== '>') i++;
  const name = html.slice(at, i).toLowerCase();
  const attributes = new Map<string, string>();
  for (;;) {
    while (i < html.length && (isSpace(html.charAt(i)) || html.charAt(i) === '/')) i++;
    if (i >= html.length) return undefined;
    if (html.charAt(i) === '>') return { name, attributes, after: i + 1 };
    const nameStart = i;
    // The first character may be `=` (the specification's parse error), so a name is never empty.
    i++;
    while (i < html.length && !isSpace(html.charAt(i)) && !'/>='.includes(html.charAt(i))) i++;
    const attribute = html.slice(nameStart, i).toLowerCase();
    while (i < html.length && isSpace(html.charAt(i))) i++;
    let value = '';
    if (html.charAt(i) === '=') {
      i++;
      while (i < html.length && isSpace(html.charAt(i))) i++;
      const quote = html.charAt(i);
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1);
        if (close === -1) return undefined;
        value = html.slice(i + 1, close);
        i = close + 1;
      } else {
        const start = i;
        while (i < html.length && !isSpace(html.charAt(i)) && html.charAt(i) !== '>') i++;
        value = html.slice(start, i);
      }
    }
    if (!attributes.has(attribute)) attributes.set(attribute, value); // the first one counts, as in HTML
  }
}

/** Where `</name` (any case, then a space, `/` or `>`) starts at or after `from`; -1 when nowhere. */
function findEndTag(html: string, name: string, from: number): number {
  for (let at = html.indexOf('</', from); at !== -1; at = html.indexOf('</', at + 2)) {
    const after = html.charAt(at + 2 + name.length);
    if (html.slice(at + 2, at + 2 + name.length).toLowerCase() === name && (after === '' || after === '>' || after === '/' || isSpace(after))) return at;
  }
  return -1;
}
