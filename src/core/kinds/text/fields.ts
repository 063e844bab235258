// A text entry's field facts (docs/spec/server.md#field-facts): both fields are required, always
// sent on a create, and a PATCH carries only the ones that changed.
import type { FieldTable } from '../fields.js';
import type { TextSpec } from './manifest.js';

export const TEXT_FIELDS: FieldTable<TextSpec> = {
  title: {},
  text: {},
};
