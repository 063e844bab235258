// The programmatic API's declarations as the package ships them (dist/types/), for users who have
// none of agentsync's build dependencies. tsc's declarations name zod's types (the manifest types are
// `z.output<typeof schema>`) and undici's, and neither package is installed with agentsync: a user's
// `tsc` would fail on them, or with skipLibCheck see `any`. So this copies the declaration files
// that dist/index.d.ts reaches and, in those that import a package, writes each type alias out in
// full (TypeScript's own expansion: `ManifestTool = { displayName: string; … }`) and drops the
// declarations that still need the package (zod schemas, undici's pool): nothing the API's exports
// reach. The result is checked with tsc, against Node's types alone, before the build passes.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const EXPAND = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;

/** Writes the declarations reachable from `entry` (tsc's output) to `outDir`, with no package imports but node:*. */
export function writePublicTypes(entry, outDir) {
  const program = ts.createProgram([entry], { strict: true, noEmit: true, types: [], skipLibCheck: true });
  const checker = program.getTypeChecker();
  const root = dirname(resolve(entry));
  rmSync(outDir, { recursive: true, force: true });
  for (const file of reachableDeclarations(program, resolve(entry))) {
    const source = program.getSourceFile(file);
    const target = join(outDir, relative(root, file));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, withoutPackageTypes(source, checker));
  }
  assertSelfContained(join(outDir, relative(root, resolve(entry))));
}

/** The .d.ts files `entry` imports, directly or not, by relative paths. */
function reachableDeclarations(program, entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of moduleSpecifiers(program.getSourceFile(file))) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.d.ts')));
    }
  };
  visit(entry);
  return [...seen];
}

/** What a declaration file imports: its import and export declarations, and the `import("./x.js")` types tsc writes for inferred types. */
function moduleSpecifiers(source) {
  const declared = source.statements.flatMap((statement) =>
    (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? [statement.moduleSpecifier.text] : [],
  );
  // tsc also writes types inline, `import("./text/manifest.js").TextSpec`: a kind's spec reached only so.
  const inline = [...source.text.matchAll(/\bimport\("(\.[^"]+)"\)/g)].map((match) => match[1]);
  return [...declared, ...inline];
}

const isPackage = (specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:');

function withoutPackageTypes(source, checker) {
  const packageNames = new Set();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !isPackage(statement.moduleSpecifier.text)) continue;
    const clause = statement.importClause;
    if (clause?.name) packageNames.add(clause.name.text);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) packageNames.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) packageNames.add(element.name.text);
  }
  if (packageNames.size === 0) return source.text;
  const mentionsPackage = (node) => {
    let found = false;
    const walk = (child) => {
      if (found) return;
      if (ts.isIdentifier(child) && packageNames.has(child.text)) found = true;
      else ts.forEachChild(child, walk);
    };
    walk(node);
    return found;
  };
  const kept = new Map();
  for (const statement of source.statements) {
    const text = statement.getFullText(source);
    if (ts.isImportDeclaration(statement) && isPackage(statement.moduleSpecifier.text)) continue;
    if (!mentionsPackage(statement)) kept.set(statement, text);
    else if (ts.isTypeAliasDeclaration(statement) && !statement.typeParameters) {
      const expanded = checker.typeToString(checker.getTypeAtLocation(statement.name), statement, EXPAND);
      const docs = text.slice(0, statement.getStart(source) - statement.getFullStart());
      kept.set(statement, `${docs}export type ${statement.name.text} = ${expanded};`);
    } else {
      // Anything else that needs the package (a zod schema, undici's pool) is dropped, and so,
      // below, is whatever names it (a function over that pool).
      const name = declaredName(statement);
      if (name) packageNames.add(name);
    }
  }
  for (let dropped = true; dropped;) {
    dropped = false;
    for (const [statement] of kept) {
      if (ts.isTypeAliasDeclaration(statement) || !mentionsPackage(statement)) continue;
      kept.delete(statement);
      const name = declaredName(statement);
      if (name) packageNames.add(name);
      dropped = true;
    }
  }
  const text = [...kept.values()].join('') + '\n';
  return withSharedImports(text, source);
}

/**
 * An expanded alias may name the JSON value type (`Record<string, JsonValue>`, through a field of
 * the kind's schema) in a file that never imported it: the import is added, from core/api-types.
 */
function withSharedImports(text, source) {
  if (!/\bJsonValue\b/.test(text) || /import[^;]*\bJsonValue\b/.test(text)) return text;
  const apiTypes = resolve(dirname(source.fileName).replace(/\/core(\/.*)?$/, '/core'), 'api-types.js');
  let from = relative(dirname(source.fileName), apiTypes);
  if (!from.startsWith('.')) from = `./${from}`;
  return `import type { JsonValue } from '${from}';\n${text}`;
}

function declaredName(statement) {
  if (ts.isVariableStatement(statement)) return statement.declarationList.declarations[0]?.name.getText();
  return statement.name && ts.isIdentifier(statement.name) ? statement.name.text : undefined;
}

/**
 * tsc over the written declarations, as a user's project with only Node's types and skipLibCheck off
 * sees them. Only our files are checked (with the options and global diagnostics): checking all of
 * @types/node and TypeScript's libraries as well took 3 of the build's 20 seconds and can only
 * report problems that are not ours; test/package/install.test.ts runs a whole user's tsc.
 */
function assertSelfContained(entry) {
  const program = ts.createProgram([entry], {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    types: ['node'],
  });
  const folder = `${dirname(resolve(entry))}/`;
  const ours = program.getSourceFiles().filter((file) => file.fileName.startsWith(folder));
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ours.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
  const problems = diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n') + (d.file ? ` (${d.file.fileName})` : ''));
  // What the bundles hold (and @types/pg): a user's project has none of them.
  const bundled = /\/node_modules\/(zod|yaml|undici|pg|commander|diff|@types\/pg)\//;
  const remaining = program.getSourceFiles().filter((file) => bundled.test(file.fileName));
  for (const file of remaining) problems.push(`the declarations load ${file.fileName}, which users do not have`);
  if (problems.length > 0) throw new Error(`dist/types is not self-contained:\n${problems.join('\n')}`);
}
