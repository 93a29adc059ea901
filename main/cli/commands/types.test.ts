/** `bindery types add/update`: new types default to a copy, and strategy none is said out loud. */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../testing/fixtures.ts';
import { runCli } from '../../testing/cli-process.ts';

describe('bindery types: sandbox strategy', () => {
  it('gives a new type copy_on_write when no strategy is given, with no warning', async () => {
    const data = tempDir('bindery-cli-');
    const added = await runCli(data, ['--json', 'types', 'add', 'notes']);
    expect(added.code).toBe(0);
    expect(added.json<Record<string, unknown>>()).toMatchObject({ name: 'notes', sandbox_strategy: 'copy_on_write' });
    expect(added.stderr).toBe('');
  });

  it('prints a warning line when strategy none is chosen, on add and on update', async () => {
    const data = tempDir('bindery-cli-');
    const added = await runCli(data, ['types', 'add', 'live', '--strategy', 'none']);
    expect(added.code).toBe(0);
    expect(added.stderr).toMatch(/^warning: type live uses sandbox strategy none: tools change the original folder in place/);
    expect((await runCli(data, ['types', 'add', 'notes'])).code).toBe(0);
    const updated = await runCli(data, ['types', 'update', 'notes', '--strategy', 'none']);
    expect(updated.stderr).toMatch(/warning: type notes uses sandbox strategy none/);
    // A later update that leaves the strategy alone does not repeat it; the type keeps none.
    const described = await runCli(data, ['types', 'update', 'notes', '--description', 'kept']);
    expect([described.stderr, described.stdout]).toEqual(['', expect.stringMatching(/sandbox strategy:\s+none/)]);
  });

  it('warns when a resource is set to work in place, on add and on update', async () => {
    const data = tempDir('bindery-cli-');
    const added = await runCli(data, ['resources', 'add', 'local/live', '--type', 'fs-directory', '--location', tempDir(), '--strategy', 'none']);
    expect([added.code, added.stderr]).toEqual([0, expect.stringMatching(/^warning: resource local\/live uses sandbox strategy none/)]);
    const cleared = await runCli(data, ['resources', 'update', 'local/live', '--strategy', 'default']);
    expect([cleared.code, cleared.stderr]).toEqual([0, '']);
    expect((await runCli(data, ['resources', 'update', 'local/live', '--strategy', 'none'])).stderr).toMatch(/warning: resource local\/live/);
  });
});
