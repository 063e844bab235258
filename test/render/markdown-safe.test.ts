// Untrusted text in markdown: one line, no live @mention, no HTML, no block or inline markup.
import { describe, expect, it } from 'vitest';
import { codeSpan, htmlText, markdownText } from '../../src/render/markdown-safe.js';

const HOSTILE = 'a\n\n# Head\r\n@octocat\u2028<b>x</b> [l](https://e.x) &#64;t\u001b[2J';

describe('markdown-safe', () => {
  it.each([
    ['markdownText', markdownText],
    ['htmlText', htmlText],
    ['codeSpan', codeSpan],
  ])('%s makes one line without a live mention or raw control', (_name, helper) => {
    const out = helper(HOSTILE);
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\n\r\u2028\u2029\u0000-\u001f]/);
    if (helper !== codeSpan) expect(out).not.toMatch(/@(?!\u200b)/);
    expect(out).toContain('u001b');
  });

  it('markdownText escapes inline markup, entities, HTML and a leading block marker', () => {
    expect(markdownText('<b> & [l](u) *x* `c` |')).toBe('&lt;b\\> &amp; \\[l\\]\\(u\\) \\*x\\* \\`c\\` \\|');
    expect(markdownText('# heading')).toBe('\\# heading');
    expect(markdownText('- item')).toBe('\\- item');
    expect(markdownText('1. item')).toBe('1\\. item');
    expect(markdownText('mail me@x')).toBe('mail me@\u200bx');
  });

  it('htmlText escapes what HTML would read', () => {
    expect(htmlText(`<img src="x" onerror='y'> & @a`)).toBe('&#60;img src=&#34;x&#34; onerror=&#39;y&#39;&#62; &#38; @\u200ba');
  });

  it('codeSpan fences past any backtick run and pads a leading or trailing backtick', () => {
    expect(codeSpan('a``b')).toBe('```a``b```');
    expect(codeSpan('`x')).toBe('`` `x ``');
    expect(codeSpan('line\nbreak')).toBe('`line break`');
  });
});
