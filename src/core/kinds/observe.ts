// How the refresh reads a kind that has no list endpoint (websites): resource by resource, through
// the `get` io/ hands in, and how what it read fills the desired specs before the diff. A kind with
// a list endpoint says so with `Kind.refresh` instead; a kind may have both, or neither.
import type { Desired } from '../desired.js';
import type { KindReport } from '../plan.js';
import type { State } from '../state.js';
import type { GetPage } from './website/urls.js';

/** One resource of the state the refresh reads, with the id its reads take. */
export interface ObserveTarget {
  address: string;
  readId: string;
}

/** What the refresh read of one kind, for core/refresh.ts and for the kind's `resolve`. */
export interface KindResolution {
  /** The desired manifest with this kind's specs filled in from what was read (the same object when nothing changed). */
  desired: Desired;
  reports: KindReport[];
  warnings: string[];
  /** address → the value a saved plan replays without reading the server again (a website's fingerprint). */
  recorded: Record<string, string>;
}

/**
 * `Seen` is what one read answers (a website's discovered URLs). The methods are written as methods
 * so a kind's `Observable<Seen>` stands where the registry holds `Observable<unknown>`.
 */
export interface Observable<Seen> {
  /** What a failed read could not read, in an error line: `the discovered URLs`. */
  what: string;
  /** The resources of this kind the state holds that can be read. */
  targets(state: State | null): ObserveTarget[];
  /** Reads one target through `get` (a GET of an API path); the caller turns a 404 on the first GET into "gone". */
  read(get: GetPage, target: ObserveTarget): Promise<Seen>;
  /**
   * Fills the desired specs from what was read (`seen`, address → answer; absent when offline or
   * replaying), or else from `saved`, a saved plan's `recorded`, or the state.
   */
  resolve(desired: Desired, state: State | null, seen: ReadonlyMap<string, Seen> | undefined, saved: Readonly<Record<string, string>> | undefined): KindResolution;
}
