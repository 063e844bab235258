// `{ description: Order number, e.g. A-1042 }` is valid YAML: inside braces a comma ends the value,
// so the text after it becomes a second key ("e.g. A-1042") with no value. Nothing downstream
// notices (parameter properties keep unknown keys), and the description is silently cut short.
// The sign in the source is a plain key written without a `:` that follows a plain value.
import { isScalar, type Pair } from 'yaml';
import { keyText, flowMaps } from './yaml-walk.js';
import type { DocLintInput, RuleHit } from './types.js';

export function commaSplitFlowMaps({ doc }: DocLintInput): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const { path, map } of flowMaps(doc)) {
    map.items.forEach((pair, i) => {
      const key = keyText(pair);
      if (key === undefined || pair.value !== null || !isScalar(pair.key) || pair.key.type !== 'PLAIN') return;
      const previous = i > 0 ? (map.items[i - 1] as Pair) : undefined;
      const previousKey = previous ? keyText(previous) : undefined;
      const previousValue = previous?.value;
      if (previousKey === undefined || !isScalar(previousValue) || previousValue.type !== 'PLAIN' || typeof previousValue.value !== 'string') return;
      hits.push({
        path: [...path, key],
        atKey: true,
        message: `"${key}" became a key of its own: inside { } a comma ends the value of ${previousKey}, so it reads "${previousValue.value}"; quote the whole text (${previousKey}: "${previousValue.value}, ${key}") or write the mapping as block YAML`,
      });
    });
  }
  return hits;
}
