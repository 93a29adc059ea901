/**
 * What agents do through `bindery mcp` beyond the API contract (issue 24): make plans marked as
 * theirs (waiting for the sandboxes, since an agent needs their paths), say the work is ready for
 * review, and the rule that committing, undoing and discarding stay with the person unless the
 * plan's project allows agents. A project scope keeps an agent inside one project.
 */
import { BinderyError, NotFoundError } from '../../shared/errors.ts';
import type { AccessMode, Project, SandboxStrategy } from '../../shared/model.ts';
import type { BindingParams } from '../core/binding-resolution.ts';
import { logActivity } from '../registry/activity.ts';
import { getPlan, setReviewRequested } from '../registry/plans.ts';
import type { PlanInfo } from '../../shared/dto.ts';
import type { Bindery } from './bindery.ts';
import type { PlanDetail } from './plan-service.ts';

/** One bound slot as an agent uses it: where to work, how, and what the sandbox is. */
export interface AgentSlot {
  slotName: string;
  resourceName: string;
  sandboxId: string | null;
  sandboxPath: string;
  access: AccessMode;
  strategy: SandboxStrategy | null;
  /** What the access and strategy mean for the agent, in a sentence. */
  note: string;
}

/** A plan as an agent sees it: its slots' sandboxes and whether it may commit. */
export interface AgentPlan {
  planId: string;
  toolName: string;
  projectName: string;
  status: PlanInfo['status'];
  createdBy: PlanInfo['createdBy'];
  reviewRequestedAt: string | null;
  agentMayCommit: boolean;
  slots: AgentSlot[];
}

/** The refusal an agent gets for commit, undo and discard in a project that does not allow them. */
export function agentRefusal(projectName: string): string {
  return (
    'The person reviews and commits in Bindery; the project does not allow agents to commit. ' +
    `Ask them, or they can run \`bindery projects update ${projectName} --agent-may-commit\``
  );
}

/** The agent use cases over one open core, optionally kept inside one project. */
export class AgentService {
  private readonly scope: Project | undefined;

  /** `scope` (a project name or id) is checked at once: an unknown project is a NotFoundError. */
  constructor(
    private readonly bindery: Bindery,
    scope?: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.scope = scope === undefined ? undefined : bindery.registry.findProject(scope);
  }

  /** The project this server is kept to, if any. */
  get scopeName(): string | undefined {
    return this.scope?.name;
  }

  /** True when a project (by id) may be seen under the scope. */
  inScope(projectId: string): boolean {
    return this.scope === undefined || this.scope.id === projectId;
  }

  /** The project a call names, refused when outside the scope. */
  project(projectRef: string): Project {
    const project = this.bindery.registry.findProject(projectRef);
    if (!this.inScope(project.id)) throw this.outOfScope(`Project "${project.name}"`);
    return project;
  }

  /** A plan by id or prefix, refused when it belongs to another project than `projectRef` or the scope. */
  plan(planRef: string, projectRef?: string): PlanInfo {
    const plan = this.bindery.plans.findPlan(planRef);
    if (projectRef !== undefined) {
      const project = this.bindery.registry.findProject(projectRef);
      if (project.id !== plan.projectId) {
        throw new BinderyError('forbidden', `Plan ${plan.id} belongs to project "${plan.projectName}", not "${project.name}": use a plan of ${project.name} (list_plans).`, {
          plan: plan.id,
          project: project.name,
        });
      }
    }
    if (!this.inScope(plan.projectId)) throw this.outOfScope(`Plan ${plan.id} (project "${plan.projectName}")`);
    return plan;
  }

  /** Binds the tool in the project and provisions every slot, as the agent's plan; resolves when the sandboxes exist. */
  async createPlan(toolRef: string, projectRef: string, params: BindingParams = {}): Promise<AgentPlan> {
    const project = this.project(projectRef);
    const { provisioned } = await this.bindery.plans.createPlan(toolRef, project.id, params, { createdBy: 'agent' });
    const detail = await provisioned;
    return this.describe(detail);
  }

  /** The agent's view of one plan. */
  show(planRef: string, projectRef?: string): AgentPlan {
    return this.describe(this.bindery.plans.showPlan(this.plan(planRef, projectRef).id));
  }

  /** Throws the refusal unless the plan's project lets agents commit, undo and discard. */
  assertMayChange(planRef: string, projectRef?: string): PlanInfo {
    const plan = this.plan(planRef, projectRef);
    if (!this.projectAllows(plan.projectId)) {
      throw new BinderyError('forbidden', agentRefusal(plan.projectName), { plan: plan.id, project: plan.projectName });
    }
    return plan;
  }

  /** Marks the plan as ready for review and logs the agent's message; the app shows both. */
  requestReview(planRef: string, message: string | undefined, projectRef?: string): PlanInfo {
    const plan = this.plan(planRef, projectRef);
    if (plan.status === 'provisioning' || plan.status === 'failed' || plan.status === 'discarded') {
      throw new BinderyError('conflict', `Plan ${plan.id} is ${plan.status}: there is nothing to review. Create a plan and work in its sandboxes first.`, {
        plan: plan.id,
        status: plan.status,
      });
    }
    const at = this.now().toISOString();
    const { db } = this.bindery;
    const words = message?.trim() ? `: ${message.trim()}` : '.';
    db.transaction(() => {
      setReviewRequested(db, plan.id, at);
      logActivity(db, { at, kind: 'plan.review_requested', planId: plan.id, sandboxId: null, message: `An agent says the work is ready for review${words}` });
    }).immediate();
    return getPlan(db, plan.id) as PlanInfo;
  }

  private projectAllows(projectId: string): boolean {
    try {
      return this.bindery.registry.findProject(projectId).agentMayCommit;
    } catch (error) {
      if (error instanceof NotFoundError) return false;
      throw error;
    }
  }

  private describe(detail: PlanDetail): AgentPlan {
    const byResource = new Map(detail.sandboxes.map((s) => [s.resourceId, s]));
    const { plan } = detail;
    return {
      planId: plan.id,
      toolName: plan.toolName,
      projectName: plan.projectName,
      status: plan.status,
      createdBy: plan.createdBy,
      reviewRequestedAt: plan.reviewRequestedAt,
      agentMayCommit: this.projectAllows(plan.projectId),
      slots: detail.bound.map((bound) => {
        const sandbox = byResource.get(bound.resourceId);
        const strategy = sandbox?.strategy ?? null;
        return {
          slotName: bound.slotName,
          resourceName: sandbox?.resourceName ?? bound.resourceId,
          sandboxId: sandbox?.id ?? null,
          sandboxPath: bound.sandboxPath,
          access: bound.access,
          strategy,
          note: slotNote(bound.access, strategy),
        };
      }),
    };
  }

  private outOfScope(what: string): BinderyError {
    return new BinderyError('forbidden', `${what} is outside this MCP server's project "${this.scope?.name}": it works in that project only.`, {
      scope: this.scope?.name,
    });
  }
}

function slotNote(access: AccessMode, strategy: SandboxStrategy | null): string {
  if (strategy === 'none') return 'No sandbox: this path is the original folder itself; changes there are not reviewed.';
  if (access === 'read_only') return 'Read only: read here, write nothing (writes are a violation and never committed).';
  return 'Work here; the person reviews the changes in Bindery before they reach the original.';
}
