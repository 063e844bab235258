// Terraform's flags have one dash (`-auto-approve`, `-target=…`, `-var`, `-out`); ours have two.
// Commander would read `-auto-approve` as the short flags -a -u -t …, and answer with a puzzling
// "unknown option". A word that is one of our long options with a single dash is answered instead
// with the flag the user meant.
import type { Command } from 'commander';
import { UserError } from '../core/errors.js';

/** `-name` or `-name=value`, where the name is at least two letters (so never a short flag like -e). */
const SINGLE_DASH_LONG = /^-([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(=.*)?$/;

export interface ProgramFlags {
  /** Every long option name of the program and its commands, e.g. `auto-approve`. */
  longNames: Set<string>;
  /** The flags that take a value (`--text`, `-f`): the word after one is a value, never a flag. */
  takingValue: Set<string>;
}

export function programFlags(program: Command): ProgramFlags {
  const flags: ProgramFlags = { longNames: new Set(), takingValue: new Set() };
  const visit = (cmd: Command): void => {
    for (const option of cmd.options) {
      if (option.long) flags.longNames.add(option.long.replace(/^--(no-)?/, ''));
      if (option.required || option.optional) for (const flag of [option.long, option.short]) if (flag) flags.takingValue.add(flag);
    }
    cmd.commands.forEach(visit);
  };
  visit(program);
  return flags;
}

/** Whether any argument (before `--`) has the shape of a single-dash long flag; only then does the check need the program's flags. */
export function hasSingleDashLongWord(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    const name = SINGLE_DASH_LONG.exec(arg)?.[1];
    if (name !== undefined && name.length >= 2) return true;
  }
  return false;
}

/** Throws a one-line usage error for the first single-dash long flag among the arguments. */
export function refuseSingleDashLongFlags(args: readonly string[], { longNames, takingValue }: ProgramFlags): void {
  for (const [i, arg] of args.entries()) {
    if (arg === '--') return;
    if (i > 0 && takingValue.has(args[i - 1] ?? '')) continue;
    const match = SINGLE_DASH_LONG.exec(arg);
    const name = match?.[1];
    if (name === undefined || name.length < 2 || !longNames.has(name)) continue;
    const flag = arg.split('=')[0] ?? arg;
    throw new UserError('usage', `${flag} is not an option: agentsync's long options take two dashes; did you mean -${arg}?`);
  }
}
