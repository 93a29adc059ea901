/** `bindery serve`: the app in a browser, over HTTP on loopback, until Ctrl+C. */
import { BinderyError } from '../../../shared/errors.ts';
import type { CommandModule } from '../command.ts';
import { toWire } from '../../core/codec.ts';
import { fields } from '../output.ts';

/** Parses `--port`: an integer 0-65535 (0 picks a free port). */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new BinderyError('usage', `--port must be a number from 0 to 65535, not "${value}"`);
  return port;
}

/** Registers `serve`. */
export const registerServe: CommandModule = (program, context) => {
  program
    .command('serve')
    .description('serve the app to a browser on this machine (loopback only, with a per-start token)')
    .option('--port <n>', 'port to listen on (0 = any free port)', parsePort, 0)
    .option('--host <address>', 'loopback address to bind', '127.0.0.1')
    .option('--keep-token', 'keep the token in the data directory (readable by you only) and reuse it next time: with the same --port, an open page reconnects after a restart')
    .action(async (options: { port: number; host: string; keepToken?: boolean }) => {
      // Loaded here, not at the top: `bindery --help` lists serve without loading the web server.
      const [{ startApiRuntime }, { defaultRendererDir }, { startWebServer }, { loadOrCreateToken }] = await Promise.all([
        import('../../services/api-runtime.ts'),
        import('../../web/renderer-dir.ts'),
        import('../../web/server.ts'),
        import('../../web/token-file.ts'),
      ]);
      const bindery = context.bindery();
      const kept = options.keepToken ? loadOrCreateToken(bindery.dataDir) : null;
      if (kept?.outcome === 'replaced') context.output.note(`bindery serve: made a new token, because the kept one could not be trusted (${kept.reason}).`);
      const runtime = startApiRuntime({
        bindery,
        host: 'web',
        reportFailure: (method, error) => context.output.note(`bindery serve: ${method} failed unexpectedly: ${(error as Error).stack ?? String(error)}`),
      });
      try {
        const server = await startWebServer({ runtime, rendererDir: defaultRendererDir(), host: options.host, port: options.port, token: kept?.token });
        const stopping = stopSignal();
        context.output.result(toWire({ url: server.url, origin: server.origin, port: server.port, dataDir: bindery.dataDir, tokenFile: kept?.file ?? null }), () =>
          [
            'Bindery is serving at:',
            '',
            `  ${server.url}`,
            '',
            fields([
              ['data directory', bindery.dataDir],
              ...(kept ? [['token kept in', kept.file] as [string, string]] : []),
            ]),
            'Open the URL in a browser on this machine. Stop with Ctrl+C.',
          ].join('\n'),
        );
        await stopping;
        await server.close();
        // Whatever still holds the event loop (a watcher, a timer) must not keep a stopped server alive.
        setTimeout(() => process.exit(), EXIT_DEADLINE_MS).unref();
      } finally {
        runtime.stop();
      }
    });
};

/** After the server closed, the most the process may take to end (issue 22: stopped within a second). */
const EXIT_DEADLINE_MS = 250;

/**
 * Resolves on the first SIGINT or SIGTERM. A second one ends the process at once: what was in
 * flight is finished by recovery on the next start (the engine journals its work).
 */
function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
