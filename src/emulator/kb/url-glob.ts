// URL globs for the emulator's fail knob: `**` matches anything (slashes too), `*` anything within
// one path segment, every other character itself. The client has its own glob matcher for the
// manifest's `exclude`; this one only decides which URLs an emulator makes fail.

export function globProblem(glob: string): string | undefined {
  if (glob.trim() === '') return 'a glob must not be empty';
  if (/\*{3,}/.test(glob)) return 'use * or **, not three or more stars in a row';
  return undefined;
}

export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (char === '*') {
      source += '[^/]*';
    } else {
      source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

/** 0 ≤ x < 1 from the URL text (FNV-1a), so a fail fraction picks the same URLs on every run. */
export function stableFraction(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 0x1_0000_0000;
}
