// The `code` of the chat API's error bodies that the emulator answers with. The emulator's own copy:
// the client never reads a code (it goes by the status), and a server double that shares the
// client's facts would move with them (docs/spec/emulator.md).
export const ERROR_CODES = {
  emptyApiKey: 'AUTH_ERR_EMPTY_APIKEY',
  apiKeyNotFound: 'AUTH_ERR_APIKEY_NOT_FOUND',
  badRequest: 'ERR_BAD_REQUEST',
  uidNotFound: 'ERR_UID_NOT_FOUND',
  guidNotFound: 'ERR_GUID_NOT_FOUND',
  agentNotFound: 'ERR_AGENT_NOT_FOUND',
  toolNotFound: 'ERR_TOOL_NOT_FOUND',
  kbNotFound: 'ERR_KB_NOT_FOUND',
  tooManyRequests: 'ERR_TOO_MANY_REQUESTS',
  apiNotFound: 'ERR_API_NOT_FOUND',
} as const;

/** A tool's name, as ToolDto's `name` pattern in the public reference gives it. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z_$][a-zA-Z0-9_$-]*$/;
