// The order an exported manifest writes a resource's keys in: each kind says it for its own entries
// (Exportable.keyOrder, the public reference's order); anything else is written sorted.
import { KINDS } from './kinds/index.js';

/** The key order for the map at `path` (from the document's root), or undefined for plain sorted keys. */
export function exportKeyOrder(path: readonly string[]): readonly string[] | undefined {
  for (const kind of Object.values(KINDS)) {
    const spec = kind.export;
    const { section } = kind;
    if (spec === undefined || path.length < section.length + 1) continue;
    if (!section.every((part, i) => path[i] === part)) continue;
    // path: the section, the entry's key, then the map's path inside the entry.
    const inside = path.slice(section.length + 1).join('.');
    return Object.hasOwn(spec.keyOrder, inside) ? spec.keyOrder[inside] : undefined;
  }
  return undefined;
}
