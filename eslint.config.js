// @ts-check
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Import direction (ARCHITECTURE.md §2): config ← services ← machines ← screens ← app.
 * `lib` and `components` are shared. Machines never import React; screens never import services.
 * Patterns match both the `@/` alias and relative paths.
 */
const react = ['react', 'react-dom', 'react-dom/*', '@mantine/*', '@xstate/react', 'react-router-dom', 'react-hook-form'];
const layer = (name) => [`@/${name}/*`, `**/${name}/*`];
/** The one file allowed to use `dangerouslySetInnerHTML` (it calls DOMPurify itself). */
const SAFE_HTML_COMPONENT = 'src/components/help/safe-html.tsx';
const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export default tseslint.config(
  { ignores: ['dist', 'node_modules', '.local', 'test-results', 'playwright-report', 'bench-results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['src/config/**'],
    rules: restrict([...react, ...layer('services'), ...layer('machines'), ...layer('screens'), ...layer('app'), ...layer('components')],
      'config is pure data: it imports nothing above it (ARCHITECTURE.md §2).'),
  },
  {
    files: ['src/lib/**'],
    rules: restrict([...react, ...layer('services'), ...layer('machines'), ...layer('screens'), ...layer('app')],
      'lib holds pure helpers (ARCHITECTURE.md §2).'),
  },
  {
    files: ['src/services/**'],
    rules: restrict([...react, ...layer('machines'), ...layer('screens'), ...layer('app'), ...layer('components')],
      'services sit under machines: no React, no machines, no screens (ARCHITECTURE.md §2).'),
  },
  {
    files: ['src/machines/**'],
    rules: restrict([...react, ...layer('screens'), ...layer('app'), ...layer('components')],
      'machines never import React or screens (ARCHITECTURE.md §2).'),
  },
  {
    files: ['src/screens/**', 'src/components/**'],
    rules: restrict([...layer('services'), ...layer('app')],
      'screens read machine state and send events; they never import services (ARCHITECTURE.md §2).'),
  },
  {
    // HTML reaches the page only through the one component that sanitises it with DOMPurify.
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.{ts,tsx}'],
    ignores: [SAFE_HTML_COMPONENT],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'JSXAttribute[name.name="dangerouslySetInnerHTML"]',
          message: `HTML is rendered only through <SafeHtml> (${SAFE_HTML_COMPONENT}), which sanitises it with DOMPurify.`,
        },
      ],
    },
  },
  {
    files: ['server/**'],
    rules: restrict([...react, ...layer('machines'), ...layer('screens'), ...layer('app'), ...layer('components'),
      '**/src/services/*.ts', '**/src/lib/inspection/*'],
      'the server may import src/config, src/services/schemas and the pure helpers of src/lib, never React code (README, Architecture).'),
  },
);
