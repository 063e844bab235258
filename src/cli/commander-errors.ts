// Commander's own usage errors, in the house style: one line (exit-codes.ts puts "Error:" before
// it), with the "did you mean" on the same line, for commands, flags and fixed-choice values alike.
import { closest } from '../core/suggest.js';

/** Flags people bring from other tools, which commander's spelling distance cannot guess. */
const HABITS: Record<string, string> = {
  '--yes': '--auto-approve',
  '-y': '--auto-approve',
  '--force': '--auto-approve',
  '--environment': '-e/--env',
  // Terraform, kubectl and npm habits: agentsync's dry run is its own command.
  '--dry-run': 'agentsync plan',
};

function habitFrom(message: string): string | undefined {
  const flag = /^unknown option '([^'=]+)/.exec(message)?.[1];
  if (flag === undefined) return undefined;
  if (Object.hasOwn(HABITS, flag)) return HABITS[flag];
  // A habit misspelled (--enviroment, --dryrun) is still that habit; short ones (-y) match too much.
  const near = closest(
    flag,
    Object.keys(HABITS).filter((habit) => habit.length > 5),
  );
  return near === undefined ? undefined : HABITS[near];
}

/** The message of commander's error text, its hint on the same line, ending in a newline. */
export function usageErrorText(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const [head = '', ...rest] = lines;
  let message = head.replace(/^error:\s*/i, '');
  const hint = rest.map((line) => /^\(Did you mean (.+)\?\)$/.exec(line)?.[1]).find((match) => match !== undefined);
  const choice = /'([^']*)' is invalid.*Allowed choices are (.+)\.$/.exec(message);
  const guess = hint ?? (choice ? closest(choice[1] ?? '', (choice[2] ?? '').split(', ')) : undefined) ?? habitFrom(message);
  if (guess !== undefined) message = `${message.replace(/\.$/, '')}; did you mean ${guess}?`;
  const others = rest.filter((line) => !/^\(Did you mean/.test(line));
  return [message, ...others].join('\n') + '\n';
}
