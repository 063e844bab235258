// Start-up is mostly V8 turning the bundled CLI into bytecode. V8 can hand back what it compiled
// (a code cache) and take it again in the next process. Node's public compile cache
// (`module.enableCompileCache`, 22.1+) asks for it when a module has been compiled and before it
// runs, so it holds the module's top level and none of the functions V8 compiles lazily later,
// which is nearly every function a command runs. Here the bundle is compiled as a `vm.Script`, and
// the cache is taken with `script.createCachedData()` when the process exits: after the command
// ran, so it holds every function the command compiled. The next start deserialises them instead
// of parsing and compiling (BENCHMARKS.md, P3). `vm.Script` and its cached data are public on every
// Node agentsync supports, Node 20 included.
// - One file per build of the bundle and Node: named by the Node version, the architecture, and
//   the bundle file's device, inode, size and times (any rewrite of the file changes its ctime),
//   and by the flags Node was started with, if any.
//   V8 itself refuses a cache from another V8 or other flags, but it checks the source only by its
//   length, so the name is what keeps a cache with the build it came from.
// - The cache holds what the runs that wrote it compiled. A later run whose first argument (its
//   command, or a typo) the file does not list takes it again after running, so it keeps what both compiled:
//   `agentsync --help` as the very first run does not leave `validate` with half a cache. At most
//   MAX_WORDS words are listed; then the file stays as it is.
// - V8 does not verify a cache's payload in release builds, and a damaged one can crash it. Each
//   file holds a checksum of the rest (io/runtime/checksum.ts); one that does not match is never
//   handed to V8. Without WebAssembly to compute it (`node --jitless`) there is no cache.
// - The directory is private (0700, this user's; anything else is not trusted and the cache is
//   skipped), files are written whole (a temporary file, then a rename), and at most
//   KEEP_FILES builds' caches are kept.
// - The cache is taken at exit, or earlier if the command is about to change V8's flags
//   (io/runtime/v8-flags-event.ts): V8 refuses a cache taken under other flags.
// - The bundle's other files (vendor/undici.cjs, vendor/pg.cjs) are ordinary `require`s, so Node's
//   own compile cache (22.1+) is turned on for them, in the same directory.
// - Nothing here may fail a command: every error means "no cache".
// NODE_DISABLE_COMPILE_CACHE=1 or AGENTSYNC_DEBUG=1 (so that stack traces map to the sources) turn it
// off; NODE_COMPILE_CACHE names the directory.
import Module, { createRequire } from 'node:module';
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { canChecksum, checksum } from './checksum.js';
import { V8_FLAGS_CHANGING } from './v8-flags-event.js';

/** Builds (of the bundle, or of Node) whose caches are kept; older ones are removed when a new one is written. */
const KEEP_FILES = 8;
/** First words (commands) one cache file lists; past this, no run rewrites it. */
const MAX_WORDS = 16;
const SUFFIX = '.v8cache';
/** A cache file: MAGIC, the checksum of everything after it, the words' length, the words ('\n'-separated), V8's data. */
const MAGIC = 'AGC1';
const HEADER_BYTES = 10;
/** The CommonJS wrapper Node puts around a module, so the bundle runs exactly as `require` would run it. */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const WRAPPER_TAIL = '\n});';

/** node:module's compile cache switch (Node 22.1+); @types/node 20 does not describe it. */
type EnableCompileCache = (directory?: string) => { status: number; message?: string; directory?: string };

/** Runs the CommonJS bundle at `file` (an absolute path) as `require(file)` would, through the code cache when it can. */
export function loadBundle(file: string): void {
  if (!loadThroughCodeCache(file)) createRequire(file)(file);
}

/** false, having run nothing, when the cache is off or cannot be used here. */
function loadThroughCodeCache(file: string): boolean {
  const cacheDir = codeCacheDirectory();
  if (cacheDir === undefined) return false;
  enableNodeCompileCache(cacheDir);
  const source = readBundle(file);
  if (source === undefined || !canChecksum()) return false;
  const cacheFile = join(cacheDir, `${source.key}${SUFFIX}`);
  const cached = readCache(cacheFile);
  const script = new Script(WRAPPER_HEAD + source.text + WRAPPER_TAIL, { filename: file, ...(cached ? { cachedData: cached.data } : {}) });
  const word = firstWord(process.argv.slice(2));
  const words = cached === undefined || script.cachedDataRejected === true ? [] : cached.words;
  if (words.length === 0 || (!words.includes(word) && words.length < MAX_WORDS)) saveWhenDone(() => saveCache(script, cacheDir, cacheFile, [...words, word]));
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  const bundle = { exports: {}, filename: file, id: file, loaded: false };
  run.call(bundle.exports, bundle.exports, createRequire(file), bundle, file, dirname(file));
  bundle.loaded = true;
  return true;
}

