/**
 * `bindery mcp`'s server: the agent tools (tools.ts) and the plan summaries (plan-resource.ts) on
 * an McpServer of the official SDK, over one API runtime. Thin: every tool validates with the
 * contract's schema, calls the API or the agent service, and maps errors to `isError` results.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AgentService } from '../services/agent-service.ts';
import type { ApiRuntime } from '../services/api-runtime.ts';
import type { Bindery } from '../services/bindery.ts';
import { registerPlanResource } from './plan-resource.ts';
import { toolResult } from './results.ts';
import { mcpTools } from './tools.ts';

/** What the server is built over. */
export interface McpServerOptions {
  bindery: Bindery;
  runtime: ApiRuntime;
  agent: AgentService;
  version: string;
}

const INSTRUCTIONS =
  'Bindery gives you sandboxes of a project\'s folders: resolve_tool shows how a tool binds, create_plan makes the sandboxes and ' +
  'returns their paths. Work only in those paths, then list_changes and get_diff to check, and ready_for_review to hand over: ' +
  'the person reviews and commits in the Bindery app; list_notes shows what they asked you to change, answer_note replies. ' +
  'Read-only slots must not be written.';

/** The server, and a promise of the moment no tool call or resource read is under way. */
export interface BinderyMcpServer {
  server: McpServer;
  /** Resolves once every call begun so far (and any begun meanwhile) has answered. */
  idle(): Promise<void>;
}

/** Builds the server with every tool and resource registered; the caller connects a transport. */
export function createMcpServer({ bindery, runtime, agent, version }: McpServerOptions): BinderyMcpServer {
  const server = new McpServer({ name: 'bindery', title: 'Bindery', version }, { instructions: INSTRUCTIONS });
  const deps = { bindery, dispatch: runtime.dispatch, agent };
  // A client may write its requests and close stdin at once: their answers must still go out.
  const pending = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    pending.add(work);
    const done = () => pending.delete(work);
    work.then(done, done);
    return work;
  };
  for (const tool of mcpTools(deps)) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: tool.annotations },
      (input: Record<string, unknown>) => track(toolResult(() => tool.run(input))),
    );
  }
  registerPlanResource(server, deps, track);
  const idle = async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
    // The SDK sends an answer a few ticks after its handler settles.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { server, idle };
}
