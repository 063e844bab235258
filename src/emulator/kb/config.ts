// The knowledge base's knobs: how long indexing takes, which URLs fail, and the paging faults a
// client's torture tests need. Set at start-up (startEmulator options, `agentsync emulator
// --kb-processing-ms`) or at runtime through `POST /__emulator/config` with the same names.
import type { JsonObject } from '../../core/api-types.js';
import { badRequest } from '../errors.js';
import { urlGlobProblem } from '../../core/url-glob.js';
import { twinEntryProblem } from './twins.js';

export interface KbConfig {
  /** Time from process/sync until every URL of the batch is final; URLs finish evenly spread over it. */
  kbProcessingMs: number;
  /** URL globs (`*` within a path segment, `**` across segments): matching URLs end `failed`. */
  kbFailUrls: string[];
  /** Share of processed URLs (0..1) that end `failed`, chosen by a hash of the URL, so the same URLs every run. */
  kbFailFraction: number;
  /** Discovered-URL pages answer `meta.next.cursor` equal to the cursor sent: a server that pages forever. */
  kbCursorForever: boolean;
  /** The next this many discovered-URL list calls answer 429 (a storm while paging). */
  kbThrottleNext: number;
  /** The Retry-After (seconds) of those 429s; 0 lets a test storm without waiting. */
  kbThrottleRetryAfterSeconds: number;
  /** The next this many scrapes store their website and then drop the connection: a lost answer. */
  kbScrapeDropNext: number;
  /** The next this many knowledge-base list calls (`GET …/knowledge-base`) answer 500. */
  kbListFailNext: number;
  /** The next this many website DELETEs answer 500 and delete nothing. */
  kbDeleteFailNext: number;
  /** The next this many discovered-URL process calls answer 500 and start nothing. */
  kbProcessFailNext: number;
  /** A crawl's bound per page fetch, and for the whole crawl (it then ends with what it found). */
  kbFetchTimeoutMs: number;
  kbCrawlTimeoutMs: number;
  /**
   * `"<listed URL> <twin URL>"` entries: the discovered-URL list shows each listed URL's record a
   * second time, right after it, with the twin URL (one id under two URLs).
   */
  kbTwinUrls: string[];
}

export const DEFAULT_KB_CONFIG: Readonly<KbConfig> = Object.freeze({
  kbProcessingMs: 1500,
  kbFailUrls: [],
  kbFailFraction: 0,
  kbCursorForever: false,
  kbThrottleNext: 0,
  kbThrottleRetryAfterSeconds: 1,
  kbScrapeDropNext: 0,
  kbListFailNext: 0,
  kbDeleteFailNext: 0,
  kbProcessFailNext: 0,
  kbFetchTimeoutMs: 5000,
  kbCrawlTimeoutMs: 30_000,
  kbTwinUrls: [],
});

export const KB_CONFIG_KEYS: ReadonlySet<string> = new Set(Object.keys(DEFAULT_KB_CONFIG));

const WHOLE_NUMBER_KEYS = ['kbProcessingMs', 'kbThrottleNext', 'kbThrottleRetryAfterSeconds', 'kbScrapeDropNext', 'kbListFailNext', 'kbDeleteFailNext', 'kbProcessFailNext'] as const;
const POSITIVE_KEYS = ['kbFetchTimeoutMs', 'kbCrawlTimeoutMs'] as const;

/** Problems with KB values, as short phrases; empty when all are valid. */
export function kbConfigProblems(values: Partial<Record<keyof KbConfig, unknown>>): string[] {
  const problems: string[] = [];
  for (const key of WHOLE_NUMBER_KEYS) {
    const value = values[key];
    if (value !== undefined && !(typeof value === 'number' && Number.isSafeInteger(value) && value >= 0)) problems.push(`'${key}' must be a whole number ≥ 0`);
  }
  for (const key of POSITIVE_KEYS) {
    const value = values[key];
    if (value !== undefined && !(typeof value === 'number' && Number.isSafeInteger(value) && value > 0)) problems.push(`'${key}' must be a whole number > 0`);
  }
  const fraction = values.kbFailFraction;
  if (fraction !== undefined && !(typeof fraction === 'number' && fraction >= 0 && fraction <= 1)) problems.push("'kbFailFraction' must be a number from 0 to 1");
  const forever = values.kbCursorForever;
  if (forever !== undefined && typeof forever !== 'boolean') problems.push("'kbCursorForever' must be a boolean");
  listProblems(values.kbFailUrls, 'kbFailUrls', 'an array of URL globs', urlGlobProblem, problems);
  listProblems(values.kbTwinUrls, 'kbTwinUrls', 'an array of "<listed URL> <twin URL>" strings', twinEntryProblem, problems);
  return problems;
}

/** A knob that is a list of strings, each checked by `problemOf`: every problem goes into `problems`. */
function listProblems(value: unknown, key: string, shape: string, problemOf: (entry: string) => string | undefined, problems: string[]): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
    problems.push(`'${key}' must be ${shape}`);
    return;
  }
  for (const entry of value as string[]) {
    const problem = problemOf(entry);
    if (problem) problems.push(`'${key}' has ${JSON.stringify(entry)}: ${problem}`);
  }
}

/** The KB keys of a `/__emulator/config` body; a bad value is a 400 that names the key. */
export function parseKbChanges(object: JsonObject): Partial<KbConfig> {
  const problems = kbConfigProblems(object);
  if (problems.length > 0) throw badRequest(`${problems.join('; ')}.`);
  const changes: Record<string, unknown> = {};
  for (const key of KB_CONFIG_KEYS) if (object[key] !== undefined) changes[key] = Array.isArray(object[key]) ? [...object[key]] : object[key];
  return changes as Partial<KbConfig>;
}