/** Runs `save` once: at exit, or before the command changes V8's flags, after which the cache would carry them and the next start would refuse it. */
function saveWhenDone(save: () => void): void {
  let saved = false;
  const once = (): void => {
    if (saved) return;
    saved = true;
    save();
  };
  process.once('exit', once);
  (process as NodeJS.EventEmitter).once(V8_FLAGS_CHANGING, once);
}

/** The cache directory, or undefined when the cache is off or the directory cannot be trusted. */
function codeCacheDirectory(): string | undefined {
  if (process.env.NODE_DISABLE_COMPILE_CACHE || process.env.AGENTSYNC_DEBUG === '1') return undefined;
  return privateDirectory(process.env.NODE_COMPILE_CACHE || join(tmpdir(), `agentsync-code-cache-${process.getuid?.() ?? 'user'}`));
}

/** The bundle's text, and the name its cache goes by; read from one open file, so both describe the same contents. */
function readBundle(file: string): { text: string; key: string } | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const stat = fstatSync(fd, { bigint: true });
    const text = readFileSync(fd, 'utf8');
    const key = [basename(file, '.cjs'), process.version, process.arch, stat.dev, stat.ino, stat.size, stat.mtimeNs, stat.ctimeNs, ...nodeFlagsKey()].join('-');
    return { text, key };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The command a run names, as a cache file lists it: its first argument, when that is a word.
 * Anything else (an option first, a path, other text) counts as one and the same word, so an
 * option's value, which may be a secret, is never written into the file.
 */
function firstWord(args: readonly string[]): string {
  const first = args[0];
  if (first === undefined) return '';
  return /^[a-z][a-z0-9-]{0,31}$/.test(first) ? first : '*';
}

/**
 * Runs started with other Node or V8 flags (`node --max-old-space-size=…`, NODE_OPTIONS) get a file
 * of their own: V8 refuses a cache made under other flags, and runs alternating between two sets
 * would otherwise replace each other's cache every time.
 */
function nodeFlagsKey(): string[] {
  const flags = `${process.execArgv.join('\0')}\n${process.env.NODE_OPTIONS ?? ''}`;
  return flags === '\n' ? [] : [`flags${(checksum(Buffer.from(flags)) ?? 0).toString(16)}`];
}

/** The cache's words and V8's data, if the file is there and whole. */
function readCache(cacheFile: string): { words: string[]; data: Buffer } | undefined {
  try {
    const file = readFileSync(cacheFile);
    if (file.length <= HEADER_BYTES || file.toString('latin1', 0, 4) !== MAGIC || checksum(file.subarray(8)) !== file.readUInt32LE(4)) return undefined;
    const wordsEnd = HEADER_BYTES + file.readUInt16LE(8);
    if (wordsEnd >= file.length) return undefined;
    return { words: file.toString('latin1', HEADER_BYTES, wordsEnd).split('\n'), data: file.subarray(wordsEnd) };
  } catch {
    return undefined;
  }
}

function saveCache(script: Script, cacheDir: string, cacheFile: string, words: readonly string[]): void {
  try {
    const wordsText = Buffer.from(words.join('\n'), 'latin1');
    const file = Buffer.concat([Buffer.alloc(HEADER_BYTES), wordsText, script.createCachedData()]);
    file.write(MAGIC, 0, 'latin1');
    file.writeUInt16LE(wordsText.length, 8);
    file.writeUInt32LE(checksum(file.subarray(8)) ?? 0, 4);
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, file, { mode: 0o600 });
    renameSync(temporary, cacheFile);
    removeOldCaches(cacheDir, cacheFile);
  } catch {
    // No cache this time; the next run tries again.
  }
}

/** Keeps the KEEP_FILES most recently written caches (other builds of the bundle, other Nodes). */
function removeOldCaches(cacheDir: string, kept: string): void {
  const caches = readdirSync(cacheDir)
    .filter((name) => name.endsWith(SUFFIX))
    .map((name) => join(cacheDir, name))
    .filter((path) => path !== kept)
    .map((path) => ({ path, written: statSync(path).mtimeMs }))
    .sort((a, b) => b.written - a.written);
  for (const old of caches.slice(KEEP_FILES - 1)) unlinkSync(old.path);
}

/** Node's own compile cache, for the modules the bundle requires later (Node 22.1+; elsewhere nothing). */
function enableNodeCompileCache(cacheDir: string): void {
  const enable = (Module as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  try {
    // Its answer (enabled, already enabled, failed) changes nothing here: the command runs either way.
    if (typeof enable === 'function') enable(cacheDir);
  } catch {
    // No cache.
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
