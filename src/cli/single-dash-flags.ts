// Terraform's flags have one dash (`-auto-approve`, `-target=…`, `-var`, `-out`); ours have two.
// Commander would read `-auto-approve` as the short flags -a -u -t …, and answer with a puzzling
// "unknown option". A word that is one of our long options with a single dash is answered instead
// with the flag the user meant.
import type { Command } from 'commander';
import { UserError } from '../core/errors.js';

/** `-name` or `-name=value`, where the name is at least two letters (so never a short flag like -e). */
const SINGLE_DASH_LONG = /^-([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(=.*)?$/;

/** Every long option name of the program and its commands, e.g. `auto-approve`. */
export function longOptionNames(program: Command): Set<string> {
  const names = new Set<string>();
  const visit = (cmd: Command): void => {
    for (const option of cmd.options) if (option.long) names.add(option.long.replace(/^--(no-)?/, ''));
    cmd.commands.forEach(visit);
  };
  visit(program);
  return names;
}

/** Throws a one-line usage error for the first single-dash long flag among the arguments. */
export function refuseSingleDashLongFlags(args: readonly string[], longNames: ReadonlySet<string>): void {
  for (const arg of args) {
    if (arg === '--') return;
    const match = SINGLE_DASH_LONG.exec(arg);
    const name = match?.[1];
    if (name === undefined || name.length < 2 || !longNames.has(name)) continue;
    const flag = arg.split('=')[0] ?? arg;
    throw new UserError('usage', `${flag} is not an option: agentsync's long options take two dashes; did you mean -${arg}?`);
  }
}
