// What `agentsync init` writes: a small manifest that validates as written and needs no variables.
import { maxOf } from './arrays.js';

export const GITIGNORE_LINE = '.agentsync/*.lock';
export const SCHEMA_FILE = 'agentsync.schema.json';

export const STARTER_MANIFEST = `# yaml-language-server: $schema=./${SCHEMA_FILE}
# agentsync manifest. Check it with \`npx --no-install agentsync validate\`, preview with
# \`npx --no-install agentsync plan\`, and push it with \`npx --no-install agentsync apply\`.
# Reference: README.md, "The manifest".
version: 1

environments:
  # The local emulator (\`npx --no-install agentsync emulator\`; its API key is local-dev-key).
  # Add your real apps beside it, e.g.:
  # production:
  #   appId: your-app-id
  #   region: us            # us | eu | in
  #   vars: { model: gpt-4o }
  local:
    appId: local
    region: us
    baseUrl: http://127.0.0.1:4010/v3
    vars:
      model: gpt-4o

tools:
  # The key is the tool's name: letters, digits, _, $ and -, not starting with a digit.
  # A tool that CometChat executes (no doNotExecute: true) is an action: agents list it under actions.
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
  # The key is this agent's address in the manifest; it is never sent to CometChat.
  assistant:
    name: Assistant
    integrationType: llm
    integrateWith: \${var.model}
    instruction: You answer questions about the weather.
    actions: [get_weather]   # it executes, so it is an action; doNotExecute: true tools go in tools
    suggestions: [What is the weather in Paris?]
`;

/** The emulator's default key (docs/spec/emulator.md#options), named so the local loop can be pasted as it is. */
export const EMULATOR_API_KEY = 'local-dev-key';

/**
 * What to run after init, as lines that work when pasted: `npx` finds the project's agentsync
 * whether or not it is on the PATH, and `cd` comes first when init wrote into another folder.
 */
export interface NextStepsContext {
  /** How the user runs agentsync: `agentsync` for the single-file binary, else the vendored package's bin. */
  command: string;
  /** init kept an agents.yaml that was already there: its environments are not the starter's. */
  manifestKept: boolean;
}

export function starterNextSteps(cdInto: string | undefined, context: NextStepsContext): string {
  const run = context.command;
  const steps: [string, string][] = [
    ...(cdInto === undefined ? [] : ([[`cd ${shellWord(cdInto)}`, '']] as [string, string][])),
    [`${run} validate`, 'check the manifest (no network)'],
    ...((context.manifestKept
      ? [[`${run} plan`, 'what apply would change in the environment your agents.yaml defines']]
      : [
          [`${run} emulator`, 'in a second terminal, in this folder: a local CometChat API'],
          [`COMETCHAT_API_KEY=${EMULATOR_API_KEY} ${run} apply -e local`, 'shows the plan, asks, applies'],
        ]) as [string, string][]),
  ];
  const width = maxOf(steps.map(([command]) => command.length));
  const lines = steps.map(([command, note]) => (note === '' ? `  ${command}` : `  ${command.padEnd(width)}   # ${note}`));
  return `\nNext steps:\n${lines.join('\n')}\n`;
}

function shellWord(word: string): string {
  return /^[\w./@%+=:,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
