// How a `--json` run prints its one document (docs/spec: stdout carries exactly one JSON value).
// Every JSON agentsync prints is made here or by a view built on these, so the CLI never lays out
// JSON itself.

/** A document a person may read too: indented by two spaces, ending in a newline. */
export function jsonDocument(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** A short document on one line (an id, a verdict, an error), ending in a newline. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value) + '\n';
}

/** The `--json` form of an error (STYLE: `{"error": {"code", "message", …}}`), printed on stdout where the output would have been. */
export function renderJsonError(code: string, message: string, details: Readonly<Record<string, unknown>> = {}): string {
  return jsonLine({ error: { code, message, ...details } });
}

/** A value the user typed, quoted in a message so that spaces and control characters show: `"12 "`. */
export function quotedInput(text: string): string {
  return JSON.stringify(text);
}
