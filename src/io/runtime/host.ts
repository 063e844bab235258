// The library's defaults when its caller gives no environment or folder: the process's own. io/
// is the layer that touches the world, so the process is read here and nowhere in the library.
import { createRequire } from 'node:module';

export function hostEnv(): Readonly<Record<string, string | undefined>> {
  return process.env;
}

export function hostCwd(): string {
  return process.cwd();
}

/** True inside the single-file binary (scripts/sea.mjs), where `npx` has nothing to run. */
export function runsAsSingleExecutable(): boolean {
  try {
    const sea = createRequire(import.meta.url)('node:sea') as { isSea?: () => boolean };
    return sea.isSea?.() === true;
  } catch {
    return false; // Node before 20.12 has no node:sea, and no binary of ours runs on it
  }
}
