import { describe, expect, it } from 'vitest';
import { escapeControl, escapeControlKeepLines, oneSafeLine } from '../../src/core/terminal-safe.js';

describe('escapeControl', () => {
  it.each([
    ['\x1b[2J', '\\u001b[2J'],
    ['\x1b]0;pwned\x07', '\\u001b]0;pwned\\u0007'],
    ['a\rb', 'a\\u000db'],
    ['a\nb\tc', 'a\\u000ab\\u0009c'],
    ['\x00\x7f', '\\u0000\\u007f'],
    ['\u009b31m', '\\u009b31m'], // 8-bit CSI
    ['\u0085', '\\u0085'], // C1 next line
  ])('shows %j as %j', (input, shown) => {
    expect(escapeControl(input)).toBe(shown);
  });

  it('leaves printable text alone, non-ASCII included', () => {
    const text = 'Résumé 東京 🙂 "quoted" \\ back\u00a0slash';
    expect(escapeControl(text)).toBe(text);
  });

  it('leaves nothing a terminal would obey', () => {
    const every = Array.from({ length: 0xa0 }, (_, i) => String.fromCharCode(i)).join('');
    // eslint-disable-next-line no-control-regex
    expect(escapeControl(every)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});

describe('escapeControlKeepLines', () => {
  it('keeps tab and newline, escapes the rest', () => {
    expect(escapeControlKeepLines('a\tb\nc\x1b[1m\r')).toBe('a\tb\nc\\u001b[1m\\u000d');
  });
});

describe('oneSafeLine', () => {
  it('flattens whitespace runs, newlines included, to one space', () => {
    expect(oneSafeLine('  first\r\n\n  second\tthird  ')).toBe('first second third');
  });
  it('escapes what is left after flattening', () => {
    expect(oneSafeLine('bad \x1b[2J\x07 name')).toBe('bad \\u001b[2J\\u0007 name');
  });
  it('cuts a long text with an ellipsis', () => {
    const line = oneSafeLine('x'.repeat(5_000), 50);
    expect(line).toHaveLength(50);
    expect(line.endsWith('...')).toBe(true);
  });
  it('never cuts a surrogate pair in half', () => {
    const line = oneSafeLine(`${'x'.repeat(46)}🙂🙂🙂`, 50);
    expect(line).toBe(`${'x'.repeat(46)}...`);
  });
});
