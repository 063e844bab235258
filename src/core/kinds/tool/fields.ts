// The tool's field facts (docs/spec/server.md#field-facts). A tool's description and parameters
// live in the record's nested `tool` object; the reader looks there (tool.ts), the names are the
// same.
import type { ToolSpec } from '../../desired.js';
import type { FieldTable } from '../fields.js';

export const TOOL_FIELDS: FieldTable<ToolSpec> = {
  name: {},
  displayName: {},
  executionText: {},
  // A server record of a tool that is not executed may have no description at all; the manifest
  // says "" for that, and "" is what is sent.
  description: { default: () => '' },
  doNotExecute: { default: () => false },
  // The reference says a tool that is not executed has empty or absent parameters: none is sent.
  parameters: { default: () => ({}), sentWhen: (spec) => spec.doNotExecute !== true },
};
