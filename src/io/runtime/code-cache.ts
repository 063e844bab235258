// Start-up is mostly V8 compiling the bundled CLI (zod, yaml and commander are most of it). V8 can
// save what it compiled ("code cache") and reuse it in the next process, which skips parsing and
// compiling everything the last run needed. Node 20 has no API for this, and Node 22's
// module.enableCompileCache saves the cache right after the top-level compile, before any function
// has run, so every function a command calls is still compiled lazily on each start (measured on
// Node 22 and 24: `validate` 166 ms with it, 128 ms with this; BENCHMARKS.md P3). So on every Node:
// - only files under `bundleDir` (dist/cli/*.cjs) are compiled through here; anything else loads as
//   usual;
// - the cache lives in a private directory (0700, owned by this user; anything else is not trusted
//   and the cache is skipped), one file per bundle and command, keyed by the bundle's path, size and
//   mtime and by the Node version, so a rebuilt or moved bundle never meets a stale cache (V8 also
//   refuses data from another V8 version or other flags; then the cache is rewritten). The command
//   is one of a fixed list of words (anything else is `other`), so a typo or an option's value
//   never adds a file;
// - the folder is kept small: a rebuilt bundle's old files go, and beyond MAX_CACHE_FILES (other
//   installations, other Nodes) the least recently written go, as do temporary files a killed run
//   left;
// - a cache is written at exit, atomically, when it was missing, refused or written by a failed run,
//   and it holds every function that run compiled;
// - nothing here may fail a command: every error means "no cache".
// NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does Node's; NODE_COMPILE_CACHE names the directory.
import Module from 'node:module';
import vm from 'node:vm';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';

/** The parts of a CommonJS module object (node:module's Module) that loading one needs. */
interface LoadingModule {
  exports: unknown;
  _compile(content: string, filename: string): unknown;
}

/** Where one bundle's cache for this build, this Node and this command lives. */
interface CacheFiles {
  /** Written by a run that exited 0, so it holds what a successful run of the command compiles. */
  complete: string;
  /** Written by a failed run, which may have stopped early; a successful run replaces it. */
  partial: string;
  /** Every cache file of this bundle at this place for this Node starts so; see removeOlderBuilds. */
  bundlePrefix: string;
  /** … and every one of this build, for any command. */
  buildPrefix: string;
}

interface Loaded {
  script: vm.Script;
  files: CacheFiles;
  /** What the cache on disk was worth to this run. */
  found: 'none' | 'partial' | 'complete';
}

/** About 300 KB each: a few installations' worth of commands, ~10 MB at most. */
const MAX_CACHE_FILES = 32;
/** A temporary file older than this belongs to a run that was killed while writing it. */
const STALE_TEMP_MS = 10 * 60_000;

type ModuleFunction = (exports: unknown, require: NodeJS.Require, module: LoadingModule, filename: string, dirname: string) => void;

/** `commands`: the words that name a command; each gets its own cache, anything else shares `other`. */
export function enableCodeCache(bundleDir: string, commands: readonly string[]): void {
  if (process.env.NODE_DISABLE_COMPILE_CACHE || process.env.AGENTSYNC_DEBUG === '1') return;
  const cacheDir = privateDirectory(process.env.NODE_COMPILE_CACHE || join(tmpdir(), `agentsync-code-cache-${process.getuid?.() ?? 'user'}`));
  if (!cacheDir) return;
  const ours = bundleDir.endsWith(sep) ? bundleDir : bundleDir + sep;
  const loaded: Loaded[] = [];
  const proto = (Module as unknown as { prototype: LoadingModule }).prototype;
  const compileAsUsual = proto._compile;
  proto._compile = function compileWithCache(this: LoadingModule, content: string, filename: string): unknown {
    if (!filename.startsWith(ours) || !filename.endsWith('.cjs')) return compileAsUsual.call(this, content, filename);
    return runCached(this, content, filename, { cacheDir, command: commandName(commands) }, loaded);
  };
  process.once('exit', (code) => {
    for (const entry of loaded) saveIfBetter(entry, code === 0);
  });
}

