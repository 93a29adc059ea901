/**
 * The renderer's Content Security Policy, one string for every host: the web host's response
 * header, Electron's session header and the meta tag in renderer/index.html (a test keeps the
 * copy there equal). Only the app's own scripts, styles and API; no inline script, no eval.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');
