// Which `moved:` entries a state still needs: apart from core/moved.ts, which reads the manifest's
// sections from the kind registry, so that a kind (a website's resolve) can use it too.
import type { Move } from './desired.js';

/** The moves that apply to this state: its entry at `from` goes to `to`, unless `to` is taken already (a move done before). */
export function effectiveMoves(moves: readonly Move[], recorded: Readonly<Record<string, unknown>>): Move[] {
  return moves.filter((move) => Object.hasOwn(recorded, move.from) && !Object.hasOwn(recorded, move.to));
}
