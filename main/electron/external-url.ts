/**
 * The one rule for links leaving the app: https only, no credentials, a real host name. Pure, so
 * it is tested exhaustively; the Electron side (window.ts, ipc-dispatch.ts) only applies it.
 */

const MAX_URL_LENGTH = 2048;

/** True when `url` may be handed to the operating system's browser. */
export function isSafeExternalUrl(url: unknown): url is string {
  if (typeof url !== 'string' || url.length === 0 || url.length > MAX_URL_LENGTH) return false;
  // Whitespace and control characters are how scheme and host tricks get past naive parsers.
  if ([...url].some((char) => char.charCodeAt(0) <= 0x20 || char.charCodeAt(0) === 0x7f || /\s/.test(char))) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  // The text itself must name the host right after "https://": parsers repair "https:///x" and
  // "https:x" into URLs with a host the user never wrote.
  if (parsed.hostname === '' || !/^https:\/\/[^/\\]/i.test(url)) return false;
  return true;
}
