/**
 * Syntax highlighting per line: each side's whole text is highlighted once (so comments, strings
 * and templates spanning lines come out right), then the HTML is cut into lines, closing and
 * reopening the spans open at each line break. The result is data, never HTML, so nothing from a
 * file reaches the DOM as markup.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import less from 'highlight.js/lib/languages/less';
import lua from 'highlight.js/lib/languages/lua';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scss from 'highlight.js/lib/languages/scss';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import type { Language } from './languages.ts';
import { TokenTableBuilder, type TokenTable } from './token-table.ts';

const DEFINITIONS: Record<Language, Parameters<typeof hljs.registerLanguage>[1]> = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  ini,
  java,
  javascript,
  json,
  kotlin,
  less,
  lua,
  makefile,
  markdown,
  php,
  python,
  ruby,
  rust,
  scss,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
for (const [name, definition] of Object.entries(DEFINITIONS)) hljs.registerLanguage(name, definition);

/** Texts above this many characters are not highlighted (the highlighter is linear but not cheap). */
export const HIGHLIGHT_MAX_CHARS = 3_000_000;

/**
 * The tokens of every line of `text` (CRLF treated as LF, as the line splitter does), or null when
 * the text is too large or highlighting fails; the viewer then shows plain text.
 */
export function highlightLines(text: string, language: Language): TokenTable | null {
  if (text.length > HIGHLIGHT_MAX_CHARS) return null;
  try {
    const html = hljs.highlight(text.replace(/\r\n/g, '\n'), { language, ignoreIllegals: true }).value;
    return htmlToTable(html);
  } catch {
    return null;
  }
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#x27': "'",
  '#39': "'",
  nbsp: '\u00a0',
};

/**
 * Cuts highlight.js output into per-line tokens. It only emits `<span class="...">`, `</span>`,
 * text and the five escapes, so a scanner suffices; a token's class is the space-joined classes
 * of every span it sits in, and spans open at a line break continue on the next line.
 */
export function htmlToTable(html: string): TokenTable {
  const table = new TokenTableBuilder();
  const stack: string[] = [];
  let cls = '';
  const emit = (raw: string) => {
    if (!raw) return;
    const text = raw.includes('&')
      ? raw.replace(/&(#x27|#39|amp|lt|gt|quot|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
      : raw;
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      table.add(nl - from, cls);
      table.newLine();
      from = nl + 1;
    }
    table.add(text.length - from, cls);
  };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) {
      emit(html.slice(i));
      break;
    }
    emit(html.slice(i, lt));
    const gt = html.indexOf('>', lt);
    if (gt === -1) {
      emit(html.slice(lt));
      break;
    }
    const tag = html.slice(lt + 1, gt);
    if (tag.startsWith('/')) stack.pop();
    else stack.push(/class="([^"]*)"/.exec(tag)?.[1] ?? '');
    cls = stack.filter(Boolean).join(' ');
    i = gt + 1;
  }
  return table.finish();
}
