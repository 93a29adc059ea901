/**
 * The web host's transport (`bindery serve`): POST /api/<method> with the token header, and one
 * shared server-sent-events stream for all subscriptions, reconnecting after interruptions.
 */
import type { ApiResult, MethodName } from '../../../shared/contract.ts';
import { BinderyError } from '../../../shared/errors.ts';
import { isEventName, REGISTRY_AREAS, type EventHandler, type EventName } from '../../../shared/events.ts';
import { SseParser } from './sse.ts';
import { TOKEN_HEADER } from './token.ts';
import type { HostAbilities, Transport } from './transport.ts';

/** What the HTTP transport needs from the page, injectable for tests. */
export interface HttpTransportOptions {
  /** Base URL of the host, e.g. `http://127.0.0.1:4848/`. */
  baseUrl: string;
  token: string | null;
  fetch?: typeof fetch;
  /** Opens a URL in a new tab (the browser's window.open). */
  openWindow?: (url: string) => void;
  /** Delay before reconnecting the event stream after it breaks. */
  retryMs?: number;
}

type AnyHandler = (payload: unknown) => void;

/** The HTTP + SSE transport. */
export class HttpTransport implements Transport {
  readonly host: HostAbilities;
  private readonly handlers = new Map<EventName, Set<AnyHandler>>();
  private readonly fetchImpl: typeof fetch;
  private stream: AbortController | null = null;
  private connectedOnce = false;
  /** Consecutive failed connections; the retry delay doubles with each, up to 30 s. */
  private failures = 0;
  private up = false;
  private readonly connectionListeners = new Set<(up: boolean) => void>();

  constructor(private readonly options: HttpTransportOptions) {
    this.fetchImpl = options.fetch ?? fetch.bind(globalThis);
    const openWindow = options.openWindow;
    this.host = {
      canPickFolder: false,
      canDropFolders: false,
      pickFolder: async () => null,
      pathForFile: () => null,
      openExternal: async (url) => {
        if (!openWindow || !/^https:\/\//i.test(url)) return false;
        openWindow(url);
        return true;
      },
    };
  }

  /** POSTs one call and returns its envelope; transport failures become typed errors. */
  async call(method: MethodName, input: unknown): Promise<ApiResult> {
    let response: Response;
    try {
      response = await this.fetchImpl(new URL(`api/${method}`, this.options.baseUrl), {
        method: 'POST',
        headers: this.headers({ 'Content-Type': 'application/json' }),
        body: JSON.stringify(input ?? {}),
      });
    } catch (error) {
      throw new BinderyError('io_error', `Bindery is not reachable (${(error as Error).message}): check that "bindery serve" is still running.`);
    }
    try {
      return (await response.json()) as ApiResult;
    } catch {
      throw new BinderyError('internal', `Bindery answered ${method} with HTTP ${response.status} and no result: reload the page.`);
    }
  }

  /** Subscribes to one event; the first subscription opens the stream, the last closes it. */
  subscribe<E extends EventName>(event: E, handler: EventHandler<E>): () => void {
    const set = this.handlers.get(event) ?? new Set<AnyHandler>();
    set.add(handler as AnyHandler);
    this.handlers.set(event, set);
    if (!this.stream) this.open();
    return () => {
      set.delete(handler as AnyHandler);
      if ([...this.handlers.values()].every((s) => s.size === 0)) this.close();
    };
  }

  /** Reports whether the event stream is connected, now and on every change. */
  onConnection(listener: (up: boolean) => void): () => void {
    this.connectionListeners.add(listener);
    listener(this.up);
    return () => this.connectionListeners.delete(listener);
  }

  private setUp(up: boolean): void {
    if (this.up === up) return;
    this.up = up;
    for (const listener of [...this.connectionListeners]) listener(up);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.options.token ? { ...extra, [TOKEN_HEADER]: this.options.token } : extra;
  }

  private open(): void {
    const controller = new AbortController();
    this.stream = controller;
    void this.read(controller).finally(() => {
      if (this.stream !== controller || controller.signal.aborted) return;
      this.setUp(false);
      this.stream = null;
      const delay = Math.min((this.options.retryMs ?? 1000) * 2 ** this.failures, 30_000);
      this.failures++;
      setTimeout(() => {
        if (!this.stream && [...this.handlers.values()].some((s) => s.size > 0)) this.open();
      }, delay);
    });
  }

  private close(): void {
    this.stream?.abort();
    this.stream = null;
    this.setUp(false);
  }

  private async read(controller: AbortController): Promise<void> {
    try {
      const response = await this.fetchImpl(new URL('api/events', this.options.baseUrl), {
        headers: this.headers({ Accept: 'text/event-stream' }),
        signal: controller.signal,
      });
      if (!response.ok || !response.body) return;
      this.failures = 0;
      // Events may have been missed while disconnected: tell every store to refresh.
      if (this.connectedOnce) this.dispatch('registryChanged', { areas: [...REGISTRY_AREAS], source: 'external' });
      this.connectedOnce = true;
      this.setUp(true);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        for (const message of parser.push(value)) {
          if (!isEventName(message.event)) continue;
          this.dispatch(message.event, JSON.parse(message.data) as unknown);
        }
      }
    } catch {
      // A broken stream is retried by open(); calls report their own failures.
    }
  }

  private dispatch(event: EventName, payload: unknown): void {
    for (const handler of this.handlers.get(event) ?? []) handler(payload);
  }
}
