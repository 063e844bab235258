// What `agentsync init` writes: a small manifest that validates as written and needs no variables.

export const GITIGNORE_LINE = '.agentsync/*.lock';
export const SCHEMA_FILE = 'agentsync.schema.json';

export const STARTER_MANIFEST = `# yaml-language-server: $schema=./${SCHEMA_FILE}
# agentsync manifest. Check it with \`agentsync validate\`, preview with \`agentsync plan\`,
# and push it with \`agentsync apply\`. Reference: README.md, "The manifest".
version: 1

environments:
  # The local emulator (\`agentsync emulator\`). Add your real apps beside it, e.g.:
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
