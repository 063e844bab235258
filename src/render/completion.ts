// Shell completion scripts for bash, zsh and fish, written from the program's own description of
// its commands and flags (cli/completion-model.ts): what they complete cannot drift from the CLI.
// Each script walks the words typed so far to find the command (skipping flag values), then offers
// that command's subcommands, flags, or the values of the flag just typed.

export interface CompletionOption {
  short?: string;
  long: string;
  description: string;
  takesValue: boolean;
  values?: readonly string[];
  files: boolean;
}

export interface CompletionCommand {
  name: string;
  description: string;
  options: CompletionOption[];
  subcommands: CompletionCommand[];
  argumentValues?: readonly string[];
  fileArguments: boolean;
}

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

interface Node {
  /** Words from the program to this command, e.g. ['state', 'list']; [] for the program. */
  path: string[];
  command: CompletionCommand;
}

function walk(command: CompletionCommand, path: string[] = []): Node[] {
  return [{ path, command }, ...command.subcommands.flatMap((sub) => walk(sub, [...path, sub.name]))];
}

/** A word inside single quotes, for any of the three shells. */
function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function flagsOf(option: CompletionOption): string[] {
  return option.short ? [option.short, option.long] : [option.long];
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}

export function renderCompletion(shell: CompletionShell, program: CompletionCommand): string {
  switch (shell) {
    case 'bash':
      return bashScript(program);
    case 'zsh':
      return zshScript(program);
    case 'fish':
      return fishScript(program);
    default: {
      const _exhaustive: never = shell;
      return _exhaustive;
    }
  }
}

/** `case` arms, shared by bash and zsh, that set what the command at "$1" offers. */
function infoArms(program: CompletionCommand, subsOf: (command: CompletionCommand) => string, optsOf: (command: CompletionCommand) => string): string[] {
  return walk(program).map(({ path, command }) => {
    const valueFlags = command.options.filter((o) => o.takesValue).flatMap(flagsOf);
    const args = command.argumentValues ? command.argumentValues.join(' ') : '';
    return [
      `    ${quote(path.join(' '))})`,
      `      subs=(${subsOf(command)})`,
      `      opts=(${optsOf(command)})`,
      `      valopts=(${valueFlags.join(' ')})`,
      `      argvals=(${args})`,
      `      argfiles=${command.fileArguments ? 1 : 0}`,
      '      ;;',
    ].join('\n');
  });
}

/** `case` arms for "command|flag" → the values of that flag. */
function valueArms(program: CompletionCommand, files: string, words: (values: readonly string[]) => string): string[] {
  const arms: string[] = [];
  for (const { path, command } of walk(program)) {
    for (const option of command.options.filter((o) => o.takesValue && (o.values || o.files))) {
      const pattern = flagsOf(option)
        .map((flag) => quote(`${path.join(' ')}|${flag}`))
        .join('|');
      arms.push(`    ${pattern}) ${option.values ? words(option.values) : files} ;;`);
    }
  }
  return arms;
}

function bashScript(program: CompletionCommand): string {
  const name = program.name;
  const fn = `_${name.replace(/\W/g, '_')}_completion`;
  return `# ${name} completion for bash. Load it in this shell with:  source <(${name} completion bash)
# or install it:  ${name} completion bash > ~/.local/share/bash-completion/completions/${name}
${fn}_info() {
  case "$1" in
${infoArms(
  program,
  (c) => c.subcommands.map((s) => s.name).join(' '),
  (c) => c.options.flatMap(flagsOf).join(' '),
).join('\n')}
    *) subs=(); opts=(); valopts=(); argvals=(); argfiles=0 ;;
  esac
}

${fn}() {
  local cur prev word cmdpath="" i
  local -a subs opts valopts argvals
  local argfiles
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  ${fn}_info ""
  for (( i = 1; i < COMP_CWORD; i++ )); do
    word="\${COMP_WORDS[i]}"
    if [[ " \${valopts[*]} " == *" $word "* ]]; then (( i++ )); continue; fi
    if [[ "$word" != -* && " \${subs[*]} " == *" $word "* ]]; then
      cmdpath="\${cmdpath:+$cmdpath }$word"
      ${fn}_info "$cmdpath"
    fi
  done
  COMPREPLY=()
  if [[ " \${valopts[*]} " == *" $prev "* ]]; then
    case "$cmdpath|$prev" in
${valueArms(program, 'compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") )', (values) => `COMPREPLY=( $(compgen -W ${quote(values.join(' '))} -- "$cur") )`).join('\n')}
    esac
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "\${opts[*]}" -- "$cur") )
  elif (( \${#subs[@]} > 0 )); then
    COMPREPLY=( $(compgen -W "\${subs[*]}" -- "$cur") )
  elif (( \${#argvals[@]} > 0 )); then
    COMPREPLY=( $(compgen -W "\${argvals[*]}" -- "$cur") )
  elif (( argfiles )); then
    compopt -o filenames 2>/dev/null
    COMPREPLY=( $(compgen -f -- "$cur") )
  fi
  return 0
}

complete -F ${fn} ${name}
`;
}

