import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp.ts';

describe('the renderer CSP', () => {
  it('is the same in renderer/index.html as in shared/csp.ts', () => {
    const html = fs.readFileSync(path.join(import.meta.dirname, '../../renderer/index.html'), 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html);
    expect(meta?.[1]).toBe(CONTENT_SECURITY_POLICY);
  });

  it('allows no inline script, no eval and no foreign origin', () => {
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
    expect(CONTENT_SECURITY_POLICY).toMatch(/default-src 'none'/);
  });
});
