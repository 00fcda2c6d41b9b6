// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  // The layers (docs/architecture.md). The pure safety logic and the contracts
  // do no I/O and know no adapter; only the composition root (src/runtime) and
  // the command line (src/cli) see the whole graph. Import cycles are checked
  // by `npm run lint:cycles`.
  {
    files: ['src/safety/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...ioPackages(),
            {
              regex: '^\\.\\./\\.\\./(?!safety/|errors\\.js$)',
              message: 'src/safety is pure: it imports only src/safety and src/errors.ts',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...ioPackages(),
            {
              regex: '^\\.\\./(?!safety/|errors\\.js$)',
              message: 'src/contracts imports only src/safety and src/errors.ts',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/safety/**', 'src/contracts/**', 'src/runtime/**', 'src/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(runtime|cli)/',
              message: 'only src/cli imports the composition root; adapters are wired there, not by each other',
            },
          ],
        },
      ],
    },
  },
  // The review page's script runs in the browser (src/http/review-page/): its
  // own modules, the pure review rules, and only the types of the contracts,
  // whose code would bring zod into the page.
  {
    files: ['src/http/review-page/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\./|\\.\\./\\.\\./(contracts|safety/review)/)',
              message: 'the review page script imports its own modules, src/safety/review and the contracts types only',
            },
            {
              regex: '^\\.\\./\\.\\./contracts/',
              allowTypeImports: true,
              message: 'only types from the contracts: their code would bring zod into the page',
            },
          ],
        },
      ],
    },
  },
);

/** Packages that do I/O, which the pure layers must not import. */
function ioPackages() {
  return [
    {
      regex:
        '^(ioredis|bullmq|undici|@anthropic-ai/sdk|pino|prom-client)(/|$)|^node:(fs|net|http|https|http2|dns|child_process|worker_threads|cluster|dgram|tls)(/|$)',
      message: 'src/safety and src/contracts do no I/O; put this in an adapter',
    },
  ];
}
