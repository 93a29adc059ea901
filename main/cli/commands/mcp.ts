/** `bindery mcp`: the MCP server for agents on stdin and stdout, until the client closes it. */
import type { CommandModule } from '../command.ts';

/** Registers `mcp`. */
export const registerMcp: CommandModule = (program, context) => {
  program
    .command('mcp')
    .description('serve agents over the Model Context Protocol on stdin/stdout (add it to an MCP client\'s config)')
    .option('--project <name>', 'keep agents inside this project: other projects and their plans are refused')
    .action(async (options: { project?: string }) => {
      // Loaded here, not at the top: the SDK is only needed by this command (CLI start-up time).
      const [{ StdioServerTransport }, { createMcpServer }, { AgentService }, { startApiRuntime }, { APP_VERSION }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/stdio.js'),
        import('../../mcp/server.ts'),
        import('../../services/agent-service.ts'),
        import('../../services/api-runtime.ts'),
        import('../../services/app-version.ts'),
      ]);
      const bindery = context.bindery();
      // Interrupted commits and discards are finished or undone before an agent sees anything.
      await bindery.start();
      const agent = new AgentService(bindery, options.project);
      // stdout carries the protocol only: everything else goes to stderr.
      const runtime = startApiRuntime({
        bindery,
        host: 'mcp',
        reportFailure: (method, error) => context.output.note(`bindery mcp: ${method} failed unexpectedly: ${(error as Error).stack ?? String(error)}`),
      });
      const { server, idle } = createMcpServer({ bindery, runtime, agent, version: APP_VERSION });
      try {
        const closed = untilClosed();
        await server.connect(new StdioServerTransport());
        context.output.note(`bindery mcp: serving ${bindery.dataDir}${agent.scopeName ? ` (project ${agent.scopeName})` : ''} on stdio`);
        await closed;
        // Requests already read (a client that writes them and closes stdin) are answered first.
        await idle();
      } finally {
        runtime.stop();
        await server.close();
        // The runtime's start-up recovery may still be running: the core closes after it.
        await bindery.plans.recover().catch(() => undefined);
      }
    });
};

/** Resolves when the client goes away (stdin ends) or the process is asked to stop. */
function untilClosed(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.stdin.off('end', stop);
      process.stdin.off('close', stop);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.stdin.on('end', stop);
    process.stdin.on('close', stop);
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
