import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitRepo } from '../testing/fixtures.ts';
import { freshBindery } from '../testing/registry.ts';
import type { Bindery } from './bindery.ts';
import { RunService, type RunEvent } from './run-service.ts';

let bindery: Bindery;
let planId: string;

function tool(name: string, run: string | null): string {
  return `name: ${name}\n${run === null ? '' : `run: ${JSON.stringify(run)}\n`}resource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n`;
}

beforeEach(async () => {
  bindery = freshBindery();
  const { registry } = bindery;
  await registry.addResource({ name: 'local/app', typeName: 'git-checkout', location: gitRepo() });
  registry.addProject({ name: 'demo' });
  registry.link('demo', 'local/app', null);
  await registry.importTools(tool('sleeper', 'echo started; sleep 30'), 'sleeper.yaml');
  await registry.importTools(tool('failing', 'echo oops >&2; exit 3'), 'failing.yaml');
  await registry.importTools(
    tool('chatty', 'for i in 1 2 3 4 5 6 7 8 9 10; do echo line-$i; sleep 0.01; done'),
    'chatty.yaml',
  );
  await registry.importTools(tool('silent', null), 'silent.yaml');
  planId = (await (await bindery.plans.createPlan('sleeper', 'demo')).provisioned).plan.id;
});
afterEach(() => bindery.close());

function service(options: Partial<ConstructorParameters<typeof RunService>[0]> = {}): RunService {
  return new RunService({ db: bindery.db, plans: bindery.plans, registry: bindery.registry, ...options });
}

describe('RunService', () => {
  it('stops a running command and everything it started, and logs how it ended', async () => {
    const runs = service();
    const events: RunEvent[] = [];
    runs.onEvent((event) => events.push(event));
    const run = runs.start(planId);
    expect(run.status).toBe('running');
    expect(() => runs.start(planId)).toThrow(/already running/);
    while (runs.show(run.id).output.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(runs.stop(run.id).status).toBe('running');
    const ended = await runs.settled(run.id);
    expect([ended.status, ended.output.map((c) => c.text).join('')]).toEqual(['stopped', 'started\n']);
    expect(events.filter((e) => e.type === 'status').map((e) => e.type === 'status' && e.status)).toEqual([
      'running',
      'stopped',
    ]);
    expect(bindery.plans.activity({ planId }).map((a) => a.kind)).toEqual(
      expect.arrayContaining(['run.started', 'run.stopped']),
    );
    expect(runs.latest(planId)?.output).toEqual([]);
  });

  it('reports a failing exit code with stderr marked', async () => {
    const failing = (await (await bindery.plans.createPlan('failing', 'demo')).provisioned).plan.id;
    const runs = service();
    const ended = await runs.settled(runs.start(failing).id);
    expect([ended.status, ended.exitCode]).toEqual(['failed', 3]);
    expect(ended.output).toEqual([{ seq: 0, stream: 'stderr', text: 'oops\n' }]);
  });

  it('keeps bounded output and serves what came after a sequence number', async () => {
    const chatty = (await (await bindery.plans.createPlan('chatty', 'demo')).provisioned).plan.id;
    const runs = service({ maxOutputChars: 24 });
    const ended = await runs.settled(runs.start(chatty).id);
    expect(ended.truncated).toBe(true);
    expect(ended.output.map((c) => c.text).join('')).toContain('line-10\n');
    expect(ended.output.map((c) => c.text).join('').length).toBeLessThanOrEqual(24 + 8);
    expect(runs.show(ended.id, ended.lastSeq).output).toEqual([]);
    expect(runs.show(ended.id, ended.lastSeq - 1).output.map((c) => c.seq)).toEqual([ended.lastSeq]);
  });

  it('turns a runner that throws into a failed run with the reason', async () => {
    const runs = service({
      runner: () => {
        throw new Error('spawn /bin/sh ENOENT');
      },
    });
    const ended = await runs.settled(runs.start(planId).id);
    expect([ended.status, ended.error]).toEqual([
      'failed',
      'The command could not start: spawn /bin/sh ENOENT',
    ]);
  });

  it('refuses tools without run, plans not provisioned, and unknown runs', async () => {
    const silent = (await (await bindery.plans.createPlan('silent', 'demo')).provisioned).plan.id;
    expect(() => service().start(silent)).toThrow(/has no run command/);
    await bindery.plans.discard(planId, { yes: true });
    expect(() => service().start(planId)).toThrow(/is discarded/);
    expect(() => service().show('nope')).toThrow(/no tool run "nope"/);
  });

  it('logs a run after provisioning whose tool was removed meanwhile, instead of throwing', () => {
    bindery.registry.removeTool('sleeper');
    expect(service().startIfRunnable(planId)).toBeNull();
    expect(bindery.plans.activity({ planId }).map((a) => a.kind)).toContain('run.failed');
  });
});
