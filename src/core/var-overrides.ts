// `--var NAME=VALUE` and `--var-file FILE` (Terraform's habit): values that replace the selected
// environment's `vars` for one run. The file is applied first, then each --var in order, so the
// command line wins, as in Terraform.
import { LineCounter, parseDocument } from 'yaml';
import { UserError } from './errors.js';
import { varValueSchema, type VarValue } from './schema.js';

/** The names `${var.NAME}` can read. */
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export type VarOverrides = Record<string, VarValue>;

export function parseVarFlags(flags: readonly string[]): VarOverrides {
  const out: VarOverrides = {};
  for (const flag of flags) {
    const at = flag.indexOf('=');
    const name = at === -1 ? flag : flag.slice(0, at);
    if (at === -1) throw new UserError('usage', `--var needs NAME=VALUE (got "${flag}")`);
    checkName(name, '--var');
    out[name] = flag.slice(at + 1);
  }
  return out;
}

/** A YAML map of NAME: value (text, number, boolean, list or map), as `vars` holds. */
export function parseVarFile(file: string, text: string): VarOverrides {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    throw new UserError('usage', `--var-file ${file}:${line}:${col}: ${error.message.split('\n')[0] ?? 'not valid YAML'}`);
  }
  const value: unknown = doc.toJS({ maxAliasCount: 100 });
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new UserError('usage', `--var-file ${file} must be a map of NAME: value, like an environment's vars`);
  const out: VarOverrides = {};
  for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
    checkName(name, `--var-file ${file}:`);
    const parsed = varValueSchema.safeParse(member);
    if (!parsed.success) throw new UserError('usage', `--var-file ${file}: ${name} must be text, a number, a boolean, a list or a map`);
    out[name] = parsed.data;
  }
  return out;
}

function checkName(name: string, where: string): void {
  if (!VAR_NAME.test(name) || name === '__proto__') throw new UserError('usage', `${where} "${name}" is not a var name (letters, digits, _ and -, not starting with a digit)`);
}
