// A knowledge-base file's manifest entry (docs/spec/manifest.md#files): `file:` names a local file
// (relative to the manifest file that names it), uploaded as it is. The loader reads only its size
// and SHA-256, as a stream (io/manifest/local-files.ts); the spec is what the state keeps of it.
import * as z from 'zod/mini';
import { described } from '../../zod.js';
import type { KindEntry, LocalFile, LocalFileRule } from '../entry.js';
import { ADDRESS_KEY_PATTERN, addressKey, resourceEnvironments } from '../schema-parts.js';

/** The reference's limit (properties-and-constraints: 50 MB per file). */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

/** The reference's types (PDF, TXT, DOCX, CSV, MD), by extension, and the MIME type each is sent as. */
export const FILE_TYPES: Readonly<Record<string, string>> = {
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.csv': 'text/csv',
  '.md': 'text/markdown',
};

export const fileSchema = z.lazy(() =>
  described(
    z.strictObject({
      file: described(z.string(), 'The local file to upload (PDF, TXT, DOCX, CSV or MD, at most 50 MB), relative to the manifest file that names it. A change of its content is a replacement.'),
      environments: resourceEnvironments,
    }),
    'A file uploaded to the knowledge base. Agent Builder agents name it as file.<key> in knowledge:.',
  ),
);

export type ManifestFile = z.output<typeof fileSchema>;

/**
 * What the state keeps of an uploaded file: its name on the server, the MIME type it was sent as,
 * its size and its SHA-256 (hex). Where it lies locally is not kept: moving the file changes nothing.
 */
export interface FileSpec {
  fileName: string;
  mimeType: string;
  bytes: number;
  digest: string;
}

/** `kb/handbook.pdf` → `.pdf` (lower-cased); '' without an extension. */
export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot).toLowerCase();
}

function fileProblem(file: LocalFile): string | undefined {
  if (FILE_TYPES[extensionOf(file.name)] === undefined) {
    return `${JSON.stringify(file.written)} is not a type the knowledge base takes: PDF, TXT, DOCX, CSV or MD (${Object.keys(FILE_TYPES).join(', ')})`;
  }
  if (file.bytes === 0) return `${JSON.stringify(file.written)} is empty; an upload needs at least one byte`;
  return undefined;
}

const fileRule: LocalFileRule<FileSpec> = {
  field: 'file',
  read: 'digest',
  maxBytes: MAX_FILE_BYTES,
  problem: fileProblem,
  fill: (spec, file) => ({ ...spec, fileName: file.name, mimeType: FILE_TYPES[extensionOf(file.name)] ?? '', bytes: file.bytes, digest: file.digest ?? '' }),
};

export const fileManifest: KindEntry<ManifestFile, FileSpec, readonly ['knowledgeBase', 'files']> = {
  section: ['knowledgeBase', 'files'],
  keyPattern: ADDRESS_KEY_PATTERN,
  keySchema: addressKey,
  schema: fileSchema,
  // Filled from the file itself (fileRule.fill); without it (a file that could not be read) the
  // manifest does not resolve, so this is never planned.
  build: (entry) => ({ fileName: entry.file.slice(entry.file.lastIndexOf('/') + 1), mimeType: FILE_TYPES[extensionOf(entry.file)] ?? '', bytes: 0, digest: '' }),
  localFile: fileRule,
};
