/**
 * The web host's guards as pure predicates (DESIGN.md 3.4): loopback only, a per-start token,
 * Host and Origin checks against DNS rebinding and cross-site requests, and the response headers
 * every answer carries. Tested exhaustively beside the server that applies them.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp.ts';

/** The header the renderer sends the token in. */
export const TOKEN_HEADER = 'x-bindery-token';

/** A fresh random token for one start of the server. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** True for an address on the loopback interface: 127.0.0.0/8, ::1, and their IPv4-mapped forms. */
export function isLoopbackAddress(address: string | undefined | null): boolean {
  if (!address) return false;
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = net.isIP(bare);
  if (family === 0) return false;
  return LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The address to bind for a `--host` value, or null when it is not loopback. `localhost` is
 * pinned to 127.0.0.1 so a resolver cannot send it elsewhere.
 */
export function loopbackBindAddress(host: string): string | null {
  if (host.toLowerCase() === 'localhost') return '127.0.0.1';
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return net.isIP(bare) && isLoopbackAddress(bare) ? bare : null;
}

/** The Host header values accepted for a server bound to `bindAddress` on `port`. */
export function allowedHosts(bindAddress: string, port: number): string[] {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (net.isIPv6(bindAddress)) hosts.push(`[${bindAddress}]:${port}`);
  else if (bindAddress !== '127.0.0.1') hosts.push(`${bindAddress}:${port}`);
  return hosts;
}

/** True when the Host header names this server exactly (defeats DNS rebinding). */
export function isAllowedHost(hostHeader: string | undefined, allowed: readonly string[]): boolean {
  return hostHeader !== undefined && allowed.includes(hostHeader.toLowerCase());
}

/** True when there is no Origin header, or it is exactly this server's origin as the Host names it. */
export function isAllowedOrigin(origin: string | undefined, hostHeader: string | undefined): boolean {
  if (origin === undefined) return true;
  if (!hostHeader) return false;
  return origin.toLowerCase() === `http://${hostHeader.toLowerCase()}`;
}

/** Constant-time token comparison; a missing or repeated header never matches. */
export function isValidToken(sent: string | string[] | undefined, expected: string): boolean {
  if (typeof sent !== 'string' || sent.length === 0) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Headers on every response: strict CSP, no sniffing, no framing, no referrer; never CORS. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};
