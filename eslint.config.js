// Small on purpose: the recommended sets, the rules that keep `any` out of src/, and the one that
// keeps the CLI a function (only the bin touches the process).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const PROCESS_MESSAGE = "Only the bin (src/cli/entry.ts, src/cli/main.ts) touches the process: take streams, env, cwd and the stop signal from the run's CliIo (src/cli/cli-io.ts), or do it in io/.";

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bench/out/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The CLI, the use cases, the renderers and the library run inside somebody else's process
    // (a test, a server using the library): the process is handed to them, never reached for.
    files: ['src/cli/**/*.ts', 'src/app/**/*.ts', 'src/render/**/*.ts', 'src/library/**/*.ts', 'src/index.ts'],
    ignores: ['src/cli/entry.ts', 'src/cli/main.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'process', message: PROCESS_MESSAGE }],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'node:process', message: PROCESS_MESSAGE },
            { name: 'process', message: PROCESS_MESSAGE },
          ],
        },
      ],
      'no-console': 'error',
    },
  },
  {
    // One argument per item overflows the stack past about 100,000 items (issue 40: 200,000 unknown
    // actions ended in "Maximum call stack size exceeded"); core/arrays.ts has the safe forms.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='push'] > SpreadElement", message: 'push(...items) overflows the stack on a long list: use appendAll (core/arrays.ts).' },
        { selector: "CallExpression[callee.object.name='Math'] > SpreadElement", message: 'Math.max(...values) overflows the stack on a long list: use maxOf (core/arrays.ts).' },
      ],
    },
  },
);
