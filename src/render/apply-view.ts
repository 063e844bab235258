// What `apply` prints, as two views chosen once (render/views.ts). A person reads the plan, the
// progress and the summary on stdout. A program reads one JSON document on stdout, the result; the
// plan it is asked to confirm, the progress and the warnings go to stderr.
import type { ExecutionWatch } from '../app/apply.js';
import type { ApplyResult } from '../core/apply-types.js';
import { changeCount, type Plan } from '../core/plan.js';
import { applyResultToJson, renderApplySummary } from './apply-summary.js';
import { renderNoChangesJson } from './command-json.js';
import { jsonDocument } from './json-document.js';
import { massRemovalJson, massRemovalWarning } from './mass-removal.js';
import { printableLine } from './plan-fields.js';
import { renderPlanText } from './plan-text.js';
import { createProgress } from './progress.js';
import type { TextStream, ViewKind, ViewStreams } from './views.js';

export interface ApplyView<S extends TextStream> {
  /** Where apply's question is asked. */
  readonly prompt: S;
  /** The plan once it is made; `asking`: a question about it follows. */
  planned(plan: Plan, asking: boolean): void;
  /** The progress of the changes as they run. */
  progress(plan: Plan): ExecutionWatch;
  /** Nothing to change: the plan's own last line said so. */
  noChanges(plan: Plan, result: ApplyResult): void;
  /** The summary, before the verdict on the result. */
  summary(result: ApplyResult): void;
  /** The result the run ends with when nothing failed (or it was interrupted). */
  result(plan: Plan, result: ApplyResult): void;
}

/** The result as the JSON documents carry it, also in a failure's `{"error"}` document. */
export function applyResultDocument(plan: Plan, result: ApplyResult): Record<string, unknown> {
  return { ...applyResultToJson(result), ...massRemovalJson(plan) };
}

export function applyView<S extends TextStream>(kind: ViewKind, streams: ViewStreams<S>): ApplyView<S> {
  return kind === 'json' ? jsonApplyView(streams) : humanApplyView(streams);
}

function humanApplyView<S extends TextStream>({ stdout, color }: ViewStreams<S>): ApplyView<S> {
  return {
    prompt: stdout,
    planned: (plan) => void stdout.write(renderPlanText(plan, { color })),
    progress(plan) {
      const watch = progressOn(stdout, color, plan);
      stdout.write('\n');
      return watch;
    },
    // The plan's own last line, "No changes. …", says it all; a line of zero counts would only repeat it.
    noChanges: () => undefined,
    summary: (result) => void stdout.write('\n' + renderApplySummary(result, { color })),
    result: () => undefined,
  };
}

function jsonApplyView<S extends TextStream>({ stdout, stderr }: ViewStreams<S>): ApplyView<S> {
  return {
    prompt: stderr,
    planned(plan, asking) {
      if (asking) stderr.write(renderPlanText(plan, { color: false }));
      else {
        // The JSON result carries it as `massRemoval`; a log still shows it.
        const warning = massRemovalWarning(plan);
        if (warning !== undefined) stderr.write(`Warning: ${printableLine(warning)}\n`);
      }
    },
    progress: (plan) => progressOn(stderr, false, plan),
    noChanges: (plan, result) => void stdout.write(renderNoChangesJson(plan.environment, result.counts)),
    summary: () => undefined,
    result: (plan, result) => void stdout.write(jsonDocument(applyResultDocument(plan, result))),
  };
}

function progressOn(out: TextStream, color: boolean, plan: Plan): ExecutionWatch {
  const progress = createProgress({
    tty: out.isTTY === true,
    color,
    total: changeCount(plan.summary),
    write: (text) => out.write(text),
    ...(out.isTTY && out.columns !== undefined ? { columns: out.columns } : {}),
  });
  return { onEvent: progress.onEvent, finish: () => progress.finish() };
}
