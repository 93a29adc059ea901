/** `bindery serve`: the app in a browser, over HTTP on loopback, until Ctrl+C. */
import { BinderyError } from '../../../shared/errors.ts';
import type { CommandModule } from '../command.ts';
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
    .action(async (options: { port: number; host: string }) => {
      // Loaded here, not at the top: `bindery --help` lists serve without loading the web server.
      const [{ startApiRuntime }, { defaultRendererDir }, { startWebServer }] = await Promise.all([
        import('../../services/api-runtime.ts'),
        import('../../web/renderer-dir.ts'),
        import('../../web/server.ts'),
      ]);
      const bindery = context.bindery();
      const runtime = startApiRuntime({
        bindery,
        host: 'web',
        reportFailure: (method, error) => context.output.note(`bindery serve: ${method} failed unexpectedly: ${(error as Error).stack ?? String(error)}`),
      });
      try {
        const server = await startWebServer({ runtime, rendererDir: defaultRendererDir(), host: options.host, port: options.port });
        context.output.result({ url: server.url, origin: server.origin, port: server.port, data_dir: bindery.dataDir }, () =>
          [
            'Bindery is serving at:',
            '',
            `  ${server.url}`,
            '',
            fields([['data directory', bindery.dataDir]]),
            'Open the URL in a browser on this machine. Stop with Ctrl+C.',
          ].join('\n'),
        );
        await stopSignal();
        await server.close();
      } finally {
        runtime.stop();
      }
    });
};

function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