function runCached(module: LoadingModule, content: string, filename: string, where: { cacheDir: string; command: string }, loaded: Loaded[]): unknown {
  const files = cacheFilesFor(where.cacheDir, filename, where.command);
  const complete = files && readOrUndefined(files.complete);
  const cachedData = complete ?? (files && readOrUndefined(files.partial));
  // No importModuleDynamically: a script from the cache loses it on Node 20, so the bundles hold no
  // import() at all (scripts/bundle.mjs makes sure).
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${content}\n})`, { filename, cachedData });
  if (files) loaded.push({ script, files, found: !cachedData || script.cachedDataRejected ? 'none' : complete ? 'complete' : 'partial' });
  const moduleFunction = script.runInThisContext() as ModuleFunction;
  moduleFunction.call(module.exports, module.exports, Module.createRequire(filename), module, filename, dirname(filename));
  return module.exports;
}

/**
 * One cache per command, because each command compiles different functions: a cache written by
 * `--version` would leave `plan` compiling most of itself on every start.
 */
function cacheFilesFor(cacheDir: string, filename: string, command: string): CacheFiles | undefined {
  try {
    const { size, mtimeMs } = statSync(filename);
    const bundlePrefix = `${basename(filename, '.cjs')}-${pathHash(filename)}-${process.version}-${process.arch}-`;
    const buildPrefix = `${bundlePrefix}${size}-${Math.trunc(mtimeMs)}-`;
    const name = join(cacheDir, `${buildPrefix}${command}`);
    return { complete: `${name}.bin`, partial: `${name}.partial.bin`, bundlePrefix, buildPrefix };
  } catch {
    return undefined;
  }
}

/** The first argument that is a command's name (`-e staging plan` is `plan`); `none` without arguments. */
function commandName(commands: readonly string[]): string {
  const words = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  if (words.length === 0) return 'none';
  return words.find((word) => commands.includes(word)) ?? 'other';
}

/** FNV-1a: enough to tell two installations apart, and cheaper than loading node:crypto. */
function pathHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function saveIfBetter({ script, files, found }: Loaded, succeeded: boolean): void {
  if (found === 'complete' || (found === 'partial' && !succeeded)) return;
  const target = succeeded ? files.complete : files.partial;
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    // 'wx': O_EXCL, so nothing already at that name (a file, a planted link) is ever written through.
    writeFileSync(temporary, script.createCachedData(), { mode: 0o600, flag: 'wx' });
    renameSync(temporary, target);
    if (succeeded) unlinkIfThere(files.partial);
    pruneCache(files);
  } catch {
    unlinkIfThere(temporary);
  }
}

/**
 * Runs only after a cache was written, which is rare. A rebuilt bundle gets new cache files, so the
 * old build's go (other Nodes' stay); past MAX_CACHE_FILES the least recently written go.
 */
function pruneCache({ bundlePrefix, buildPrefix, complete }: CacheFiles): void {
  const dir = dirname(complete);
  const kept: { file: string; written: number }[] = [];
  for (const other of readdirSync(dir)) {
    const file = join(dir, other);
    if (other.endsWith('.tmp')) {
      if (writtenAt(file) < Date.now() - STALE_TEMP_MS) unlinkIfThere(file);
    } else if (other.endsWith('.bin')) {
      if (other.startsWith(bundlePrefix) && !other.startsWith(buildPrefix)) unlinkIfThere(file);
      else kept.push({ file, written: writtenAt(file) });
    }
  }
  kept.sort((a, b) => b.written - a.written);
  for (const { file } of kept.slice(MAX_CACHE_FILES)) unlinkIfThere(file);
}

/** When `file` was last written (lstat: a link planted here is judged as itself, never followed). */
function writtenAt(file: string): number {
  try {
    return lstatSync(file).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function unlinkIfThere(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone (or never written): nothing to clean up.
  }
}

/** The cache directory, if it is (or can be made) a real directory only this user can write. */
function privateDirectory(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    const uid = process.getuid?.();
    if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}
