// Lint rules: typescript-eslint's recommended set, React hooks rules in the renderer, and the
// layer rules of DESIGN.md 3.1 expressed as forbidden imports.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** Packages only one folder may import. */
const OWNED = {
  electron: 'Only main/electron and preload may import electron (DESIGN 3.1).',
  'simple-git': 'Git runs through main/git, the one git module (DESIGN 3.1).',
};

/** The owned packages a folder may not import, less those it owns. */
function owned(allowed = []) {
  return { paths: Object.entries(OWNED).filter(([name]) => !allowed.includes(name)).map(([name, message]) => ({ name, message })) };
}
const noElectron = owned();

/** The hosts: thin layers over main/services (DESIGN 3.1). */
const HOSTS = ['cli', 'web', 'mcp', 'electron'];
/** The engine's rooms; each is reached from outside through its index.ts. */
const ROOMS = ['provision', 'changes', 'commit', 'discard', 'recovery', 'checkpoints', 'fs'];

/** A pattern refusing relative imports of the given main/ folders. */
function layerImport(folders, who, hint = 'layers only look down') {
  return { regex: String.raw`^(\.\./)+(main/)?(${folders.join('|')})/`, message: `${who} may not import ${folders.join(', ')}: ${hint} (DESIGN 3.1).` };
}

/** A config block forbidding the given import patterns (plus electron) in files. */
function layer(files, patterns, ignores = [], allowed = []) {
  return { files, ignores, rules: { 'no-restricted-imports': ['error', { ...owned(allowed), patterns }] } };
}

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
            layerImport(['git', 'registry', 'sandbox', 'handlers', 'services', ...HOSTS], 'main/core and shared'),
          ],
        },
      ],
    },
  },
  layer(['main/git/**'], [layerImport(['registry', 'sandbox', 'handlers', 'services', ...HOSTS], 'main/git')], [], ['simple-git']),
  layer(['main/registry/**'], [layerImport(['sandbox', 'handlers', 'services', ...HOSTS], 'main/registry')]),
  layer(['main/sandbox/**'], [
    layerImport(['registry', 'handlers', 'services', ...HOSTS], 'main/sandbox (it reaches persistence through its store port, sandbox/context.ts)'),
    { regex: String.raw`^(\./|(\.\./)+)(${ROOMS.join('|')})/(?!index\.ts$)`, message: 'Another room of the engine is reached through its index.ts.' },
  ]),
  layer(['main/handlers/**', 'main/services/**'], [
    { regex: String.raw`^(\.\./)+(main/)?sandbox/(?!index\.ts$)`, message: 'The engine is reached through main/sandbox/index.ts.' },
    layerImport(HOSTS, 'main/handlers and main/services'),
  ], ['**/*.test.ts']),
  ...HOSTS.map((host) => layer([`main/${host}/**`], [layerImport(['registry', 'sandbox', 'handlers', 'git'], 'The hosts (cli, web, mcp, electron)', 'they call main/services')], ['**/*.test.ts'], host === 'electron' ? ['electron'] : [])),
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
