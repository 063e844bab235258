// The `--json` documents of the commands whose output is small: what each prints on success.
// The larger ones have views of their own (plan-json.ts, diff-json.ts, multi-env.ts, apply-summary.ts).
import type { ExportedManifest } from '../core/export-manifest.js';
import { jsonDocument, jsonLine } from './json-document.js';

/** `export --split DIR --json`. */
export function renderExportFolderJson(out: string, files: readonly string[], removed: readonly string[], counts: ExportedManifest['counts'], secrets: readonly string[]): string {
  return jsonDocument({ out, files, removed, counts, secrets });
}

/** `export [--out FILE] --json`: without --out the manifest itself is part of the document. */
export function renderExportManifestJson(out: string | undefined, counts: ExportedManifest['counts'], secrets: readonly string[], manifest: string): string {
  return jsonDocument({ out: out ?? null, counts, secrets, ...(out === undefined ? { manifest } : {}) });
}

/** `import --json`: `resources` are `address (remote id)` lines, `notFound` the addresses the server lacks. */
export function renderImportJson(resources: readonly string[], notFound: readonly string[]): string {
  return jsonDocument({ imported: resources.length, resources, notFound });
}

export interface SentMessage {
  id: string;
  muid: string | null;
  receiver: string;
  receiverType: string;
}

/** `send --json`: one line, as a script reads the id of what it sent. */
export function renderSentJson(sent: SentMessage): string {
  return jsonLine(sent);
}

/** `apply --json` when the plan had nothing to change. */
export function renderNoChangesJson(environment: string, summary: unknown): string {
  return jsonLine({ ok: true, environment, summary });
}

/** `state show ADDRESS --json`: the entry's record, and the change still pending on it if any. */
export function renderStateEntryJson(entry: { address: string; resource?: object; pending?: unknown }): string {
  return jsonDocument({ address: entry.address, ...(entry.resource ?? {}), ...(entry.pending ? { pending: entry.pending } : {}) });
}

/** `state rm --json`. */
export function renderForgottenJson(removed: unknown): string {
  return jsonDocument({ removed });
}

/** `state mv --json`. */
export function renderMovedJson(moved: unknown): string {
  return jsonDocument({ moved });
}

/** `state migrate --json`. */
export function renderMigratedJson(migrated: unknown): string {
  return jsonDocument({ formatVersion: 1, migrated });
}

/** `schema`, and the agentsync.schema.json that `init` writes. */
export function renderJsonSchema(schema: unknown): string {
  return jsonDocument(schema);
}
