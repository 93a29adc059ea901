import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventBus } from './event-bus.ts';
import type { EventMessage } from '../../shared/events.ts';
import { events as contractEvents } from '../../shared/events.ts';
import { gitRepo, tempDir } from '../testing/fixtures.ts';
import { openBindery } from './bindery.ts';
import { forwardPlanEvents, toContractEvent } from './plan-events.ts';
import type { SandboxChangeList } from '../../shared/dto.ts';

async function plan() {
  const bindery = openBindery(tempDir('bindery-data-'));
  const repo = gitRepo({ 'a.txt': 'a\n' });
  await bindery.registry.addResource({ name: 'local/app', typeName: 'git-checkout', location: repo });
  bindery.registry.addProject({ name: 'demo' });
  bindery.registry.link('demo', 'local/app');
  await bindery.registry.importTools('resource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n', 'edit.yaml');
  return { bindery };
}

describe('plan events', () => {
  it('maps every plan and sandbox event to a valid contract event', () => {
    const samples = [
      toContractEvent({ type: 'progress', planId: 'P', resourceId: 'R', sandboxId: 'S', phase: 'copying', done: 5, total: 10 }),
      toContractEvent({ type: 'status', planId: 'P', sandboxId: 'S', status: 'ready' }),
      toContractEvent({ type: 'plan', planId: 'P', status: 'committed' }),
    ];
    for (const sample of samples) expect(() => contractEvents[sample.event].parse(sample.payload)).not.toThrow();
    expect(samples[1]).toEqual({ event: 'sandboxChanged', payload: { planId: 'P', sandboxId: 'S', reason: 'status:ready' } });
  });

  it('forwards provisioning events to the bus, and live change lists while files change', async () => {
    const { bindery } = await plan();
    const bus = new EventBus();
    const seen: EventMessage[] = [];
    bus.on((message) => seen.push(message));
    const stop = forwardPlanEvents(bindery.plans, bus);
    const { plan: created, bound } = await (await bindery.plans.createPlan('edit', 'demo')).provisioned;
    expect(seen.some((m) => m.event === 'sandboxChanged' && m.payload.reason === 'plan:ready')).toBe(true);

    const lists: SandboxChangeList[] = [];
    const unwatch = bindery.plans.watch(created.id, (changes) => lists.push(changes));
    const sandbox = bound[0]!.sandboxPath;
    // Write, then wait quietly (the watcher reports once writes settle); write again now and then in
    // case the watcher was not ready yet. No timing assumption beyond the test timeout.
    for (let i = 0; !lists.some((l) => l.changes.some((c) => c.path === 'new.txt')); i++) {
      if (i % 20 === 0) fs.writeFileSync(path.join(sandbox, 'new.txt'), `attempt ${i}\n`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await unwatch();
    const files = seen.filter((m) => m.event === 'sandboxChanged' && m.payload.reason === 'files');
    expect(files.length).toBeGreaterThan(0);
    // Each push carries the new list's version, so a client holding it asks nothing.
    const versions = files.map((m) => (m.event === 'sandboxChanged' ? m.payload.version : undefined));
    expect(versions).toContain(lists.find((l) => l.changes.some((c) => c.path === 'new.txt'))!.version);
    stop();
    bindery.close();
  });
});
