// Turns what the operating system says about a file into one line a user can act on. A full
// disk, a read-only mount or a missing folder is the user's to fix, not a bug: it becomes a
// UserError naming the file (and the folder, where the folder is the problem). Codes that mean
// something else (EBADF, EINVAL, …) stay bugs and pass through unchanged.
import path from 'node:path';
import { UserError } from '../../core/errors.js';

export type FileVerb = 'read' | 'write';

/** The UserError for `err` on `file`, or `err` itself when it is not a file-system condition. */
export function fileError(err: unknown, file: string, verb: FileVerb): unknown {
  if (err instanceof UserError) return err;
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (typeof code !== 'string') return err;
  const message = describe(code, file, verb);
  return message === null ? err : new UserError('file_error', message, { file, errno: code });
}

function describe(code: string, file: string, verb: FileVerb): string | null {
  const dir = path.dirname(file);
  const cannot = `cannot ${verb} ${file}`;
  switch (code) {
    case 'ENOSPC':
      return `no space left on device while writing ${file}; free some space in ${dir} and run again`;
    case 'EDQUOT':
      return `disk quota exceeded while writing ${file}; free some space in ${dir} and run again`;
    case 'EROFS':
      return `${cannot}: the folder ${dir} is on a read-only file system`;
    case 'EACCES':
    case 'EPERM':
      return `${cannot}: permission denied (folder ${dir})`;
    case 'EISDIR':
      return `${cannot}: it is a directory`;
    case 'ENOTDIR':
      return `${cannot}: a part of the path ${dir} is not a folder`;
    case 'ENOENT':
      return verb === 'write' ? `${cannot}: the folder ${dir} does not exist` : `${cannot}: no such file`;
    case 'ELOOP':
      return `${cannot}: it is a symbolic link (or a loop of them), and agentsync does not follow links there`;
    case 'ENAMETOOLONG':
      return `${cannot}: the path is too long`;
    case 'EFBIG':
      return `${cannot}: the file would be too large for this file system`;
    case 'EIO':
      return `${cannot}: input/output error from the device holding ${dir}`;
    case 'EMFILE':
    case 'ENFILE':
      return `${cannot}: too many open files`;
    case 'ETXTBSY':
    case 'EBUSY':
      return `${cannot}: it is busy`;
    default:
      return null;
  }
}

/** Runs `fn`, turning a file-system error into the UserError for `file`. */
export async function onFile<T>(file: string, verb: FileVerb, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw fileError(err, file, verb);
  }
}
