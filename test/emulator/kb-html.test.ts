// The crawler's HTML reading (issue 31 item 6): what it takes from a page, and that no page, however
// hostile, costs more than a linear pass (a 1 MB page of unclosed `<a ` blocked the emulator ~50 s).
import { describe, expect, it } from 'vitest';
import { readHtml, readSitemap } from '../../src/emulator/kb/html.js';

describe('reading a page', () => {
  it('takes the title, the meta description, the visible text and every <a href>', () => {
    const page = `<!doctype html><html><head><TITLE lang=en>Docs &amp; more</TITLE>
      <meta content="About us" NAME="Description"><style>a > b { color: red }</style><script>if (a < b) location = "/x"</script></head>
      <body><!-- <a href="/commented"> --><h1>Hello</h1>  <p>World &lt;3</p>
      <a href="/one">1</a> <a class=x href='/two?a=1&amp;b=2'>2</a> <A HREF=/three>3</A> <a name="no-href">x</a>
      <textarea><a href="/in-textarea"></textarea></body></html>`;
    expect(readHtml(page)).toEqual({
      title: 'Docs & more',
      description: 'About us',
      content: 'Hello World <3 1 2 3 x <a href="/in-textarea">',
      hrefs: ['/one', '/two?a=1&b=2', '/three'],
    });
  });

  it('cuts the preview at 500 characters and reads a sitemap', () => {
    expect(readHtml(`<p>${'word '.repeat(200)}</p>`).content).toHaveLength(500);
    expect(readSitemap('<?xml version="1.0"?><urlset><url><loc> https://d.com/a?x=1&amp;y=2 </loc></url><url><LOC>https://d.com/b</LOC></url><loc></loc></urlset>')).toEqual([
      'https://d.com/a?x=1&y=2',
      'https://d.com/b',
    ]);
  });

  it('a tag, quote or comment that never ends swallows the rest, as in HTML, and keeps what came before', () => {
    expect(readHtml('<a href="/kept">k</a><a href="/lost').hrefs).toEqual(['/kept']);
    expect(readHtml('<a href="/kept"></a><!-- <a href="/lost">').hrefs).toEqual(['/kept']);
    expect(readHtml('<title>Never closed <a href="/x">').title).toBe('');
  });

  it.each([['<a '], ['<title>'], ['<meta '], ['<'], ['<!--'], ['<script>'], ["<a href='"], ['<a href=x '], ['</'], ['<loc>'], ['<a b=" '], ['&amp;']])(
    'a 1 MB page of %j is read in linear time',
    (unit) => {
      const page = unit.repeat(Math.ceil((1024 * 1024) / unit.length));
      const started = performance.now();
      readHtml(page);
      readSitemap(page);
      expect(performance.now() - started).toBeLessThan(1000);
    },
  );
});
