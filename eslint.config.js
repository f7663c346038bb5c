import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Architecture in lint: src/domain and src/contract are pure and shared; the page never reaches into the server;
// in the server, platform never imports a feature module, and neither imports the composition root (app.ts,
// server.ts); no import cycles in src; no file in src/server over 500 lines; only src/server/platform/config.ts reads
// process.env; outside the server, Lingui is set up only through setupPageI18n. src/server/lint-rules.test.ts shows
// each rule a file that breaks it.
const noEnv = {
  selector: "MemberExpression[object.name='process'][property.name='env']",
  message: 'Read settings through src/server/platform/config.ts (the only reader of process.env).',
};
// The pages' compiled catalogues read the counts setupPageI18n writes; a plain setupI18n would show none.
const pagesSayThroughPageI18n = {
  selector: "ImportDeclaration[source.value='@lingui/core'] > ImportSpecifier[imported.name='setupI18n']",
  message:
    "Say the pages' catalogues through setupPageI18n (src/i18n/page-i18n.ts): their plurals read the counts it writes.",
};
// Where setupI18n is right: setupPageI18n itself, its test, and messages compiled with Lingui's own plurals as the
// server compiles them (src/server/i18n/translator.ts).
const compilingTheirOwn = [
  'src/i18n/page-i18n.ts',
  'src/i18n/shown-counts.test.ts',
  'src/domain/testing/plan-words.ts',
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'bench/hello/dist/**',
      'data/**',
      'coverage/**',
      'bench/results/**',
      'node_modules/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.node.json', './tsconfig.client.json'],
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // Tests read JSON answers loosely and assert their shape with expect().
    files: ['tests/**/*.ts', '**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/server/platform/config.ts', 'src/server/**', ...compilingTheirOwn],
    rules: { 'no-restricted-syntax': ['error', noEnv, pagesSayThroughPageI18n] },
  },
  {
    files: ['src/server/**/*.{ts,tsx}', ...compilingTheirOwn],
    ignores: ['src/server/platform/config.ts'],
    rules: { 'no-restricted-syntax': ['error', noEnv] },
  },
  {
    // Import rules that need the imported file, not just the written specifier: imports are resolved the way
    // TypeScript's NodeNext does it ('./x.js' names ./x.ts), so a path written any way is judged by where it leads.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'], '.mjs': ['.mts', '.mjs'] },
        }),
      ],
    },
    rules: {
      // A cycle makes load order decide what is undefined at start, and ties two files into one: break it by moving
      // the shared piece (often a type or a constant) to the file or layer that owns it. The rule follows value
      // imports only (documented, no option): `import type` is erased from the build (verbatimModuleSyntax).
      // Packages are not followed (ignoreExternal): they are not ours, and PGlite's bundle overflows the parser.
      // No maxDepth: following every import added 5-10 s of CPU to a 60-70 s lint (2 cores, measured when added).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: 'src/server/platform',
              from: 'src/server/modules',
              message:
                'platform must not depend on a feature module: move the shared piece into platform or pass it in from app.ts.',
            },
            {
              target: 'src/server/platform',
              from: ['src/server/app.ts', 'src/server/server.ts'],
              message:
                'platform must not import the composition root (app.ts, server.ts): take what it needs as a parameter.',
            },
            {
              target: 'src/server/modules',
              from: ['src/server/app.ts', 'src/server/server.ts'],
              message:
                'a feature module must not import the composition root (app.ts, server.ts): take what it needs as a parameter, or import it from platform or the module that owns it.',
            },
          ],
        },
      ],
    },
  },
  {
    // "No source file in src/server over 500 lines", tests included: split a long file by subject.
    files: ['src/server/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/client/**', '**/server/**', '**/contract/**'],
              message: 'src/domain is pure: it imports only src/domain.',
            },
            {
              group: ['node:*', 'react', 'react-dom', 'fastify', 'pg', '@electric-sql/*'],
              message: 'src/domain has no I/O, DOM or Node.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/client/**', '**/server/**'],
              message: 'src/contract is shared by page and server: no client or server imports.',
            },
            { group: ['node:*', 'react', 'react-dom', 'fastify'], message: 'src/contract has no I/O.' },
          ],
        },
      ],
    },
  },
  {
    // The test processor's card frame and challenge page: the processor's code on its own origin, not the page's.
    files: ['src/card-frame/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/client/**', '**/server/**'], message: 'The card frame shares only src/domain.' },
            { group: ['node:*'], message: 'The card frame runs in the browser.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**'], message: 'The page never imports server code: talk to the API.' },
            { group: ['node:*'], message: 'The page runs in the browser.' },
          ],
        },
      ],
    },
  },
);
