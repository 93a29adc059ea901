/**
 * Which highlight.js language a file gets, chosen by its name or extension. Only the languages
 * registered in highlight.ts appear here, so the bundle carries a known, small set.
 */

/** The highlight.js language names this viewer registers. */
export const LANGUAGES = [
  'bash',
  'c',
  'cpp',
  'csharp',
  'css',
  'diff',
  'dockerfile',
  'go',
  'ini',
  'java',
  'javascript',
  'json',
  'kotlin',
  'less',
  'lua',
  'makefile',
  'markdown',
  'php',
  'python',
  'ruby',
  'rust',
  'scss',
  'sql',
  'swift',
  'typescript',
  'xml',
  'yaml',
] as const;

/** A registered language name. */
export type Language = (typeof LANGUAGES)[number];

const BY_EXTENSION: Record<string, Language> = {
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  ksh: 'bash',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hh: 'cpp',
  hpp: 'cpp',
  hxx: 'cpp',
  ino: 'cpp',
  cs: 'csharp',
  css: 'css',
  diff: 'diff',
  patch: 'diff',
  go: 'go',
  ini: 'ini',
  cfg: 'ini',
  conf: 'ini',
  toml: 'ini',
  properties: 'ini',
  editorconfig: 'ini',
  java: 'java',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  json: 'json',
  jsonc: 'json',
  json5: 'json',
  webmanifest: 'json',
  kt: 'kotlin',
  kts: 'kotlin',
  less: 'less',
  lua: 'lua',
  mk: 'makefile',
  md: 'markdown',
  markdown: 'markdown',
  mdx: 'markdown',
  php: 'php',
  py: 'python',
  pyi: 'python',
  pyw: 'python',
  rb: 'ruby',
  rake: 'ruby',
  gemspec: 'ruby',
  rs: 'rust',
  scss: 'scss',
  sass: 'scss',
  sql: 'sql',
  swift: 'swift',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  html: 'xml',
  htm: 'xml',
  xml: 'xml',
  svg: 'xml',
  xhtml: 'xml',
  plist: 'xml',
  vue: 'xml',
  csproj: 'xml',
  yml: 'yaml',
  yaml: 'yaml',
};

const BY_NAME: Record<string, Language> = {
  dockerfile: 'dockerfile',
  containerfile: 'dockerfile',
  makefile: 'makefile',
  gnumakefile: 'makefile',
  gemfile: 'ruby',
  rakefile: 'ruby',
  '.bashrc': 'bash',
  '.bash_profile': 'bash',
  '.zshrc': 'bash',
  '.profile': 'bash',
  '.gitconfig': 'ini',
  '.npmrc': 'ini',
  '.editorconfig': 'ini',
};

/** The language for `path`, or null for plain text (unknown extension, no extension). */
export function languageForPath(path: string | null | undefined): Language | null {
  if (!path) return null;
  const base = (path.split('/').pop() ?? '').toLowerCase();
  const named = BY_NAME[base];
  if (named) return named;
  if (base.startsWith('dockerfile.') || base.endsWith('.dockerfile')) return 'dockerfile';
  const dot = base.lastIndexOf('.');
  if (dot < 0 || dot === base.length - 1) return null;
  return BY_EXTENSION[base.slice(dot + 1)] ?? null;
}
