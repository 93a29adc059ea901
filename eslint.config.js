// Lint rules: typescript-eslint's recommended set, React hooks rules in the renderer, and the
// layer rules of DESIGN.md 3.1 expressed as forbidden imports.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const noElectron = {
  paths: [{ name: 'electron', message: 'Only main/electron and preload may import electron (DESIGN 3.1).' }],
};

export default tseslint.config(
  { ignores: ['node_modules', 'out', 'dist', 'release', 'e2e/artifacts', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', noElectron],
    },
  },
  {
    files: ['main/electron/**', 'preload/**', 'e2e/**', 'scripts/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['main/core/**', 'shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...noElectron,
          patterns: [
            { group: ['node:*', 'fs', 'path', 'child_process', 'better-sqlite3', 'simple-git'], message: 'main/core and shared stay free of I/O.' },
            { group: ['**/registry/**', '**/sandbox/**', '**/handlers/**', '**/services/**', '**/cli/**', '**/web/**'], message: 'Layers only look down.' },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { ...noElectron, patterns: [{ group: ['**/main/**', 'node:*'], message: 'The renderer imports shared/ only.' }] }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly' } },
  },
);
