/**
 * The whole API over a real registry in a temp data directory, called the way hosts call it
 * (through the dispatcher, so inputs are validated), with one git checkout `local/app` linked in
 * project `demo` and the given tools imported.
 */
import type { ApiResult, MethodName, MethodOutput } from '../../shared/contract.ts';
import type { EventMessage } from '../../shared/events.ts';
import { createApi } from '../services/api.ts';
import type { Bindery } from '../services/bindery.ts';
import { createDispatcher, type Dispatch } from '../services/dispatch.ts';
import { EventBus } from '../services/event-bus.ts';
import { gitRepo } from './fixtures.ts';
import { freshBindery } from './registry.ts';

/** A refused call's error payload. */
export type ApiError = Extract<ApiResult, { ok: false }>['error'];

/** A ready plan's ids and its (single) sandbox's folder. */
export interface ReadyPlan {
  planId: string;
  sandboxId: string;
  sandboxPath: string;
}

/** The API with its registry, repository and the events it sent. */
export interface ApiHarness {
  bindery: Bindery;
  dispatch: Dispatch;
  /** The checkout registered as `local/app`. */
  repo: string;
  events: EventMessage[];
  /** Calls a method and returns its value; a refusal throws with its code and message. */
  call<M extends MethodName>(method: M, input?: unknown): Promise<MethodOutput<M>>;
  /** Calls a method that must be refused and returns the error. */
  failure(method: MethodName, input: unknown): Promise<ApiError>;
  /** Creates a plan of `tool` in `demo` and waits until it is no longer provisioning. */
  readyPlan(tool: string, options?: { run?: boolean }): Promise<ReadyPlan>;
  close(): void;
}

/** A `git-checkout` tool file with one read-write slot `repo`, and a run command if given. */
export function toolYaml(name: string, run?: string): string {
  const runLine = run === undefined ? '' : `run: ${JSON.stringify(run)}\n`;
  return `name: ${name}\n${runLine}resource_slots:\n  - name: repo\n    resource_type: git-checkout\n    access: read_write\n`;
}

/** Polls `probe` every 20 ms until `done` accepts its value. */
export async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Opens the API over a fresh data directory with `files` committed in `local/app` and `tools` imported. */
export async function apiHarness(options: { files?: Record<string, string>; tools?: string[] } = {}): Promise<ApiHarness> {
  const bindery = freshBindery();
  const bus = new EventBus();
  const events: EventMessage[] = [];
  bus.on((message) => events.push(message));
  const dispatch = createDispatcher(createApi({ bindery, host: 'web', events: bus }));
  const call = async <M extends MethodName>(method: M, input: unknown = {}): Promise<MethodOutput<M>> => {
    const result = await dispatch(method, input);
    if (!result.ok) throw new Error(`${method} failed: ${result.error.code}: ${result.error.message}`);
    return result.value as MethodOutput<M>;
  };
  const repo = gitRepo(options.files ?? { 'README.md': '# demo\n' });
  await call('addResource', { name: 'local/app', typeName: 'git-checkout', location: repo });
  await call('addProject', { name: 'demo' });
  await call('linkResource', { project: 'demo', resource: 'local/app' });
  for (const [i, text] of (options.tools ?? []).entries()) await call('importTools', { text, fileName: `tool-${i}.yaml` });
  return {
    bindery,
    dispatch,
    repo,
    events,
    call,
    async failure(method, input) {
      const result = await dispatch(method, input);
      if (result.ok) throw new Error(`${method} unexpectedly succeeded`);
      return result.error;
    },
    async readyPlan(tool, { run } = {}) {
      const { planId } = await call('createPlan', { tool, project: 'demo', ...(run === undefined ? {} : { run }) });
      const view = await until(() => call('showPlan', { plan: planId }), (v) => v.plan.status !== 'provisioning');
      const sandbox = view.sandboxes[0]!;
      return { planId, sandboxId: sandbox.id, sandboxPath: sandbox.path };
    },
    close: () => bindery.close(),
  };
}
