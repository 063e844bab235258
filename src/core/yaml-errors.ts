// The yaml parser's errors → sentences about the mistake a person actually made, at its line.
// Two mistakes give especially misleading raw messages:
// - indentation: a key indented too far is read as the continuation of the value above it, and
//   yaml reports "Implicit keys need to be on a single line" at that value, one line too early;
// - ${…} inside a flow list or map ([…], {…}): "{" opens a map there, so yaml reports a missing
//   comma. Quoting the string is the fix.
// - an unclosed [ or {: yaml reports it where the next key starts, lines later, in its own words;
//   it is said at the bracket, with what is missing.
// - a tab in the indentation: what yaml reads after it is nonsense, so the tab is the only error.
// - an unclosed quote: yaml says so at the end of the file; it is said at the quote, and nothing after.
import { CST, Parser, type YAMLError } from 'yaml';
import type { Diagnostic } from './diagnostics.js';
import type { YamlLocator } from './yaml-locate.js';

const YAML_MESSAGES: Partial<Record<string, string>> = {
  MULTIPLE_DOCS: 'the file holds several YAML documents (separated by ---); a manifest is exactly one document',
  TAB_AS_INDENT: 'tabs cannot be used for indentation in YAML; indent with spaces',
};

const SAME_COLUMN = 'indentation: this line does not line up with the lines before it; the keys of one map (and the items of one list) must start at the same column';

export function yamlErrorDiagnostics(allErrors: readonly YAMLError[], locator: YamlLocator, text: string, maxDepth: number): Diagnostic[] {
  const errors = upToFirstTab(allErrors);
  const quote = unclosedQuote(errors, text);
  const diagnostics = flowAndIndentDiagnostics(quote === undefined ? errors : beforeQuote(errors, quote.offset), locator, text, maxDepth);
  if (quote === undefined) return diagnostics;
  return [...diagnostics, locator.diagnosticAtOffset(quote.offset, [], `this ${quote.source} is never closed; add ${quote.source} where its text ends`)];
}

