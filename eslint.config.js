import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Architecture in lint: src/domain and src/contract are pure and shared; the page never reaches into the server;
// only src/server/platform/config.ts reads process.env.
const noEnv = {
  selector: "MemberExpression[object.name='process'][property.name='env']",
  message: 'Read settings through src/server/platform/config.ts (the only reader of process.env).',
};

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
    ignores: ['src/server/platform/config.ts'],
    rules: { 'no-restricted-syntax': ['error', noEnv] },
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
