// `agentsync diff --json` (docs/spec/commands.md#diff-json): the comparison as one document. The
// library's diff() returns the same object.
import type { EnvironmentsDiff } from '../core/env-diff/types.js';
import { jsonDocument } from './json-document.js';

/** Raised when the document changes in a way a reader must know about. */
export const DIFF_FORMAT_VERSION = 1;

export type DiffJson = { formatVersion: typeof DIFF_FORMAT_VERSION } & EnvironmentsDiff;

export function diffToJson(diff: EnvironmentsDiff): DiffJson {
  return { formatVersion: DIFF_FORMAT_VERSION, ...diff };
}

/** `diff --json`, as printed. */
export function renderDiffJson(diff: EnvironmentsDiff): string {
  return jsonDocument(diffToJson(diff));
}
