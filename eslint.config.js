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
    rules: { 'no-restricted-imports': ['error', { patterns: safetyPatterns() }] },
  },
  // Inside src/safety: reading text (src/safety/text: the normalised view,
  // confusables, invisible characters, words) is the layer that quoting and
  // the injection detector both read, and it reads neither; quoting uses the
  // detector, never the reverse. A file matched by two blocks gets only the
  // last one's no-restricted-imports, so each repeats the purity patterns.
  {
    files: ['src/safety/text/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...safetyPatterns(),
            {
              regex: '(^|/)(quoting|injection)(/|$)',
              message: 'src/safety/text is read by quoting and injection and imports neither',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/safety/injection/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...safetyPatterns(),
            {
              regex: '(^|/)quoting(/|$)',
              message:
                'quoting uses the injection detector, not the reverse; shared text reading is in src/safety/text',
            },
          ],
        },
      ],
    },
  },
  // The rule files sit a folder deeper (src/safety/injection/rules/): the same purity, counted from there.
  {
    files: ['src/safety/injection/rules/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...ioPackages(),
            {
              regex: '^\\.\\./\\.\\./\\.\\./(?!safety/|errors\\.js$)|^\\.\\./\\.\\./(?!\\.\\./|text/|injection/)',
              message: 'src/safety is pure: it imports only src/safety and src/errors.ts',
            },
            {
              regex: '(^|/)quoting(/|$)',
              message:
                'quoting uses the injection detector, not the reverse; shared text reading is in src/safety/text',
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

/** What keeps src/safety pure: no I/O, and nothing outside src/safety but src/errors.ts. */
function safetyPatterns() {
  return [
    ...ioPackages(),
    {
      regex: '^\\.\\./\\.\\./(?!safety/|errors\\.js$)',
      message: 'src/safety is pure: it imports only src/safety and src/errors.ts',
    },
  ];
}

/** Packages that do I/O, which the pure layers must not import. */
function ioPackages() {
  return [
    {
      regex:
        '^(ioredis|bullmq|bullmq-otel|undici|@anthropic-ai/sdk|@opentelemetry/[^/]+|pino|prom-client)(/|$)|^node:(fs|net|http|https|http2|dns|child_process|worker_threads|cluster|dgram|tls)(/|$)',
      message: 'src/safety and src/contracts do no I/O; put this in an adapter',
    },
  ];
}
