/** `bindery projects update`, the agents' setting included, through main(). */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures.ts';
import { runCli } from '../../testing/cli-process.ts';

describe('bindery projects update', () => {
  it('lets agents commit with --agent-may-commit and takes it back with --no-agent-may-commit', async () => {
    const data = tempDir();
    expect((await runCli(data, ['projects', 'add', 'demo'])).code).toBe(0);
    const shown = async () => (await runCli(data, ['--json', 'projects', 'show', 'demo'])).json<{ agent_may_commit: boolean; description: string }>();
    expect((await shown()).agent_may_commit).toBe(false);

    const on = await runCli(data, ['projects', 'update', 'demo', '--agent-may-commit']);
    expect(on.stdout).toContain('Agents may now commit, undo and discard its plans.');
    expect((await shown()).agent_may_commit).toBe(true);
    expect((await runCli(data, ['projects', 'show', 'demo'])).stdout).toMatch(/agents may commit:\s+yes/);

    // Other changes leave the setting alone.
    expect((await runCli(data, ['projects', 'update', 'demo', '--description', 'the app'])).code).toBe(0);
    expect(await shown()).toMatchObject({ agent_may_commit: true, description: 'the app' });

    const off = await runCli(data, ['--json', 'projects', 'update', 'demo', '--no-agent-may-commit']);
    expect(off.json<{ agent_may_commit: boolean }>().agent_may_commit).toBe(false);
  });

  it('renames, and names an unknown project with what to do', async () => {
    const data = tempDir();
    await runCli(data, ['projects', 'add', 'demo']);
    expect((await runCli(data, ['projects', 'update', 'demo', '--name', 'renamed'])).code).toBe(0);
    expect((await runCli(data, ['--json', 'projects', 'show', 'renamed'])).code).toBe(0);
    const missing = await runCli(data, ['projects', 'update', 'nowhere', '--agent-may-commit']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('There is no project "nowhere"');
  });
});
