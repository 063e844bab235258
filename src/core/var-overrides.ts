// `--var NAME=VALUE` and `--var-file FILE` (Terraform's habit): values that replace the selected
// environment's `vars` for one run. The file is applied first, then each --var in order, so the
// command line wins, as in Terraform.
import { UserError } from './errors.js';
import { parseYamlMap, type YamlMapShape } from './parse.js';
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

const VAR_FILE_SHAPE: YamlMapShape = {
  notMap: (kind) => `a var file must be a map of NAME: value, like an environment's vars, not ${kind}`,
};

/**
 * A YAML map of NAME: value (text, number, boolean, list or map), as `vars` holds. Read with the
 * manifest's own walk, so an alias bomb, deep nesting or a duplicate key is refused the same way.
 */
export function parseVarFile(file: string, text: string): VarOverrides {
  const parsed = parseYamlMap(file, text, VAR_FILE_SHAPE);
  const error = parsed.diagnostics.find((d) => d.severity === 'error');
  if (error !== undefined) throw new UserError('usage', `--var-file ${file}:${error.line}:${error.column}: ${error.message}`);
  const value = parsed.value ?? {};
  const out: VarOverrides = {};
  for (const [name, member] of Object.entries(value)) {
    checkName(name, `--var-file ${file}:`);
    const checked = varValueSchema.safeParse(member);
    if (!checked.success) throw new UserError('usage', `--var-file ${file}: ${name} must be text, a number, a boolean, a list or a map`);
    out[name] = checked.data;
  }
  return out;
}

function checkName(name: string, where: string): void {
  if (!VAR_NAME.test(name) || name === '__proto__') throw new UserError('usage', `${where} "${name}" is not a var name (letters, digits, _ and -, not starting with a digit)`);
}
