// The words that name a top-level command, for the bin's code cache (io/runtime/code-cache.ts), which keeps
// one cache per command. A fixed list, so that a typo or an option's value (`-e staging plan`)
// never names a cache file of its own: anything else shares the one cache named `other`. The bin
// reads this list before the CLI is loaded, so it cannot ask commander. test/cli/code-cache.test.ts
// checks that every registered command is here.
export const COMMAND_WORDS: readonly string[] = [
  'apply',
  'completion',
  'emulator',
  'export',
  'fmt',
  'graph',
  'help',
  'import',
  'init',
  'kb',
  'lint',
  'plan',
  'schema',
  'send',
  'show',
  'state',
  'validate',
];
