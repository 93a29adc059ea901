import { describe, expect, it } from 'vitest';
import { allowedHosts, isAllowedHost, isAllowedOrigin, isLoopbackAddress, isValidToken, loopbackBindAddress, newToken, SECURITY_HEADERS } from './security.ts';

describe('isLoopbackAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.0.0.2', true],
    ['127.255.255.255', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['128.0.0.1', false],
    ['126.255.255.255', false],
    ['10.0.0.1', false],
    ['192.168.1.10', false],
    ['172.17.0.1', false],
    ['0.0.0.0', false],
    ['::', false],
    ['::2', false],
    ['fe80::1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:192.168.0.1', false],
    ['localhost', false],
    ['127.0.0.1.evil.com', false],
    ['', false],
    [undefined, false],
    [null, false],
  ])('%s -> %s', (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected);
  });
});

describe('loopbackBindAddress', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['localhost', '127.0.0.1'],
    ['LOCALHOST', '127.0.0.1'],
    ['::1', '::1'],
    ['[::1]', '::1'],
    ['127.0.0.5', '127.0.0.5'],
    ['0.0.0.0', null],
    ['::', null],
    ['192.168.1.2', null],
    ['example.com', null],
    ['localhost.example.com', null],
    ['', null],
  ])('%s -> %s', (host, expected) => {
    expect(loopbackBindAddress(host)).toBe(expected);
  });
});

describe('Host header', () => {
  const allowed = allowedHosts('127.0.0.1', 4848);

  it('accepts exactly 127.0.0.1:<port> and localhost:<port> for the default bind', () => {
    expect(allowed).toEqual(['127.0.0.1:4848', 'localhost:4848']);
  });

  it.each([
    ['127.0.0.1:4848', true],
    ['localhost:4848', true],
    ['LOCALHOST:4848', true],
    ['127.0.0.1', false],
    ['localhost', false],
    ['127.0.0.1:4849', false],
    ['evil.com:4848', false],
    ['evil.com', false],
    ['localhost.evil.com:4848', false],
    ['127.0.0.1:4848.evil.com', false],
    ['[::1]:4848', false],
    ['', false],
    [undefined, false],
  ])('%s -> %s', (host, expected) => {
    expect(isAllowedHost(host, allowed)).toBe(expected);
  });

  it('adds the bracketed form for an IPv6 bind and the literal for another 127 address', () => {
    expect(allowedHosts('::1', 80)).toEqual(['127.0.0.1:80', 'localhost:80', '[::1]:80']);
    expect(allowedHosts('127.0.0.5', 80)).toEqual(['127.0.0.1:80', 'localhost:80', '127.0.0.5:80']);
  });
});

describe('isAllowedOrigin', () => {
  it.each([
    [undefined, '127.0.0.1:4848', true],
    ['http://127.0.0.1:4848', '127.0.0.1:4848', true],
    ['http://localhost:4848', 'localhost:4848', true],
    ['http://localhost:4848', '127.0.0.1:4848', false],
    ['https://127.0.0.1:4848', '127.0.0.1:4848', false],
    ['http://127.0.0.1:4849', '127.0.0.1:4848', false],
    ['http://evil.com', '127.0.0.1:4848', false],
    ['null', '127.0.0.1:4848', false],
    ['', '127.0.0.1:4848', false],
    ['http://127.0.0.1:4848', undefined, false],
  ])('%s with Host %s -> %s', (origin, host, expected) => {
    expect(isAllowedOrigin(origin, host)).toBe(expected);
  });
});

describe('isValidToken', () => {
  const token = newToken();

  it('matches only the exact token', () => {
    expect(isValidToken(token, token)).toBe(true);
    expect(isValidToken(`${token}x`, token)).toBe(false);
    expect(isValidToken(token.slice(1), token)).toBe(false);
    expect(isValidToken(token.toUpperCase() === token ? `${token.slice(0, -1)}!` : token.toUpperCase(), token)).toBe(false);
    expect(isValidToken('', token)).toBe(false);
    expect(isValidToken(undefined, token)).toBe(false);
    expect(isValidToken([token, token], token)).toBe(false);
  });

  it('is random per start and long enough', () => {
    expect(newToken()).not.toBe(newToken());
    expect(token.length).toBeGreaterThanOrEqual(43);
  });
});

describe('SECURITY_HEADERS', () => {
  it('sets a strict CSP and nosniff, and never CORS', () => {
    expect(SECURITY_HEADERS['Content-Security-Policy']).toMatch(/default-src 'none'/);
    expect(SECURITY_HEADERS['Content-Security-Policy']).toMatch(/script-src 'self'(;|$)/);
    expect(SECURITY_HEADERS['Content-Security-Policy']).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(SECURITY_HEADERS['X-Content-Type-Options']).toBe('nosniff');
    expect(Object.keys(SECURITY_HEADERS).some((name) => name.toLowerCase().startsWith('access-control-'))).toBe(false);
  });
});
