// The library's defaults when its caller gives no environment or folder: the process's own. io/
// is the layer that touches the world, so the process is read here and nowhere in the library.
export function hostEnv(): Readonly<Record<string, string | undefined>> {
  return process.env;
}

export function hostCwd(): string {
  return process.cwd();
}
