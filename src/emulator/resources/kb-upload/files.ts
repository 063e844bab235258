// The initiate body (../shared/reference/cometchat-kb-text-files.md §3, 3.1): `{files: [{fileName,
// mimeType, fileSize}]}`. The properties page allows PDF, TXT, DOCX, CSV and MD up to 50 MB; the
// emulator checks both at initiate (the reference does not say when a server checks them; the
// earliest is the cautious reading), by extension and by MIME type, and takes 1 to 10 files a call
// (the dashboard's batch size; the API states none).
import type { KbUploadFileDescriptor } from '../../../core/agent-builder-wire.js';
import type { JsonObject } from '../../../core/api-types.js';
import { badRequest } from '../../errors.js';
import { isPlainObject, rejectUnknownKeys } from '../../validate.js';

export const MAX_FILE_BYTES = 50 * 1024 * 1024;
export const MAX_FILES_PER_INITIATE = 10;

/** Extension → the one MIME type a file with it may be declared as. */
const ALLOWED_TYPES: Readonly<Record<string, string>> = {
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};
const BODY_KEYS = new Set(['files']);
const FILE_KEYS = new Set(['fileName', 'mimeType', 'fileSize']);

export function parseInitiateBody(body: JsonObject): KbUploadFileDescriptor[] {
  rejectUnknownKeys(body, BODY_KEYS, '');
  const files = body.files;
  if (files === undefined || files === null) throw badRequest("'files' is required: an array of {fileName, mimeType, fileSize}.");
  if (!Array.isArray(files)) throw badRequest("'files' must be an array of {fileName, mimeType, fileSize}.");
  if (files.length < 1 || files.length > MAX_FILES_PER_INITIATE) throw badRequest(`'files' must hold 1 to ${MAX_FILES_PER_INITIATE} files; it has ${files.length}.`);
  return files.map((file, index) => parseFile(file, `files[${index}]`));
}

function parseFile(value: JsonObject[string], where: string): KbUploadFileDescriptor {
  if (!isPlainObject(value)) throw badRequest(`'${where}' must be an object {fileName, mimeType, fileSize}.`);
  rejectUnknownKeys(value, FILE_KEYS, `${where}.`);
  const { fileName, mimeType, fileSize } = value;
  if (typeof fileName !== 'string' || fileName.trim() === '') throw badRequest(`'${where}.fileName' must be a non-empty string.`);
  if (/[/\\]/.test(fileName)) throw badRequest(`'${where}.fileName' "${fileName}" must be a file name, without a folder.`);
  const dot = fileName.lastIndexOf('.');
  const extension = dot < 0 ? '' : fileName.slice(dot).toLowerCase();
  const expected = ALLOWED_TYPES[extension];
  if (expected === undefined) throw badRequest(`${where} "${fileName}": the file type must be one of ${Object.keys(ALLOWED_TYPES).join(', ')}.`);
  if (mimeType !== expected) throw badRequest(`${where} "${fileName}": 'mimeType' must be "${expected}" for a ${extension} file; got ${JSON.stringify(mimeType ?? null)}.`);
  if (typeof fileSize !== 'number' || !Number.isInteger(fileSize) || fileSize < 1 || fileSize > MAX_FILE_BYTES) {
    throw badRequest(`${where} "${fileName}": 'fileSize' must be a whole number of bytes from 1 to ${MAX_FILE_BYTES} (50 MB); got ${JSON.stringify(fileSize ?? null)}.`);
  }
  return { fileName, mimeType: expected, fileSize };
}