function zshScript(program: CompletionCommand): string {
  const name = program.name;
  const fn = `_${name.replace(/\W/g, '_')}`;
  const described = (entries: [string, string][]): string => entries.map(([word, text]) => quote(`${word}:${firstLine(text).replaceAll(':', '\\:')}`)).join(' ');
  return `#compdef ${name}
# ${name} completion for zsh. Load it in this shell (after compinit) with:  source <(${name} completion zsh)
# or install it as _${name} in a folder of your $fpath.
${fn}_info() {
  case "$1" in
${infoArms(
  program,
  (c) => described(c.subcommands.map((s) => [s.name, s.description])),
  (c) => described(c.options.flatMap((o) => flagsOf(o).map((flag): [string, string] => [flag, o.description]))),
).join('\n')}
    *) subs=(); opts=(); valopts=(); argvals=(); argfiles=0 ;;
  esac
}

${fn}() {
  local word cmdpath="" i
  local -a subs opts valopts argvals subnames
  local argfiles
  ${fn}_info ""
  for (( i = 2; i < CURRENT; i++ )); do
    word="\${words[i]}"
    if (( \${valopts[(Ie)$word]} )); then (( i++ )); continue; fi
    subnames=(\${subs%%:*})
    if [[ "$word" != -* ]] && (( \${subnames[(Ie)$word]} )); then
      cmdpath="\${cmdpath:+$cmdpath }$word"
      ${fn}_info "$cmdpath"
    fi
  done
  local prev="\${words[CURRENT-1]}"
  if (( \${valopts[(Ie)$prev]} )); then
    case "$cmdpath|$prev" in
${valueArms(program, '_files', (values) => `compadd -- ${values.map(quote).join(' ')}`).join('\n')}
    esac
    return 0
  fi
  if [[ "\${words[CURRENT]}" == -* ]]; then
    _describe -t options 'option' opts
  elif (( \${#subs} > 0 )); then
    _describe -t commands 'command' subs
  elif (( \${#argvals} > 0 )); then
    compadd -- \${argvals[@]}
  elif (( argfiles )); then
    _files
  fi
  return 0
}

if (( $+functions[compdef] )); then
  compdef ${fn} ${name}
fi
`;
}

function fishScript(program: CompletionCommand): string {
  const name = program.name;
  const lines = [
    `# ${name} completion for fish. Load it in this shell with:  ${name} completion fish | source`,
    `# or install it:  ${name} completion fish > ~/.config/fish/completions/${name}.fish`,
    `complete -c ${name} -f`,
  ];
  for (const { path, command } of walk(program)) {
    const subNames = command.subcommands.map((s) => s.name).join(' ');
    const at = path.length === 0 ? '__fish_use_subcommand' : path.map((word) => `__fish_seen_subcommand_from ${word}`).join('; and ');
    // The program's own flags are offered only before a command is typed; a command's until its subcommand is.
    const here = path.length === 0 ? at : subNames ? `${at}; and not __fish_seen_subcommand_from ${subNames}` : at;
    for (const sub of command.subcommands) lines.push(`complete -c ${name} -n ${quote(here)} -a ${sub.name} -d ${quote(firstLine(sub.description))}`);
    for (const option of command.options) {
      const parts = [`complete -c ${name} -n ${quote(here)}`];
      if (option.short) parts.push(`-s ${option.short.slice(1)}`);
      parts.push(`-l ${option.long.replace(/^--/, '')}`);
      if (option.values) parts.push(`-x -a ${quote(option.values.join(' '))}`);
      else if (option.files) parts.push('-r -F');
      else if (option.takesValue) parts.push('-x');
      parts.push(`-d ${quote(firstLine(option.description))}`);
      lines.push(parts.join(' '));
    }
    if (command.argumentValues) lines.push(`complete -c ${name} -n ${quote(here)} -a ${quote(command.argumentValues.join(' '))}`);
    if (command.fileArguments) lines.push(`complete -c ${name} -n ${quote(here)} -F`);
  }
  return lines.join('\n') + '\n';
}
