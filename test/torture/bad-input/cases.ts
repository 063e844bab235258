// The shape of one hostile input, and the small valid project every case starts from.

/** A small valid manifest; each manifest case breaks one thing in it. */
export const GOOD_MANIFEST = `version: 1
environments:
  local:
    appId: local
    region: us
    vars: { model: gpt-4o }
tools:
  get_weather:
    displayName: Get weather
    executionText: Checking the weather
    description: Current weather for a city
    parameters:
      type: object
      properties:
        city: { type: string, description: City name }
      required: [city]
agents:
  support:
    name: Support assistant
    integrationType: llm
    integrateWith: \${var.model}
    actions: [get_weather]
knowledgeBase:
  websites:
    docs:
      parentUniqueId: web_demo
      exclude: [url_7]
`;

export interface CaseFiles {
  /** Writes a file in the case's own directory and returns its path. */
  write(name: string, content: string | Uint8Array): string;
  /** The case's copy of the good manifest. */
  manifest: string;
  /** The case's copy of the state made by applying the good manifest. */
  state: string;
  path(name: string): string;
  /** Runs the CLI against the case's files; for setting up (e.g. `plan --out`), not for the assertion. */
  cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

export interface CaseRun {
  /** CLI arguments; the runner adds the emulator's env. */
  args: string[];
  /** The file the reason must point into with LINE:COL (manifests only). */
  lineColIn?: string;
  /** The reason must name this file (state and plan files). */
  names?: string;
  /** Extra environment variables for this run. */
  env?: Record<string, string>;
  /** How many error lines are legitimate (every validation error is reported). Default 1. */
  errors?: number;
}

export interface HostileCase {
  name: string;
  setup(files: CaseFiles): CaseRun | Promise<CaseRun>;
}

/** `apply --auto-approve` on the given manifest and the case's state: the strictest command to feed bad input. */
export function applyWith(files: CaseFiles, manifest: string, run: Partial<CaseRun> = {}): CaseRun {
  return { args: ['apply', '--auto-approve', '-f', manifest, '--state', files.state], lineColIn: manifest, ...run };
}

/** A manifest case: the good manifest with one edit, applied. */
export function editedManifest(name: string, edit: (good: string) => string, run: Partial<CaseRun> = {}): HostileCase {
  return {
    name,
    setup: (files) => {
      const text = edit(GOOD_MANIFEST);
      if (text === GOOD_MANIFEST) throw new Error(`case "${name}": the edit changed nothing`);
      return applyWith(files, files.write('agents.yaml', text), run);
    },
  };
}

/** Replaces exactly one occurrence, so a case cannot silently stop testing what it says. */
export function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`"${from}" must occur exactly once`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}
