// Formats each file on its own: one that cannot be read or parsed is reported and left untouched,
// and the others are still formatted. Exit 1 when any file failed, or with --check would change.
import { formatManifest } from '../core/format-manifest.js';
import { parseManifest, parseManifestPart } from '../core/parse.js';
import { countOf } from '../core/plural.js';
import { escapeControl } from '../core/terminal-safe.js';
import { isUserError } from '../core/errors.js';
import { readManifestFile } from '../io/manifest/manifest-file.js';
import { manifestFiles } from '../io/manifest/manifest-parts.js';
import { type ManifestLocation } from '../io/manifest/manifest-location.js';
import { rewriteFile } from '../io/files/rewrite-file.js';
import { reportError, type Outcome } from './exit-codes.js';
import { manifestSource, type CliIo } from './cli-io.js';

type FileOutcome = 'unchanged' | 'changed' | 'failed';

/** Formats each file given, and every part of each folder given, each on its own. */
export async function runFmt(locations: readonly string[], opts: FmtOptions, io: CliIo): Promise<Outcome> {
  const outcomes: FileOutcome[] = [];
  for (const location of locations) {
    let found: { paths: string[]; inParts: boolean; listed: ReadonlySet<string> };
    try {
      found = await manifestFiles(location, io.cwd);
    } catch (err) {
      if (!isUserError(err)) throw err;
      reportError(io.stderr, err.message);
      outcomes.push('failed');
      continue;
    }
    for (const file of found.paths) outcomes.push(await formatOne(file, found, opts.check === true, io));
  }
  const changed = outcomes.filter((o) => o === 'changed').length;
  const failed = outcomes.filter((o) => o === 'failed').length;
  if (opts.check && changed > 0) {
    return { ending: 'failed', stderr: `${countOf(changed, 'file')} would be reformatted; run \`npx --no-install agentsync fmt\` to fix ${changed === 1 ? 'it' : 'them'}.\n` };
  }
  // Each file that failed has its error line above.
  return failed > 0 ? 'failed' : 'done';
}

async function formatOne(file: string, found: { inParts: boolean; listed: ReadonlySet<string> }, check: boolean, io: CliIo): Promise<FileOutcome> {
  const isPart = found.inParts;
  let text: string;
  try {
    ({ text } = await readManifestFile(file, manifestSource(io), { listed: found.listed.has(file) }));
  } catch (err) {
    if (!isUserError(err)) throw err;
    reportError(io.stderr, err.message);
    return 'failed';
  }
  // The parser validate uses decides what "does not parse" means; such a file is never written.
  const parsed = isPart ? parseManifestPart(file, text) : parseManifest(file, text);
  const firstError = parsed.diagnostics.find((d) => d.severity === 'error');
  // A part that holds nothing yet (empty, or only comments) is already as it should be.
  if (isPart && firstError === undefined && (parsed.locator.doc?.contents ?? null) === null) return 'unchanged';
  const result = firstError === undefined ? formatManifest(text, parsed.locator.doc) : ({ ok: false, problem: `${firstError.line}:${firstError.column}: ${firstError.message}` } as const);
  if (!result.ok) {
    reportError(io.stderr, `cannot format ${escapeControl(file)}: ${escapeControl(result.problem)}; it was left unchanged`);
    return 'failed';
  }
  if (!result.changed) return 'unchanged';
  if (check) {
    io.stdout.write(`${escapeControl(file)}\n`);
    return 'changed';
  }
  await rewriteFile(file, result.text, io.cwd);
  io.stdout.write(`formatted ${escapeControl(file)}\n`);
  return 'changed';
}

export interface FmtOptions {
  check?: boolean;
  file: ManifestLocation;
}
