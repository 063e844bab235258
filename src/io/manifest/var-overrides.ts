// Reads --var-file and combines it with --var (core/var-overrides.ts) into one set of overrides.
import { readFile } from 'node:fs/promises';
import { parseVarFile, parseVarFlags, type VarOverrides } from '../../core/var-overrides.js';
import { fileError } from '../files/file-errors.js';

export interface VarOptions {
  var?: string[];
  varFile?: string;
}

/** undefined when neither flag was given, so nothing downstream changes. */
export async function readVarOverrides(options: VarOptions): Promise<VarOverrides | undefined> {
  if (options.varFile === undefined && (options.var ?? []).length === 0) return undefined;
  let fromFile: VarOverrides = {};
  if (options.varFile !== undefined) {
    const text = await readFile(options.varFile, 'utf8').catch((err: unknown) => Promise.reject(fileError(err, options.varFile ?? '', 'read')));
    fromFile = parseVarFile(options.varFile, text);
  }
  return { ...fromFile, ...parseVarFlags(options.var ?? []) };
}
