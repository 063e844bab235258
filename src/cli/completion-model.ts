// What shell completion needs to know, read from the commander program itself, so a new command
// or flag is completed the day it is added.
import type { Argument, Command, Option } from 'commander';
import { PLAN_FORMATS } from './plan-output.js';
import type { CompletionCommand, CompletionOption } from '../render/completion.js';

export type { CompletionCommand } from '../render/completion.js';

/** Flags whose values commander does not list as choices, but which have a fixed set. */
const KNOWN_VALUES: Readonly<Record<string, readonly string[]>> = { '--format': PLAN_FORMATS };
const PATH_VALUE = /<(path|file|dir|file\.json|path\|url)>/;
const PATH_ARGUMENTS = new Set(['planfile', 'files', 'dir']);

export function completionModel(program: Command): CompletionCommand {
  return commandModel(program);
}

function commandModel(cmd: Command): CompletionCommand {
  const args: readonly Argument[] = cmd.registeredArguments;
  const first = args[0];
  const options = cmd.options.filter((o) => !o.hidden).map(optionModel);
  options.push({ short: '-h', long: '--help', description: 'display help', takesValue: false, files: false });
  return {
    name: cmd.name(),
    description: cmd.description(),
    options,
    subcommands: cmd.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden).map(commandModel),
    ...(first?.argChoices ? { argumentValues: first.argChoices } : {}),
    fileArguments: args.some((a) => PATH_ARGUMENTS.has(a.name())),
  };
}

function optionModel(option: Option): CompletionOption {
  const takesValue = option.required || option.optional;
  const values = option.argChoices ?? KNOWN_VALUES[option.long ?? ''];
  return {
    ...(option.short ? { short: option.short } : {}),
    long: option.long ?? option.flags,
    description: option.description,
    takesValue,
    ...(takesValue && values ? { values } : {}),
    files: takesValue && PATH_VALUE.test(option.flags),
  };
}
