// Node's compile cache (src/io/runtime/code-cache.ts) keeps what V8 compiled when it compiled the
// bundle, before running it: its top level, and no function V8 left to compile lazily, which is
// nearly every function. V8 compiles a function at once when it is written in parentheses, as in
// `(function () { … })` (the PIFE heuristic), so the cache then holds it too. This wraps the
// functions that `validate` runs, and only those: the bundle is run once on examples/minimal.yaml
// with V8's coverage on, and each function that ran gets its parentheses. They are the functions
// that every command's start shares (commander, yaml, zod, the manifest's resolution); the rest
// stay lazy, since compiling them would only make the cache larger. BENCHMARKS.md, P3.
// - Function expressions and arrow functions are put in parentheses; esbuild's module wrappers
//   (`"src/x.ts"() { … }` methods) become `"src/x.ts": (function () { … })`. Declarations and
//   class methods cannot be written so, and stay lazy. V8 12 (Node 22) takes the hint for
//   `function` only, V8 13 (Node 24) for arrows too.
// - The change is parentheses only; the source map is shifted to match.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** Rewrites `bundle` (and `bundle`.map) in place; returns how many functions were wrapped. */
export function eagerCompileWhatValidateRuns(bundle, manifest) {
  const code = readFileSync(bundle, 'utf8');
  const ran = functionsThatRan(bundle, manifest);
  const inserts = parenthesesFor(code, ran);
  writeFileSync(bundle, applyInserts(code, inserts));
  const map = JSON.parse(readFileSync(`${bundle}.map`, 'utf8'));
  map.mappings = shiftMappings(map.mappings, code, inserts);
  writeFileSync(`${bundle}.map`, JSON.stringify(map));
  return inserts.length / 2;
}

/** The start offsets of the functions in `bundle` that ran during one `validate`. */
function functionsThatRan(bundle, manifest) {
  const coverage = mkdtempSync(join(tmpdir(), 'agentsync-eager-compile-'));
  try {
    const env = { ...process.env, NODE_V8_COVERAGE: coverage, NODE_DISABLE_COMPILE_CACHE: '1', NO_COLOR: '1' };
    const run = spawnSync(process.execPath, [bundle, 'validate', '-f', manifest], { env, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${bundle} validate -f ${manifest} failed (${run.status ?? run.signal}): ${run.stderr}`);
    const url = pathToFileURL(resolve(bundle)).href;
    const script = readdirSync(coverage)
      .flatMap((file) => JSON.parse(readFileSync(join(coverage, file), 'utf8')).result)
      .find((entry) => entry.url === url);
    if (!script) throw new Error(`V8's coverage has no entry for ${url}`);
    return new Set(script.functions.filter((fn) => fn.ranges[0].count > 0).map((fn) => fn.ranges[0].startOffset));
  } finally {
    rmSync(coverage, { recursive: true, force: true });
  }
}

/** [offset, text] pairs, in source order, that put each function that ran in parentheses. */
function parenthesesFor(code, ran) {
  const file = ts.createSourceFile('bundle.cjs', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const inserts = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && ran.has(node.getStart(file))) {
      if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && !ts.isParenthesizedExpression(node.parent)) {
        inserts.push([node.getStart(file), '('], [node.end, ')']);
      } else if (isModuleWrapper(node, file)) {
        inserts.push([node.name.end, ': (function'], [node.end, ')']);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return inserts.sort((a, b) => a[0] - b[0]);
}

/** `__esm({ "src/x.ts"() { … } })` or `__commonJS({ "node_modules/y.js"(exports, module) { … } })`. */
function isModuleWrapper(node, file) {
  const call = node.parent?.parent;
  return ts.isMethodDeclaration(node) && ts.isStringLiteral(node.name) && !node.asteriskToken && ts.isCallExpression(call) && /^__(esm|commonJS)$/.test(call.expression.getText(file));
}

function applyInserts(code, inserts) {
  let out = '';
  let at = 0;
  for (const [offset, text] of inserts) {
    out += code.slice(at, offset) + text;
    at = offset;
  }
  return out + code.slice(at);
}

/** The source map's generated columns, moved right by what was inserted before them on their line. */
function shiftMappings(mappings, code, inserts) {
  const lineStarts = [0];
  for (let i = code.indexOf('\n'); i >= 0; i = code.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const byLine = new Map();
  let line = 0;
  for (const [offset, text] of inserts) {
    while (line + 1 < lineStarts.length && lineStarts[line + 1] <= offset) line++;
    const list = byLine.get(line) ?? [];
    list.push([offset - lineStarts[line], text.length]);
    byLine.set(line, list);
  }
  return mappings
    .split(';')
    .map((segments, index) => {
      const moves = byLine.get(index);
      if (!moves || segments === '') return segments;
      let previous = 0;
      let previousShifted = 0;
      return segments
        .split(',')
        .map((segment) => {
          const fields = decodeVlq(segment);
          const column = previous + fields[0];
          previous = column;
          const shifted = column + moves.reduce((sum, [at, length]) => (at <= column ? sum + length : sum), 0);
          fields[0] = shifted - previousShifted;
          previousShifted = shifted;
          return encodeVlq(fields);
        })
        .join(',');
    })
    .join(';');
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeVlq(segment) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

function encodeVlq(values) {
  let out = '';
  for (const value of values) {
    let rest = value < 0 ? (-value << 1) | 1 : value << 1;
    do {
      let digit = rest & 31;
      rest >>>= 5;
      if (rest > 0) digit |= 32;
      out += BASE64[digit];
    } while (rest > 0);
  }
  return out;
}
