import { describe, expect, it } from 'vitest';
import { isSafeExternalUrl } from './external-url.ts';

describe('isSafeExternalUrl', () => {
  it.each([
    'https://github.com/bindery/bindery',
    'https://example.com',
    'https://example.com:8443/path?q=1#frag',
    'HTTPS://EXAMPLE.COM/',
    'https://xn--bcher-kva.example/',
    'https://127.0.0.1/',
  ])('allows %s', (url) => {
    expect(isSafeExternalUrl(url)).toBe(true);
  });

  it.each([
    ['http', 'http://example.com'],
    ['file', 'file:///etc/passwd'],
    ['javascript', 'javascript:alert(1)'],
    ['data', 'data:text/html,<script>alert(1)</script>'],
    ['smb share', 'smb://server/share'],
    ['custom scheme', 'vscode://file/x'],
    ['ms protocol', 'ms-msdt:/id PCWDiagnostic'],
    ['mailto', 'mailto:a@b.c'],
    ['credentials', 'https://user:pass@example.com/'],
    ['user only', 'https://user@example.com/'],
    ['no host', 'https:///path'],
    ['scheme-relative', '//example.com'],
    ['relative', '/local/path'],
    ['leading space', ' https://example.com'],
    ['embedded newline', 'https://exa\nmple.com'],
    ['embedded tab', 'https://example.com/\tx'],
    ['NUL', 'https://example.com/\u0000'],
    ['DEL', 'https://example.com/\u007f'],
    ['backslash host trick', 'https:\\\\example.com'],
    ['missing slashes', 'https:example.com'],
    ['empty', ''],
    ['too long', `https://example.com/${'a'.repeat(2100)}`],
    ['not a string', 42],
    ['null', null],
    ['object', { href: 'https://example.com' }],
  ])('refuses %s', (_why, url) => {
    expect(isSafeExternalUrl(url)).toBe(false);
  });
});
