/**
 * The web host's transport (`bindery serve`): POST /api/<method> with the token header, and one
 * shared server-sent-events stream for all subscriptions, reconnecting after interruptions with
 * backoff. The stream is the heartbeat: the connection status follows it (issue 22).
 */
import type { ApiResult, MethodName } from '../../../shared/contract.ts';
import { BinderyError } from '../../../shared/errors.ts';
import { isEventName, REGISTRY_AREAS, type EventHandler, type EventName } from '../../../shared/events.ts';
import { SseParser } from './sse.ts';
import { TOKEN_HEADER } from './token.ts';
import type { ConnectionStatus, HostAbilities, Transport } from './transport.ts';

/** What the HTTP transport needs from the page, injectable for tests. */
export interface HttpTransportOptions {
  /** Base URL of the host, e.g. `http://127.0.0.1:4848/`. */
  baseUrl: string;
  token: string | null;
  fetch?: typeof fetch;
  /** Opens a URL in a new tab (the browser's window.open). */
  openWindow?: (url: string) => void;
  /** Delay before the first reconnection of the event stream after it breaks; it doubles after each failure. */
  retryMs?: number;
  /** The longest delay between reconnections. */
  maxRetryMs?: number;
  /** A stream silent this long is taken for dead (the host sends a keep-alive every 15 s). */
  silenceMs?: number;
}

type ConnectionListener = (up: boolean, status: ConnectionStatus) => void;

/** Why a stream was aborted by the transport itself, to be retried rather than left closed. */
const SILENT = 'silent';

/** The details of a call the host did not answer: the page leaves saying so to the connection bar. */
const UNREACHABLE = { unreachable: true } as const;

type AnyHandler = (payload: unknown) => void;

/** The HTTP + SSE transport. */
export class HttpTransport implements Transport {
  readonly host: HostAbilities;
  private readonly handlers = new Map<EventName, Set<AnyHandler>>();
  private readonly fetchImpl: typeof fetch;
  private stream: AbortController | null = null;
  private connectedOnce = false;
  /** Consecutive failed connections; the retry delay doubles with each, up to maxRetryMs. */
  private failures = 0;
  private status: ConnectionStatus = 'connecting';
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly connectionListeners = new Set<ConnectionListener>();

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
      // The stream may be waiting out a backoff: this failure says nothing new, but try it now.
      this.retryNow();
      throw new BinderyError('io_error', `Bindery is not reachable (${(error as Error).message}): this page reconnects by itself when Bindery is back.`, UNREACHABLE);
    }
    // An answer while the stream is down: the host is back, no need to wait for the next retry.
    if (this.status === 'offline') this.retryNow();
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

  /** Reports whether the event stream is connected, and the connection's status, now and on every change. */
  onConnection(listener: ConnectionListener): () => void {
    this.connectionListeners.add(listener);
    listener(this.status === 'connected', this.status);
    return () => this.connectionListeners.delete(listener);
  }

  /** Reconnects the stream now when it is waiting to retry. */
  retryNow(): void {
    if (!this.retryTimer) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (!this.stream && this.hasSubscribers()) this.open();
  }

  private setStatus(status: ConnectionStatus): void {
    if (this.status === status) return;
    this.status = status;
    for (const listener of [...this.connectionListeners]) listener(status === 'connected', status);
  }

  private hasSubscribers(): boolean {
    return [...this.handlers.values()].some((s) => s.size > 0);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.options.token ? { ...extra, [TOKEN_HEADER]: this.options.token } : extra;
  }

  private open(): void {
    const controller = new AbortController();
    this.stream = controller;
    void this.read(controller).then((ended) => {
      if (this.stream !== controller || (controller.signal.aborted && controller.signal.reason !== SILENT)) return;
      this.setStatus(ended);
      this.stream = null;
      const retryMs = this.options.retryMs ?? 500;
      const delay = Math.min(retryMs * 2 ** this.failures, Math.max(retryMs, this.options.maxRetryMs ?? 5000));
      this.failures++;
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        if (!this.stream && this.hasSubscribers()) this.open();
      }, delay);
    });
  }

  private close(): void {
    this.stream?.abort();
    this.stream = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    // Nobody listens: not connected, and not trying either.
    this.setStatus('connecting');
  }

  /** Reads the stream until it ends; returns what its end means for the connection. */
  private async read(controller: AbortController): Promise<'offline' | 'refused'> {
    let silence: ReturnType<typeof setTimeout> | null = null;
    const heard = () => {
      if (silence) clearTimeout(silence);
      silence = setTimeout(() => controller.abort(SILENT), this.options.silenceMs ?? 45_000);
    };
    try {
      const response = await this.fetchImpl(new URL('api/events', this.options.baseUrl), {
        headers: this.headers({ Accept: 'text/event-stream' }),
        signal: controller.signal,
      });
      if (response.status === 401) return 'refused';
      if (!response.ok || !response.body) return 'offline';
      this.failures = 0;
      // Events may have been missed while disconnected: tell every store to refresh.
      if (this.connectedOnce) this.dispatch('registryChanged', { areas: [...REGISTRY_AREAS], source: 'external' });
      this.connectedOnce = true;
      this.setStatus('connected');
      heard();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'offline';
        heard();
        for (const message of parser.push(value)) {
          if (!isEventName(message.event)) continue;
          this.dispatch(message.event, JSON.parse(message.data) as unknown);
        }
      }
    } catch {
      // A broken stream is retried by open(); calls report their own failures.
      return 'offline';
    } finally {
      if (silence) clearTimeout(silence);
    }
  }

  private dispatch(event: EventName, payload: unknown): void {
    for (const handler of this.handlers.get(event) ?? []) handler(payload);
  }
}
