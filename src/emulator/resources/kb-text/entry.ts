// A text entry's body rules and derived names (../shared/reference/cometchat-kb-text-files.md §1):
// `title` ≤ 500 and `text` ≤ 5,000 characters (JavaScript string lengths, as a NestJS validator
// counts), neither empty (the reference shows no minimum; an empty markdown file is refused, the
// cautious reading). The file name follows the title as the examples show: lower-cased, every run of
// characters other than a–z and 0–9 one hyphen, no hyphen at either end, `.md` ("text.md" when
// nothing is left); the S3 key is `<appId>/text/<first 8 of the id>/<fileName>`.
import type { JsonObject } from '../../../core/api-types.js';
import { badRequest } from '../../errors.js';
import { rejectUnknownKeys } from '../../validate.js';

export const TITLE_MAX_CHARS = 500;
export const TEXT_MAX_CHARS = 5000;
const BODY_KEYS = new Set(['title', 'text']);

export interface TextChanges {
  title?: string;
  text?: string;
}

/** A create needs both fields; an update at least one. */
export function parseTextBody(body: JsonObject, creating: boolean): TextChanges {
  rejectUnknownKeys(body, BODY_KEYS, '');
  if (!creating && body.title === undefined && body.text === undefined) throw badRequest("Send 'title', 'text' or both.");
  const changes: TextChanges = {};
  if (creating || body.title !== undefined) changes.title = boundedText(body.title, 'title', TITLE_MAX_CHARS);
  if (creating || body.text !== undefined) changes.text = boundedText(body.text, 'text', TEXT_MAX_CHARS);
  return changes;
}

function boundedText(value: JsonObject[string] | undefined, field: string, max: number): string {
  if (value === undefined || value === null) throw badRequest(`'${field}' is required.`);
  if (typeof value !== 'string') throw badRequest(`'${field}' must be a string.`);
  if (value.length === 0) throw badRequest(`'${field}' must be 1 to ${max} characters; it is empty.`);
  if (value.length > max) throw badRequest(`'${field}' must be 1 to ${max} characters; it has ${value.length}.`);
  return value;
}

export function textFileName(title: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug === '' ? 'text' : slug}.md`;
}

export function textS3Key(appId: string, uniqueId: string, fileName: string): string {
  return `${appId}/text/${uniqueId.slice(0, 8)}/${fileName}`;
}

/** What a server writing a markdown file may do to line ends (docs/spec/server.md): CRLF and lone CR become LF. */
export function normaliseLineEnds(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
