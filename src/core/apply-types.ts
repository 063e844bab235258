// What an apply reports while it runs (events, for progress) and when it ends (the result, for the
// summary). Plain data: render/ turns it into text.
import type { Action, UnreadableResource } from './plan.js';
import type { ResourceType } from './desired.js';

export type AppliedAction = Exclude<Action, 'no-op'>;

export interface ApplyEventBase {
  address: string;
  type: ResourceType;
  action: AppliedAction;
}

export type ApplyEvent =
  | (ApplyEventBase & { kind: 'start'; call?: string })
  | (ApplyEventBase & { kind: 'retry'; call: string; retry: number; delayMs: number; reason: string })
  | (ApplyEventBase & { kind: 'done'; call?: string; ms: number; remoteId: string; retries: number; adopted?: boolean; gone?: boolean; replaced?: boolean; steps?: string[] })
  | (ApplyEventBase & { kind: 'failed'; failure: ApplyFailure });

export interface DoneItem extends ApplyEventBase {
  remoteId: string;
  /** The call made, e.g. `PUT /ai-agents/tools/get_weather`; absent for a forget. */
  call?: string;
  ms: number;
  retries: number;
  /** An interrupted create had made this agent; it was adopted (PATCHed) instead of created again. */
  adopted?: boolean;
  /** A delete found the resource already gone from the server (a 404, or the refresh saw it), or a forget of what the refresh saw gone. */
  gone?: boolean;
  /** An update planned as a replacement (-/+): a new resource made, the old one deleted. */
  replaced?: boolean;
  /** What a change made in several steps did (a website's replacement: `crawled`, `processed`, `old deleted`). */
  steps?: string[];
}

export interface ApplyFailure {
  call: string;
  /** HTTP status, or 0 when no answer arrived. */
  status: number;
  code: string;
  message: string;
  attempts: number;
  /** A create was sent but its outcome is unknown: a duplicate may exist on the server (always false for a delete). */
  maybeCreated: boolean;
}

export interface FailedItem extends ApplyEventBase {
  failure: ApplyFailure;
  /**
   * What the change made on the server before it failed (a website scraped, its URLs not
   * processed), recorded in the state under this id so that the next apply finishes it.
   */
  madeRemoteId?: string;
  /** The resource the change replaces, still on the server: kept in the state at its own address with a pending delete. */
  superseded?: { address: string; remoteId: string };
}

export interface NotAttemptedItem extends ApplyEventBase {
  /** Why it was not attempted: the apply stopped, or a tool it needs failed. */
  reason: string;
}

export type NotifyOutcome =
  | { status: 'sent'; messageId: string; muid: string }
  | { status: 'failed'; muid: string; failure: ApplyFailure }
  | { status: 'skipped'; reason: 'not-configured' | 'nothing-changed' | 'apply-failed' | 'interrupted' };

export interface ApplyCounts {
  created: number;
  updated: number;
  deleted: number;
  forgotten: number;
  /** Replacements (-/+), counted apart from `updated`; absent when none. */
  replaced?: number;
  /** Creates an interrupted earlier apply had already made: found on the server and adopted, not made again. */
  adopted?: number;
}

export interface ApplyResult {
  environment: string;
  /** The plan was made with --prune, so the summary counts deletions too. */
  prune: boolean;
  /** True when every change of the plan was carried out (a failed notify does not change this). */
  ok: boolean;
  counts: ApplyCounts;
  done: DoneItem[];
  failed: FailedItem[];
  notAttempted: NotAttemptedItem[];
  notify: NotifyOutcome;
  /** Total changes in the plan (no-ops excluded). */
  total: number;
  /** The run was asked to stop (SIGINT/SIGTERM) before it finished starting every change. */
  interrupted?: boolean;
  /** State entries moved to a new address (`moved:`); absent when none. */
  moved?: { from: string; to: string }[];
  /**
   * The journal could not be written (a full disk): the run stopped, and these changes were made
   * on the server but are not recorded. A create among them stays pending (adopted next time); an
   * update is sent again, harmlessly.
   */
  unrecorded?: { items: DoneItem[]; reason: string };
  /** Every result is in the journal, but the state file could not be rewritten (set by the CLI). */
  stateNotWritten?: string;
  /** Resources the refresh could not read, so nothing was planned or done for them: the apply is not ok. */
  unreadable?: UnreadableResource[];
}
