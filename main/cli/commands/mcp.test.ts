/** `bindery mcp` from the command line: stdout is the protocol's alone, even for a failure to start. */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures.ts';
import { runCli } from '../../testing/cli-process.ts';

describe('bindery mcp', () => {
  it('says why it cannot start on stderr, never stdout, even with --json', async () => {
    for (const args of [['--json', 'mcp', '--project', 'nowhere'], ['mcp', '--project', 'nowhere', '--json']]) {
      const result = await runCli(tempDir(), args);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^bindery: There is no project "nowhere"/);
    }
  });
});
