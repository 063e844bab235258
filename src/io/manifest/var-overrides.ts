// Reads --var-file and combines it with --var (core/var-overrides.ts) into one set of overrides.
// The file is bounded like the manifest: at most as large, UTF-8, parsed by the same walk.
import { parseVarFile, parseVarFlags, type VarOverrides } from '../../core/var-overrides.js';
import { readBoundedText } from '../files/read-bounded-text.js';

/** As large as a manifest may be: vars hold values a manifest would otherwise hold. */
export const MAX_VAR_FILE_BYTES = 10 * 1024 * 1024;

export interface VarOptions {
  var?: string[];
  varFile?: string;
}

/** undefined when neither flag was given, so nothing downstream changes. */
/** `cwd`: the folder a relative --var-file is in (default: the process's). */
export async function readVarOverrides(options: VarOptions, cwd?: string): Promise<VarOverrides | undefined> {
  if (options.varFile === undefined && (options.var ?? []).length === 0) return undefined;
  let fromFile: VarOverrides = {};
  if (options.varFile !== undefined) {
    const file = options.varFile;
    const text = await readBoundedText(file, { maxBytes: MAX_VAR_FILE_BYTES, label: `--var-file ${file}`, what: 'a var file', ...(cwd === undefined ? {} : { cwd }) });
    fromFile = parseVarFile(file, text);
  }
  return { ...fromFile, ...parseVarFlags(options.var ?? []) };
}
