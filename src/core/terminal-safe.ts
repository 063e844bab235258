// Text from outside (a server's error message, a remote id, a manifest string) may hold control
// characters: ESC sequences clear the screen or retitle the window, CR overwrites a line, and C1
// codes (U+0080–U+009F) act as 8-bit escapes on some terminals. Before such text is printed, each
// control character is shown as a `\uXXXX` escape instead of being obeyed.

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_TAB_NEWLINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

const visible = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

// The GitHub Actions runner trims a log line's leading whitespace (.NET's, so Unicode spaces too)
// and obeys it when it then starts with `::` (`::add-mask::`, `::stop-commands::`, `::error …::`).
// A context line of an instruction's diff is indented, and so would become a command. Such a line
// starts with `\u003a:` instead, the same visible escape as a control character.
const COMMAND_START = /^([\s\u0085\u180e\u200b]*):(?=:)/gm;

function defuseCommands(text: string): string {
  return text.replace(COMMAND_START, '$1\\u003a');
}

/** Every C0 control (tab and newline included), DEL and every C1 control, as `\uXXXX`; never a workflow command. */
export function escapeControl(text: string): string {
  return defuseCommands(text.replace(CONTROL, visible));
}

/** As escapeControl, but tab and newline stay: for text printed as (possibly several) lines, none of them a command. */
export function escapeControlKeepLines(text: string): string {
  return defuseCommands(text.replace(CONTROL_BUT_TAB_NEWLINE, visible));
}

/**
 * One printable line of at most `maxLength` characters: runs of whitespace (newlines included)
 * become one space, the remaining controls are escaped, and a longer text is cut with `...`.
 */
export function oneSafeLine(text: string, maxLength = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  // Cut between code points: half a surrogate pair would print as garbage.
  const cut = flat.length > maxLength ? `${flat.slice(0, maxLength - 3).replace(/[\ud800-\udbff]$/, '')}...` : flat;
  return escapeControl(cut);
}
