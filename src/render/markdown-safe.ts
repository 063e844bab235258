// Untrusted text in markdown (a pull-request comment, a step summary). A server's message or a
// remote id may carry line breaks, `@name`, HTML or markdown: left raw, a blank line ends the
// <details> block and starts a heading of the attacker's choice, and `@name` pings a person. Every
// piece of data that reaches markdown goes through one of these three, chosen by where it lands:
// - markdownText: prose (a table cell, a warning or caution block);
// - htmlText: inside an HTML element (a <summary>), where markdown is not parsed;
// - codeSpan: an inline code span.
// Each makes the text one line, shows control characters as `\uXXXX`, and defuses mentions.
import { escapeControl } from '../core/terminal-safe.js';

// Every line break CommonMark or a browser honours, plus the Unicode separators.
// eslint-disable-next-line no-control-regex
const LINE_BREAK = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/g;

/** A zero-width space after `@` keeps the text readable while GitHub no longer sees a mention. */
const MENTION_BREAK = '@\u200b';

function oneLine(text: string): string {
  return escapeControl(text.replace(LINE_BREAK, ' '));
}

function defuseMentions(text: string): string {
  return text.replaceAll('@', MENTION_BREAK);
}

/**
 * Text as inline markdown: the punctuation that acts inline (emphasis, code, links, tables, HTML,
 * entities) is escaped, and so is `#` and a leading list or heading marker, since a warning block
 * puts the text at the start of a line.
 */
export function markdownText(text: string): string {
  const escaped = oneLine(text)
    .replace(/[\\`*_[\]()!|~>#]/g, '\\$&')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/^(\s*)([-+=])/, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/, '$1\\$2');
  return defuseMentions(escaped);
}

/** Text inside an HTML element: entity-escaped, one line (a blank line would end the HTML block). */
export function htmlText(text: string): string {
  return defuseMentions(oneLine(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`));
}

/** An inline code span whose fence is longer than any backtick run inside (mentions are inert in code). */
export function codeSpan(text: string): string {
  const line = oneLine(text);
  const ticks = '`'.repeat(longestRun(line, '`') + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${line}${pad}${ticks}`;
}

export function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}
