/**
 * The MCP resource of a plan's summary, `bindery://plans/{planId}`: status, each slot's sandbox
 * and what changed in it, as JSON with the reference field names. Recent plans are listed.
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { toWire } from '../core/codec.ts';
import type { ToolDeps } from './tools.ts';

/** The URI of a plan's summary. */
export function planUri(planId: string): string {
  return `bindery://plans/${planId}`;
}

const LISTED = 50;

/** Registers the plan summary resource template on the server; `track` follows each read until it answers. */
export function registerPlanResource(
  server: McpServer,
  { bindery, agent }: ToolDeps,
  track: <T>(work: Promise<T>) => Promise<T> = (work) => work,
): void {
  const template = new ResourceTemplate('bindery://plans/{planId}', {
    list: () => ({
      resources: bindery.plans
        .listPlans({ limit: LISTED * 4 })
        .filter((plan) => agent.inScope(plan.projectId))
        .slice(0, LISTED)
        .map((plan) => ({
          uri: planUri(plan.id),
          name: `${plan.toolName} in ${plan.projectName} (${plan.status})`,
          mimeType: 'application/json',
        })),
    }),
  });
  server.registerResource(
    'plan',
    template,
    { title: 'Plan summary', description: "A plan's status, its slots' sandboxes and what changed in each.", mimeType: 'application/json' },
    (uri, variables) => track(readSummary(uri, variables)),
  );

  async function readSummary(uri: URL, variables: Record<string, string | string[]>) {
    const planId = String(variables.planId ?? '');
    const plan = agent.show(decodeURIComponent(planId));
    const changes = await bindery.plans.changes(plan.planId);
    const summary = {
      ...plan,
      changes: changes.map((list) => ({
        sandboxId: list.sandboxId,
        resourceName: list.resourceName,
        access: list.access,
        violation: list.violation,
        changed: list.changes.map((change) => ({ path: change.path, kind: change.kind, drift: change.drift })),
      })),
    };
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(toWire(summary), null, 2) }] };
  }
}
