// Lint with zero warnings (`npm run lint`). The layering rule keeps Electron inside the thin
// shell (src/main/app, src/preload) and the renderer away from main (ARCHITECTURE.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import cliEngineEntry from './eslint-rules/cli-engine-entry.mjs';
import engineFaces from './eslint-rules/engine-faces.mjs';

const electronOnlyInShell = {
  name: 'electron',
  message: 'Only src/main/app and src/preload may import electron: the engine is plain Node.',
};

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test-results/**', 'bench-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // A face names what it hands out: `export *` passes on whatever a file happens to export.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ExportAllDeclaration',
          message: 'Name the exports: a face lists what it hands out (no export *).',
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: [
      'src/main/engine/**',
      'src/main/server/**',
      'src/main/cli/**',
      // The shell's logic stays electron-free so it is unit-testable under Node.
      'src/main/app/engine-launch.ts',
      'src/main/app/engine-supervisor.ts',
      'src/main/app/app-page.ts',
      'src/main/app/secret-store.ts',
    ],
    rules: {
      'no-restricted-imports': ['error', { paths: [electronOnlyInShell] }],
    },
  },
  {
    // Engine modules meet only through their faces; the engine never imports cli/server/app.
    files: ['src/main/engine/**'],
    plugins: { cuelab: { rules: { 'engine-faces': engineFaces } } },
    rules: { 'cuelab/engine-faces': 'error' },
  },
  {
    // The CLI reaches the engine through LabApi and the engine entry only.
    files: ['src/main/cli/**'],
    plugins: { cuelab: { rules: { 'cli-engine-entry': cliEngineEntry } } },
    rules: { 'cuelab/cli-engine-entry': 'error' },
  },
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOnlyInShell],
          patterns: [
            { group: ['node:*'], message: 'src/shared runs everywhere: no Node built-ins.' },
            {
              group: ['**/main/**', '**/renderer/**', '**/preload/**'],
              message: 'src/shared imports only src/shared.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [electronOnlyInShell],
          patterns: [
            { group: ['node:*'], message: 'The renderer runs in a browser: no Node built-ins.' },
            {
              group: ['**/main/**', '**/preload/**'],
              message: 'The renderer talks to the engine only through LabApi (src/shared).',
            },
          ],
        },
      ],
    },
  },
);
