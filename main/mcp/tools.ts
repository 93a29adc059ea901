/**
 * The tools `bindery mcp` offers agents: each one's input schema is the contract's zod schema (a
 * plan's tools add an optional `project` the plan must belong to), its body calls the API or the
 * agent service. Committing, undoing and discarding are listed but refused unless the plan's
 * project allows agents: the person decides, and the project setting can change while we run.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { contract, type MethodName } from '../../shared/contract.ts';
import type { ProjectDetail } from '../../shared/model.ts';
import type { PlanInfo, ResourceListItem } from '../../shared/dto.ts';
import type { AgentService } from '../services/agent-service.ts';
import type { Bindery } from '../services/bindery.ts';
import type { Dispatch } from '../services/dispatch.ts';
import { noteTools } from './notes-tools.ts';
import { unwrap } from './results.ts';

/** What the tools run against. */
export interface ToolDeps {
  bindery: Bindery;
  dispatch: Dispatch;
  agent: AgentService;
}

/** One MCP tool: name, words, input schema (from the contract) and body. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  annotations: ToolAnnotations;
  run(input: Record<string, unknown>): unknown;
}

const scope = {
  project: z.string().trim().min(1).optional().describe('The project the plan must belong to (refused otherwise).'),
};
const READ: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
const DESTRUCTIVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, openWorldHint: false };
const GATED = ' Refused unless the plan\'s project lets agents commit (the person turns it on with "bindery projects update <project> --agent-may-commit").';

type Input = Record<string, unknown> & { plan?: string; project?: string };

/** Every tool, in the order clients list them. */
export function mcpTools({ bindery, dispatch, agent }: ToolDeps): McpTool[] {
  const call = async <T>(method: MethodName, input: Record<string, unknown>): Promise<T> => unwrap<T>(await dispatch(method, input));
  // A gated contract method: the plan is checked against the scope and the project's setting first.
  const gated = (method: MethodName) => async ({ project, ...input }: Input) => {
    agent.assertMayChange(input.plan as string, project);
    return call(method, input);
  };
  // A read of one plan through the contract, after checking the plan belongs where it should.
  const ofPlan = (method: MethodName) => async ({ project, ...input }: Input) => {
    agent.plan(input.plan as string, project);
    return call(method, input);
  };

  return [
    {
      name: 'list_resources',
      title: 'List resources',
      description: 'Registered resources (folders Bindery knows), with their type, location and the projects linking them.',
      input: contract.listResources.input,
      annotations: READ,
      run: async () => (await call<ResourceListItem[]>('listResources', {})).filter((r) => agent.scopeName === undefined || r.projects.includes(agent.scopeName)),
    },
    {
      name: 'list_projects',
      title: 'List projects',
      description: 'Projects with their linked resources (and aliases), and whether agents may commit in each.',
      input: contract.listProjects.input,
      annotations: READ,
      run: async () => (await call<ProjectDetail[]>('listProjects', {})).filter((p) => agent.inScope(p.id)),
    },
    {
      name: 'list_tools',
      title: 'List tools',
      description: 'Registered tools and their resource slots (type, access, binding).',
      input: contract.listTools.input,
      annotations: READ,
      run: () => call('listTools', {}),
    },
    {
      name: 'resolve_tool',
      title: 'Resolve a tool in a project',
      description:
        'How each slot of a tool binds in a project, with the explanation: every candidate, why it fits or not, the rule that chose, and how to fix an error. Changes nothing.',
      input: contract.inspectBindings.input,
      annotations: READ,
      run: (input) => {
        agent.project(input.project as string);
        return call('inspectBindings', input);
      },
    },
    {
      name: 'create_plan',
      title: 'Create a plan',
      description:
        "Binds a tool in a project and provisions a sandbox per bound resource; answers when they exist, with each slot's sandbox_path, access and strategy. Work in those paths (never in the originals); the person reviews the changes in Bindery.",
      input: contract.createPlan.input,
      annotations: WRITE,
      run: (input) => agent.createPlan(input.tool as string, input.project as string, (input.params ?? {}) as Record<string, string>),
    },
    {
      name: 'list_plans',
      title: 'List plans',
      description: 'Plans, newest first, optionally by status, tool or project; created_by says whether an agent made each.',
      input: contract.listPlans.input,
      annotations: READ,
      // Under a scope the project filters before the limit counts (else others' plans use it up).
      run: async (input) =>
        (await call<PlanInfo[]>('listPlans', agent.scopeName !== undefined && !input.project ? { ...input, project: agent.scopeName } : input)).filter((p) =>
          agent.inScope(p.projectId),
        ),
    },
    {
      name: 'show_plan',
      title: 'Show a plan',
      description: "One plan: status, each slot's sandbox path, access and strategy, and whether agents may commit in its project.",
      input: contract.showPlan.input.extend(scope),
      annotations: READ,
      run: (input: Input) => agent.show(input.plan as string, input.project),
    },
    {
      name: 'list_changes',
      title: 'List changes',
      description: "What changed in the plan's sandboxes (or one, by resource, slot or sandbox id): each path's kind, line counts and drift against the original.",
      input: contract.planChanges.input.extend(scope),
      annotations: READ,
      run: ofPlan('planChanges'),
    },
    {
      name: 'get_diff',
      title: "Get a file's diff",
      description: 'The unified diff of one changed file of a plan (path relative to the sandbox; name the sandbox when the plan has several).',
      input: contract.fileDiff.input.pick({ plan: true, path: true }).extend({
        sandbox: z.string().trim().min(1).optional().describe('Resource name, slot name or sandbox id; needed when the plan has several sandboxes.'),
        ...scope,
      }),
      annotations: READ,
      run: async (input: Input) => {
        const plan = agent.plan(input.plan as string, input.project);
        return bindery.plans.diff(plan.id, { resource: input.sandbox as string | undefined, path: input.path as string });
      },
    },
    {
      name: 'ready_for_review',
      title: 'Report work ready for review',
      description: 'Tells the person the work in the plan is ready for review: the app marks the plan and logs your message. Commit stays with them.',
      input: contract.showPlan.input.extend({
        message: z.string().max(10_000).optional().describe('What you did and what to look at, in a sentence or two.'),
        ...scope,
      }),
      annotations: WRITE,
      run: (input: Input) => agent.requestReview(input.plan as string, input.message as string | undefined, input.project),
    },
    ...noteTools({ dispatch, agent }),
    {
      name: 'commit_plan',
      title: 'Commit a plan',
      description: 'Writes every sandbox of the plan to its original, all checked first.' + GATED,
      input: contract.commitPlan.input.extend(scope),
      annotations: DESTRUCTIVE,
      run: gated('commitPlan'),
    },
    {
      name: 'commit_sandbox',
      title: 'Commit one sandbox',
      description: "Writes one sandbox's changes (all, or the paths given) to its original." + GATED,
      input: contract.commitSandbox.input.extend(scope),
      annotations: DESTRUCTIVE,
      run: gated('commitSandbox'),
    },
    {
      name: 'undo_commit',
      title: 'Undo a commit',
      description: 'Undoes the last commit of a sandbox from its backups.' + GATED,
      input: contract.undoCommit.input.extend(scope),
      annotations: DESTRUCTIVE,
      run: gated('undoCommit'),
    },
    {
      name: 'discard_plan',
      title: 'Discard a plan',
      description: 'Discards every sandbox of the plan; with changes it first returns their counts and needs confirm: true. Changes go to the trash.' + GATED,
      input: contract.discardPlan.input.extend(scope),
      annotations: DESTRUCTIVE,
      run: gated('discardPlan'),
    },
    {
      name: 'discard_sandbox',
      title: 'Discard one sandbox',
      description: 'Discards one sandbox, with the same confirmation as discard_plan.' + GATED,
      input: contract.discardSandbox.input.extend(scope),
      annotations: DESTRUCTIVE,
      run: gated('discardSandbox'),
    },
  ];
}
