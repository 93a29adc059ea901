import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures.ts';
import { runCli } from '../../testing/cli-process.ts';
import { parsePort } from './serve.ts';

describe('bindery serve', () => {
  it('refuses a non-loopback host as a usage error, before listening', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.0.10']) {
      const run = await runCli(tempDir(), ['serve', '--host', host]);
      expect(run.code, host).toBe(2);
      expect(run.stderr).toMatch(/loopback only/);
    }
  });

  it('refuses a port that is not 0-65535', async () => {
    for (const port of ['abc', '-1', '70000', '1.5']) expect(() => parsePort(port), port).toThrow(/--port must be a number/);
    expect(parsePort('0')).toBe(0);
    expect(parsePort('4848')).toBe(4848);
    expect((await runCli(tempDir(), ['serve', '--port', 'abc'])).code).toBe(2);
  });
});
