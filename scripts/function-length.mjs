// Measures every function in src/ (declarations, methods, arrows, function expressions) in lines,
// from its first line to its closing brace; a nested function counts inside its parent too. The
// house rule is that none is over 80 lines (test/core/function-length.test.ts keeps it true).
// `node scripts/function-length.mjs [limit]` prints the ones over the limit, longest first (with 0,
// all of them), and exits 1 when there are any.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 80;

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');

function sourceFiles(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
    });
}

function nameOf(node, sourceFile) {
  if (node.name !== undefined) return node.name.getText(sourceFile);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) return parent.name.getText(sourceFile);
  return '(anonymous)';
}

/** Every function-like node of one file's text, with its length in lines. */
export function measureSource(fileName, text) {
  const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line;
      const last = sourceFile.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file: fileName, line: first + 1, name: nameOf(node, sourceFile), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** Every function under `dir` (default src/), paths relative to the repository. */
export function measureFunctions(dir = join(ROOT, 'src')) {
  return sourceFiles(dir).flatMap((path) => measureSource(relative(ROOT, path), readFileSync(path, 'utf8')));
}

/** The functions over `limit` lines, longest first. */
export function longFunctions(limit = MAX_FUNCTION_LINES, dir) {
  return measureFunctions(dir)
    .filter((f) => f.lines > limit)
    .sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const limit = process.argv[2] === undefined ? MAX_FUNCTION_LINES : Number(process.argv[2]);
  const long = longFunctions(limit);
  for (const f of long) process.stdout.write(`${f.file}:${f.line} ${f.name} ${f.lines} lines\n`);
  if (long.length > 0) process.exitCode = 1;
}
