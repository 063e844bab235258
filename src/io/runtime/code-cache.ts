// Start-up is mostly V8 compiling the bundled CLI (zod, yaml and commander are most of it). Node
// 22.1+ can keep what V8 compiled on disk and reuse it in the next process: the public
// `module.enableCompileCache(dir)`. Node 20 has no public API for it, so there the CLI is compiled on
// every start (no cache at all: patching Node's private module loader is not worth the risk).
// - The cache lives in a private directory (0700, owned by this user; anything else is not trusted
//   and the cache is skipped). Node keys each entry by the file's contents and the Node version, so
//   a rebuilt bundle or another Node never meets a stale cache.
// - Nothing here may fail a command: every error means "no cache".
// NODE_DISABLE_COMPILE_CACHE=1 turns it off (Node itself honours it too); NODE_COMPILE_CACHE names
// the directory (and Node then enables the cache before this runs). AGENTSYNC_DEBUG=1 turns it off
// so that stack traces map to the sources.
import Module from 'node:module';
import { lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** node:module's compile cache switch (Node 22.1+); @types/node 20 does not describe it. */
type EnableCompileCache = (directory?: string) => { status: number; message?: string; directory?: string };

/** Turns Node's compile cache on for every module loaded after this call, where Node has one. */
export function enableCodeCache(): void {
  const enable = (Module as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (typeof enable !== 'function') return;
  if (process.env.NODE_DISABLE_COMPILE_CACHE || process.env.AGENTSYNC_DEBUG === '1') return;
  const cacheDir = privateDirectory(process.env.NODE_COMPILE_CACHE || join(tmpdir(), `agentsync-code-cache-${process.getuid?.() ?? 'user'}`));
  if (!cacheDir) return;
  try {
    // Its answer (enabled, already enabled, failed) changes nothing here: the command runs either way.
    enable(cacheDir);
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
