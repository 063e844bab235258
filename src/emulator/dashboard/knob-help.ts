// One line per knob of `POST /__emulator/config`, shown beside it on the dashboard's Knobs view
// (docs/emulator.md has the long form). Typed by the knobs themselves, so a new knob without a
// line does not compile.
import type { FaultConfig, LostAnswers } from '../faults.js';
import type { KbConfig } from '../kb/config.js';
import type { ServerMode } from '../mode.js';

type Knob = keyof FaultConfig | 'failNext' | keyof LostAnswers | keyof ServerMode | keyof KbConfig;

export const KNOB_HELP: Readonly<Record<Knob, string>> = {
  latencyMs: 'Holds every API answer back this many milliseconds, counted from arrival.',
  rateLimitPerMinute: 'API requests per minute before 429s; empty turns the limit off.',
  failRate: 'Share of API requests (0 to 1) that fail on purpose, as failMode says.',
  failMode: 'How a failed request fails: a 503, a dropped connection, or either.',
  failNext: 'Fails exactly the next n API requests, before failRate applies.',
  loseAnswerNext: 'The next n requests matching loseAnswerOn do their work, then drop the answer.',
  loseAnswerOn: 'Which requests lose their answer: "METHOD /path-prefix", the path below /v3.',
  putCreates: 'PUT of an unknown tool creates it, instead of answering 404.',
  createStatus: 'Status of a successful create: 200 (version A) or 201 (version O).',
  timestamps: 'Tool and agent timestamps as ISO strings or epoch milliseconds.',
  agentList: 'What the agent list holds: whole records, no uid, or without optional fields.',
  storeAsSent: 'Stores bodies exactly as sent, with no defaults filled in.',
  kbAttachArrays: 'Attached ids: split (websites in websites, the rest in files), or all in files.',
  kbProcessingMs: 'Time for a batch of discovered URLs to finish indexing.',
  kbFailUrls: 'URL globs whose indexing ends failed.',
  kbFailFraction: 'Share of indexed URLs (0 to 1) that end failed, the same ones every run.',
  kbCursorForever: 'Discovered-URL pages repeat the cursor sent: a list that never ends.',
  kbThrottleNext: 'The next n discovered-URL lists answer 429.',
  kbThrottleRetryAfterSeconds: 'The Retry-After of those 429s, in seconds.',
  kbScrapeDropNext: 'The next n scrapes store their website, then drop the answer.',
  kbListFailNext: 'The next n knowledge-base lists answer 500.',
  kbDeleteFailNext: 'The next n website deletes answer 500 and delete nothing.',
  kbProcessFailNext: 'The next n process calls answer 500 and start nothing.',
  kbFetchTimeoutMs: "A crawl's time limit for one page.",
  kbCrawlTimeoutMs: "A crawl's time limit in all; it then ends with what it found.",
  kbTwinUrls: 'Pairs "<URL> <twin>": lists that discovered URL again under the twin.',
};
