import { describe, expect, it } from 'vitest';
import { HIGHLIGHT_MAX_CHARS, highlightLines, htmlToTable } from './highlight.ts';
import { LANGUAGES, languageForPath } from './languages.ts';
import { splitLines } from './text-lines.ts';
import { lineTokens, tableLines, type TokenTable } from './token-table.ts';

/** The tokens of every line, cut from the given line texts. */
const unpack = (table: TokenTable | null, texts: string[]) =>
  texts.map((text, i) => lineTokens(table, i, text));

const joined = (tokens: Array<{ text: string }>) => tokens.map((t) => t.text).join('');

describe('htmlToTable', () => {
  it('reopens spans across line breaks and decodes escapes', () => {
    const table = htmlToTable(
      '<span class="hljs-comment">/* a &lt;b&gt;\n c &amp; &quot;d&quot; &#x27;e&#x27; */</span> x',
    );
    expect(tableLines(table)).toBe(2);
    expect(unpack(table, ['/* a <b>', ' c & "d" \'e\' */ x'])).toEqual([
      [{ text: '/* a <b>', cls: 'hljs-comment' }],
      [
        { text: ' c & "d" \'e\' */', cls: 'hljs-comment' },
        { text: ' x', cls: '' },
      ],
    ]);
  });

  it('joins the classes of nested spans', () => {
    const table = htmlToTable('<span class="hljs-string">`a<span class="hljs-subst">${b}</span>`</span>');
    expect(unpack(table, ['`a${b}`'])).toEqual([
      [
        { text: '`a', cls: 'hljs-string' },
        { text: '${b}', cls: 'hljs-string hljs-subst' },
        { text: '`', cls: 'hljs-string' },
      ],
    ]);
  });

  it('keeps empty lines as empty token lists', () => {
    expect(unpack(htmlToTable('a\n\nb'), ['a', '', 'b'])).toEqual([
      [{ text: 'a', cls: '' }],
      [],
      [{ text: 'b', cls: '' }],
    ]);
  });

  it('merges neighbouring text of one class into one token', () => {
    const table = htmlToTable('a &amp; b<span class="x"></span> c');
    expect(Array.from(table.ends)).toEqual([7]);
  });

  it('refuses to cut a line whose text does not match the tokens, and lines it does not have', () => {
    const table = htmlToTable('<span class="k">let</span> x');
    expect(lineTokens(table, 0, 'let xy')).toBeNull();
    expect(lineTokens(table, 1, '')).toBeNull();
    expect(lineTokens(null, 0, 'let x')).toBeNull();
  });
});

describe('highlightLines', () => {
  it('spells every line of the source exactly, with CRLF and a multi-line comment', () => {
    const source = 'const a = 1;\r\n/* one\r\n two */\r\nconst s = `x\n${a}\ny`;\n\tlet t = "<&>";';
    const expected = splitLines(source).map((l) => l.text);
    const lines = unpack(highlightLines(source, 'typescript'), expected);
    expect(lines.map((tokens) => joined(tokens ?? []))).toEqual(expected);
    expect(lines[2]?.[0]?.cls).toContain('hljs-comment');
  });

  it('highlights every registered language without throwing', () => {
    for (const language of LANGUAGES) {
      const table = highlightLines('x = 1\n# comment\n', language);
      expect(table, language).not.toBeNull();
      expect(unpack(table, ['x = 1', '# comment']).map((tokens) => joined(tokens ?? []))).toEqual([
        'x = 1',
        '# comment',
      ]);
    }
  });

  it('declines texts above the size limit', () => {
    expect(highlightLines('a'.repeat(HIGHLIGHT_MAX_CHARS + 1), 'json')).toBeNull();
  });
});

describe('languageForPath', () => {
  it.each([
    ['src/app.ts', 'typescript'],
    ['src/App.TSX', 'typescript'],
    ['lib/x.mjs', 'javascript'],
    ['a/b/c.py', 'python'],
    ['Dockerfile', 'dockerfile'],
    ['docker/Dockerfile.prod', 'dockerfile'],
    ['Makefile', 'makefile'],
    ['config/.bashrc', 'bash'],
    ['README.md', 'markdown'],
    ['index.html', 'xml'],
    ['Cargo.toml', 'ini'],
    ['.github/workflows/ci.yml', 'yaml'],
  ])('%s is %s', (path, language) => {
    expect(languageForPath(path)).toBe(language);
  });

  it.each([null, '', 'LICENSE', 'notes.', 'data.bin', '.gitignore'])('%j is plain text', (path) => {
    expect(languageForPath(path)).toBeNull();
  });
});