function flowAndIndentDiagnostics(errors: readonly YAMLError[], locator: YamlLocator, text: string, maxDepth: number): Diagnostic[] {
  const lineOf = (offset: number) => locator.position(offset).line;
  // Lines whose errors only follow from an under-indented line above (BAD_INDENT): the lines after
  // it, still at the old indentation, each read as a key spanning two lines. Reported once, there.
  const consequences = new Set(errors.filter((e) => e.code === 'BAD_INDENT').map((e) => lineOf(e.pos[0])));
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const push = (line: number, column: number, message: string) => {
    const key = `${line}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(locator.diagnosticAtOffset(locator.lineStart(line) + column - 1, [], message));
  };
  const flowHints = new Set<number>();
  // Both codes come together for one over-indented line; only MULTILINE_IMPLICIT_KEY spans to the key.
  const multilineAt = new Map(errors.filter((e) => e.code === 'MULTILINE_IMPLICIT_KEY').map((e) => [e.pos[0], e]));

  // A hostile line can carry thousands of errors: scan each line once.
  const scanned = new Map<number, { text: string; interpolation: Interpolation | undefined }>();
  const scan = (line: number) => {
    let result = scanned.get(line);
    if (result === undefined) {
      const text = locator.lineText(line);
      scanned.set(line, (result = { text, interpolation: unquotedInterpolation(text) }));
    }
    return result;
  };

  // The lines where yaml found an unclosed [ or { ended: what else it says there follows from it.
  const unclosedEnds = new Set<number>();
  let unclosed: UnclosedFlow[] | undefined;
  for (const error of errors) {
    const line = lineOf(error.pos[0]);
    const closer = error.code === 'BAD_INDENT' ? /end with an? ([\]}])/.exec(error.message)?.[1] : undefined;
    if (closer !== undefined) {
      unclosed ??= unclosedFlows(text);
      const opener = takeOpener(unclosed, closer === ']' ? '[' : '{', error.pos[0]);
      if (opener !== undefined) {
        unclosedEnds.add(line);
        const at = locator.position(opener.offset);
        push(at.line, at.column, unclosedMessage(opener.source, closer, scan(line).text.includes(closer) ? line : undefined));
        continue;
      }
    }
    if (unclosedEnds.has(line)) continue;
    const { text: lineText, interpolation } = scan(line);
    if (interpolation !== undefined && (interpolation.inFlow || /flow/i.test(error.message))) {
      flowHints.add(line);
      push(line, interpolation.column, flowMessage(interpolation.token, interpolation.opener));
      continue;
    }
    if (flowHints.has(line)) continue; // the same mistake, reported once
    if (error.code === 'BAD_INDENT' && /same column/.test(error.message)) {
      push(line, firstColumn(lineText), SAME_COLUMN);
      continue;
    }
    if (error.code === 'MULTILINE_IMPLICIT_KEY' || error.code === 'BLOCK_AS_IMPLICIT_KEY') {
      const multiline = multilineAt.get(error.pos[0]);
      if (multiline !== undefined) {
        const keyLine = lineOf(multiline.pos[1]);
        if (consequences.has(line)) {
          consequences.add(keyLine);
          continue;
        }
        const keyText = scan(keyLine).text;
        if (keyLine > line && firstColumn(keyText) > firstColumn(lineText)) {
          push(keyLine, firstColumn(keyText), overIndented(line));
          continue;
        }
      } else {
        push(line, locator.position(error.pos[0]).column, 'a value may not hold an unquoted ": " on the same line as its key; quote the value, or put a nested map on its own, further indented lines');
        continue;
      }
    }
    push(line, locator.position(error.pos[0]).column, yamlMessage(error.code, error.message, maxDepth));
  }
  return out;
}

/** Everything yaml reports after a tab used as indentation follows from misreading it: only the tab is said. */
function upToFirstTab(errors: readonly YAMLError[]): readonly YAMLError[] {
  const tab = errors.findIndex((error) => error.code === 'TAB_AS_INDENT');
  return tab < 0 ? errors : errors.slice(0, tab + 1);
}

interface UnclosedQuote {
  source: '"' | "'";
  offset: number;
}

/**
 * The quoted scalar yaml found never closed: it runs to the end of the file, so yaml says so there
 * ("Missing closing quote", lines later), and whatever it swallowed (the } of a flow map around it)
 * is reported as missing too. The opening quote is the mistake.
 */
function unclosedQuote(errors: readonly YAMLError[], text: string): UnclosedQuote | undefined {
  const missing = errors.find((error) => error.code === 'MISSING_CHAR' && /closing .?quote/.test(error.message));
  if (missing === undefined) return undefined;
  let found: UnclosedQuote | undefined;
  const check = (token: CST.Token | undefined): void => {
    if (found !== undefined || (token?.type !== 'double-quoted-scalar' && token?.type !== 'single-quoted-scalar')) return;
    if (token.offset < missing.pos[0] && token.offset + token.source.length >= missing.pos[0]) found = { source: token.type === 'double-quoted-scalar' ? '"' : "'", offset: token.offset };
  };
  eachToken(text, check);
  return found;
}

/** Every node token of every document in `text` (a document's value, and each key and value in it). */
function eachToken(text: string, check: (token: CST.Token | undefined) => void): void {
  for (const token of new Parser().parse(text)) {
    if (token.type !== 'document') continue;
    check(token.value);
    CST.visit(token, (item) => {
      check(item.key ?? undefined);
      check(item.value);
    });
  }
}

/** What yaml reports before an unclosed quote; everything from it on follows from the quote. */
function beforeQuote(errors: readonly YAMLError[], offset: number): readonly YAMLError[] {
  return errors.filter((error) => error.pos[0] < offset);
}

interface UnclosedFlow {
  source: '[' | '{';
  offset: number;
}

/** Every [ and { the parser never saw closed, in the order they open. */
function unclosedFlows(text: string): UnclosedFlow[] {
  const found: UnclosedFlow[] = [];
  const check = (token: CST.Token | undefined): void => {
    if (token?.type !== 'flow-collection') return;
    const closed = token.end.some((end) => end.type === 'flow-seq-end' || end.type === 'flow-map-end');
    const source = token.start.source;
    if (!closed && (source === '[' || source === '{')) found.push({ source, offset: token.start.offset });
  };
  eachToken(text, check);
  return found.sort((a, b) => a.offset - b.offset);
}

/** The innermost unclosed `source` that opens before `offset`, taken so that it is reported once. */
function takeOpener(unclosed: UnclosedFlow[], source: '[' | '{', offset: number): UnclosedFlow | undefined {
  for (let i = unclosed.length - 1; i >= 0; i--) {
    const flow = unclosed[i];
    if (flow !== undefined && flow.source === source && flow.offset < offset) return unclosed.splice(i, 1)[0];
  }
  return undefined;
}

/** `continuedOn`: the line where the text goes on (and closes it), indented too little to belong to it. */
function unclosedMessage(opener: '[' | '{', closer: string, continuedOn: number | undefined): string {
  if (continuedOn !== undefined) {
    return `this ${opener} goes on at line ${continuedOn}, which is not indented more than the key it belongs to; indent that line further, or close the ${opener} on its first line`;
  }
  return `this ${opener} is never closed; add ${closer}`;
}

export function yamlMessage(code: string, message: string, maxDepth: number): string {
  // yaml reports its own stack overflow on absurdly deep flow collections as a parse error.
  if (message.includes('Maximum call stack size exceeded')) return `the YAML is nested too deeply (a manifest may nest at most ${maxDepth} levels)`;
  if (code === 'TAG_RESOLVE_FAILED') return `${message.replace(/\.$/, '')}; YAML tags other than the standard ones (!!str, !!int, …) are not supported`;
  return YAML_MESSAGES[code] ?? `YAML: ${message.replace(/\.$/, '')}`;
}

function overIndented(lineAbove: number): string {
  return `indentation: this line is indented further than line ${lineAbove}, so YAML reads it as part of the value on line ${lineAbove} instead of as a key; line it up with the keys it belongs with (or quote that value if it really spans lines)`;
}

function flowMessage(token: string, opener: '[' | '{' | undefined): string {
  const example = opener === '{' ? `{ key: "${token}" }` : `["${token}"]`;
  return `an unquoted ${token} inside […] or {…} is not read as one value ("{" opens a map there); quote it, e.g. ${example}`;
}

/** 1-based column of the first character that is not a space. */
function firstColumn(text: string): number {
  const match = /[^ ]/.exec(text);
  return match ? match.index + 1 : 1;
}

interface Interpolation {
  token: string;
  column: number;
  inFlow: boolean;
  opener: '[' | '{' | undefined;
}

/** The first `${…}` on a line outside quotes and comments, and whether a `[` or `{` before it on the line is still open. */
function unquotedInterpolation(text: string): Interpolation | undefined {
  const openers: ('[' | '{')[] = [];
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '#' && (i === 0 || text[i - 1] === ' ')) return undefined;
    if (c === '$' && text[i + 1] === '{' && text[i - 1] !== '$') {
      const close = text.indexOf('}', i);
      const token = close < 0 ? text.slice(i) : text.slice(i, close + 1);
      return { token, column: i + 1, inFlow: openers.length > 0, opener: openers[openers.length - 1] };
    }
    if (c === '"' || c === "'") {
      // A quote starts a quoted scalar only at the start of a value, not inside plain text (it's).
      const before = text.slice(0, i).trimEnd();
      if (before === '' || /[[{,:-]$/.test(before)) quote = c;
    } else if (c === '[' || c === '{') openers.push(c);
    else if (c === ']' || c === '}') openers.pop();
  }
  return undefined;
}
