/**
 * What a host starts: the API object over an open core, its dispatcher, and the event bus fed by
 * registry changes from this process and (by polling `data_version`) from other processes.
 */
import type { ApiHandlers } from '../../shared/contract.ts';
import type { HostKind } from '../../shared/dto.ts';
import { REGISTRY_AREAS } from '../../shared/events.ts';
import { createApi } from './api.ts';
import type { Bindery } from './bindery.ts';
import { createDispatcher, type Dispatch, type FailureReporter } from './dispatch.ts';
import { EventBus } from './event-bus.ts';
import { watchRegistry, WATCH_INTERVAL_MS, type RegistryWatch } from './registry-watch.ts';

/** Options of a host's API runtime. */
export interface ApiRuntimeOptions {
  bindery: Bindery;
  host: HostKind;
  pollMs?: number;
  reportFailure?: FailureReporter;
  /** Shows a folder in the OS file manager (Electron's shell); absent on the web host. */
  revealPath?: (path: string) => Promise<void>;
}

/** The running API of one host. */
export interface ApiRuntime {
  api: ApiHandlers;
  dispatch: Dispatch;
  events: EventBus;
  watch: RegistryWatch;
  /** Stops watching; the host closes the core itself. */
  stop(): void;
}

/** Starts the API for a host. */
export function startApiRuntime(options: ApiRuntimeOptions): ApiRuntime {
  const { bindery } = options;
  const events = new EventBus();
  const unsubscribe = bindery.registry.onChange((area) => {
    events.emit('registryChanged', { areas: [area], source: 'app' });
  });
  const watch = watchRegistry(
    bindery.db,
    () => events.emit('registryChanged', { areas: [...REGISTRY_AREAS], source: 'external' }),
    options.pollMs ?? WATCH_INTERVAL_MS,
  );
  // The host has awaited bindery.start() (interrupted work); the rest of reconciling sandboxes with the disk runs now, not on first use.
  void bindery.plans.recover().catch((error: unknown) => options.reportFailure?.('recover', error));
  const api = createApi({ bindery, host: options.host, events, revealPath: options.revealPath });
  return {
    api,
    dispatch: createDispatcher(api, options.reportFailure),
    events,
    watch,
    stop: () => {
      watch.stop();
      unsubscribe();
    },
  };
}
