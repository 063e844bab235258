// A knowledge-base text entry's manifest entry (docs/spec/knowledge-base.md#text-entries): a title
// and its text, written inline (`text:`) or kept in a local file (`file: kb/refunds.md`, read as
// UTF-8 by io/manifest/local-files.ts). The reference's limits (title ≤ 500, text ≤ 5,000
// characters) are counted as the server's maxLength counts them: JavaScript string length (UTF-16
// code units), of the text as it is sent. The file's path is not part of the spec: moving the file
// with the same content changes nothing.
import * as z from 'zod/mini';
import { described } from '../../zod.js';
import type { KindEntry, LocalFile } from '../entry.js';
import { ADDRESS_KEY_PATTERN, addressKey, isObjectPayload, resourceEnvironments } from '../schema-parts.js';

/** CreateTextDetailDto's maxLength of `title`. */
export const TITLE_MAX_CHARS = 500;
/** CreateTextDetailDto's maxLength of `text`. */
export const TEXT_MAX_CHARS = 5000;
/**
 * A file larger than this is refused from its size alone, before it is read: 5,000 characters are
 * at most 15,000 bytes of UTF-8 (3 a UTF-16 unit), so anything past 1 MiB is far over the limit,
 * and reading it would only cost memory.
 */
export const TEXT_FILE_MAX_BYTES = 1024 * 1024;

const count = (n: number): string => n.toLocaleString('en-US');

/** Why a string is not 1..max characters as the server counts them, or undefined. */
export function lengthProblem(what: string, value: string, max: number, holder: string): string | undefined {
  if (value.length === 0) return `${what} is empty; ${holder} needs at least 1 character`;
  if (value.length > max) return `${what} is ${count(value.length)} characters; ${holder} holds at most ${count(max)}`;
  return undefined;
}

/** Built on first use: most manifests have no text entries. */
export const textSchema = z.lazy(() =>
  described(
    z
      .strictObject({
        title: described(z.string(), `The entry's title (1 to ${count(TITLE_MAX_CHARS)} characters). What import and conflicts match on.`),
        text: described(z.optional(z.string()), `The text itself (1 to ${count(TEXT_MAX_CHARS)} characters, counted as JavaScript string length). Give text or file, not both.`),
        file: described(
          z.optional(z.string()),
          `A UTF-8 file whose content is the text, relative to the manifest file that names it (e.g. kb/refunds.md). The same ${count(TEXT_MAX_CHARS)}-character limit; no splitting.`,
        ),
        environments: resourceEnvironments,
      })
      .check(
        z.superRefine(
          (entry, ctx) => {
            const title: unknown = entry.title;
            const titleProblem = typeof title === 'string' ? lengthProblem('title', title, TITLE_MAX_CHARS, 'a text entry title') : undefined;
            if (titleProblem !== undefined) ctx.addIssue({ code: 'custom', path: ['title'], message: titleProblem });
            const text: unknown = entry.text;
            if (text !== undefined && entry.file !== undefined) {
              ctx.addIssue({ code: 'custom', path: ['file'], message: 'give text or file, not both (file: a local file whose content is the text)' });
            } else if (text === undefined && entry.file === undefined) {
              ctx.addIssue({ code: 'custom', path: [], message: 'a text entry needs text (inline) or file (a local file whose content is the text)' });
            } else if (typeof text === 'string') {
              const problem = lengthProblem('text', text, TEXT_MAX_CHARS, 'a text entry');
              if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['text'], message: problem });
            }
          },
          { when: isObjectPayload },
        ),
      ),
    'A knowledge-base text entry: a title and its text, inline or from a local file. The map key is its address in this manifest and is never sent.',
  ),
);

export type ManifestText = z.output<typeof textSchema>;

/** What POST/PATCH `…/knowledge-base/text` sends: the title and the text (a file's content, when the entry names one). */
export interface TextSpec {
  title: string;
  text: string;
}

export const textManifest: KindEntry<ManifestText, TextSpec, readonly ['knowledgeBase', 'texts']> = {
  section: ['knowledgeBase', 'texts'],
  keyPattern: ADDRESS_KEY_PATTERN,
  keySchema: addressKey,
  schema: textSchema,
  // With `file:`, the text is the file's content (localFile.fill); until it is read, empty.
  build: (entry) => ({ title: entry.title, text: entry.text ?? '' }),
  localFile: {
    field: 'file',
    read: 'text',
    maxBytes: TEXT_FILE_MAX_BYTES,
    problem: (file: LocalFile) => lengthProblem(file.written, file.text ?? '', TEXT_MAX_CHARS, 'a text entry'),
    fill: (spec, file) => ({ ...spec, text: file.text ?? '' }),
  },
};
