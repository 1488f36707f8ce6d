import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Han characters: UI copy lives in apps/web/messages/*.json, never in components (spec §2, decision 0009).
const han = '/[\\u3400-\\u9fff\\uff00-\\uffef\\u3000-\\u303f]/';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/.next/**', '**/.next-*/**', '**/dist/**', 'data/**', '**/next-env.d.ts', 'bench/results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
      eqeqeq: ['error', 'smart'],
      // A package is used through the entry points its package.json exports (decision 0035), never
      // by a path into its source or from another workspace's folder.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@xcad/*/src', '@xcad/*/src/*'], message: 'Import the package through an entry point its package.json exports.' },
            {
              group: ['**/packages/*/src/*', '**/apps/*/src/*'],
              message: 'Import another workspace by its package name and exported entry point.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, '@next/next': nextPlugin },
    settings: { next: { rootDir: 'apps/web' } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs['core-web-vitals'].rules,
      // App Router only: there is no pages/ directory for this rule to check against.
      '@next/next/no-html-link-for-pages': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    ignores: ['apps/web/**/*.test.ts', 'apps/web/server/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: `Literal[value=${han}]`, message: 'UI text belongs in apps/web/messages/*.json.' },
        { selector: `TemplateElement[value.raw=${han}]`, message: 'UI text belongs in apps/web/messages/*.json.' },
        { selector: `JSXText[value=${han}]`, message: 'UI text belongs in apps/web/messages/*.json.' },
      ],
    },
  },
  {
    // Components and pages never call fetch: each request goes through apiClient() or a lib/*
    // wrapper of its feature (decision 0034). Route handlers (app/**/route.ts) may.
    files: ['apps/web/components/**/*.{ts,tsx}', 'apps/web/app/**/*.{ts,tsx}'],
    ignores: ['apps/web/app/**/route.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Call the API through apiClient() or a lib/* wrapper of the feature (decision 0034).' },
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.spec.ts', 'e2e/**/*.ts', 'bench/**/*.{ts,mjs}', 'scripts/**/*.mjs'],
    rules: { 'no-console': 'off' },
  },
);
