import { describe, expect, it } from 'vitest';
import { HIGHLIGHT_MAX_CHARS, highlightLines, htmlToLines } from './highlight.ts';
import { LANGUAGES, languageForPath } from './languages.ts';
import { splitLines } from './text-lines.ts';

const joined = (tokens: Array<{ text: string }>) => tokens.map((t) => t.text).join('');

describe('htmlToLines', () => {
  it('reopens spans across line breaks and decodes escapes', () => {
    const lines = htmlToLines(
      '<span class="hljs-comment">/* a &lt;b&gt;\n c &amp; &quot;d&quot; &#x27;e&#x27; */</span> x',
    );
    expect(lines).toEqual([
      [{ text: '/* a <b>', cls: 'hljs-comment' }],
      [
        { text: ' c & "d" \'e\' */', cls: 'hljs-comment' },
        { text: ' x', cls: '' },
      ],
    ]);
  });

  it('joins the classes of nested spans', () => {
    expect(htmlToLines('<span class="hljs-string">`a<span class="hljs-subst">${b}</span>`</span>')).toEqual([
      [
        { text: '`a', cls: 'hljs-string' },
        { text: '${b}', cls: 'hljs-string hljs-subst' },
        { text: '`', cls: 'hljs-string' },
      ],
    ]);
  });

  it('keeps empty lines as empty token lists', () => {
    expect(htmlToLines('a\n\nb')).toEqual([[{ text: 'a', cls: '' }], [], [{ text: 'b', cls: '' }]]);
  });
});

describe('highlightLines', () => {
  it('spells every line of the source exactly, with CRLF and a multi-line comment', () => {
    const source = 'const a = 1;\r\n/* one\r\n two */\r\nconst s = `x\n${a}\ny`;\n\tlet t = "<&>";';
    const lines = highlightLines(source, 'typescript');
    const expected = splitLines(source).map((l) => l.text);
    expect(lines?.slice(0, expected.length).map(joined)).toEqual(expected);
    expect(lines?.[2]?.[0]?.cls).toContain('hljs-comment');
  });

  it('highlights every registered language without throwing', () => {
    for (const language of LANGUAGES) {
      const lines = highlightLines('x = 1\n# comment\n', language);
      expect(lines, language).not.toBeNull();
      expect(lines?.slice(0, 2).map(joined)).toEqual(['x = 1', '# comment']);
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
