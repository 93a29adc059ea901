import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventMessage } from '../../../shared/events.ts';
import { tempDir } from '../../testing/fixtures.ts';
import { freshBindery } from '../../testing/registry.ts';
import type { Bindery } from '../bindery.ts';
import { EventBus } from '../event-bus.ts';
import { Provisioner } from './provisioner.ts';

let bindery: Bindery;
let seen: EventMessage[];
let provisioner: Provisioner;

beforeEach(async () => {
  bindery = freshBindery();
  const folder = tempDir();
  // Enough files that copying them takes a while, so a cancel lands mid-way.
  for (let i = 0; i < 2000; i++) fs.writeFileSync(path.join(folder, `file-${i}.txt`), `content ${i}\n`);
  await bindery.registry.addResource({ name: 'local/big', typeName: 'fs-directory', location: folder });
  bindery.registry.addProject({ name: 'demo' });
  bindery.registry.link('demo', 'local/big', null);
  await bindery.registry.importTools(
    'name: copier\nresource_slots:\n  - name: big\n    resource_type: fs-directory\n    access: read_write\n',
    'copier.yaml',
  );
  const events = new EventBus();
  seen = [];
  events.on((message) => seen.push(message));
  provisioner = new Provisioner(bindery.plans, events);
});
afterEach(() => bindery.close());

async function settled(planId: string): Promise<string> {
  await provisioner.idle();
  return bindery.plans.showPlan(planId).plan.status;
}

describe('Provisioner', () => {
  it('answers with the plan id while provisioning goes on, reporting progress under the plan', async () => {
    const started = await provisioner.start('copier', 'demo', {});
    expect(bindery.plans.showPlan(started.planId).plan.status).toBe('provisioning');
    expect(await settled(started.planId)).toBe('ready');
    const progress = seen.filter((m) => m.event === 'progress').map((m) => m.payload);
    expect(progress.every((p) => p.operationId === `plan:${started.planId}`)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ label: 'Provisioned', finished: true });
    expect(provisioner.progress(started.planId)).toBeNull();
  });

  it('cancels a plan mid-way: it fails and leaves no sandbox folder', async () => {
    const started = await provisioner.start('copier', 'demo', {});
    expect(provisioner.cancel(started.planId)).toBe(true);
    expect(await settled(started.planId)).toBe('failed');
    const planDir = path.join(bindery.dataDir, 'sandboxes', started.planId);
    expect(fs.existsSync(planDir) ? fs.readdirSync(planDir) : []).toEqual([]);
    expect(seen.filter((m) => m.event === 'progress').at(-1)?.payload).toMatchObject({
      label: 'Cancelled',
      finished: true,
    });
    expect(provisioner.cancel(started.planId)).toBe(false);
  });

  it('gives concurrent starts their own plans', async () => {
    const [a, b] = await Promise.all([
      provisioner.start('copier', 'demo', {}),
      provisioner.start('copier', 'demo', {}),
    ]);
    expect(a.planId).not.toBe(b.planId);
    await provisioner.idle();
    expect(bindery.plans.listPlans().map((p) => p.status)).toEqual(['ready', 'ready']);
  });

  it('rejects at once, creating nothing, when the tool cannot bind', async () => {
    bindery.registry.unlink('demo', 'local/big');
    await expect(provisioner.start('copier', 'demo', {})).rejects.toThrow(/could not be bound/);
    expect(bindery.plans.listPlans()).toEqual([]);
  });

  it('survives a step after provisioning that throws: the plan stays ready, no rejection goes unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const started = await provisioner.start('copier', 'demo', {}, () => {
        // As the run after provisioning does when the tool was removed meanwhile.
        throw new Error('There is no tool "copier"');
      });
      expect(await settled(started.planId)).toBe('ready');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
