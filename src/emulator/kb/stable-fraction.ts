// The emulator's deterministic choice of URLs for the `kbFailFraction` knob. Which URLs a
// `kbFailUrls` glob names is core/url-glob.ts, the same matcher as the manifest's `exclude`.

/** 0 ≤ x < 1 from the URL text (FNV-1a), so a fail fraction picks the same URLs on every run. */
export function stableFraction(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 0x1_0000_0000;
}
