/**
 * Plan use cases: create a plan (resolve a tool's bindings in a project, then provision every
 * bound resource through the handlers), list and show plans, and review, commit, undo and
 * discard their sandboxes. Hosts call this; it never formats output.
 */
import type { Database } from 'better-sqlite3';
import { ulid } from 'ulid';
import { NotFoundError } from '../../shared/errors.ts';
import type { BoundResource } from '../../shared/model.ts';
import type { BindingParams, BindingResolutionService } from '../core/binding-resolution.ts';
import { looksLikeId } from '../core/names.ts';
import { deferredError, type ResourceHandlerService } from '../handlers/resource-handler-service.ts';
import { listActivity } from '../registry/activity.ts';
import * as plans from '../registry/plans.ts';
import { planCommits } from '../registry/sandbox-commits.ts';
import { expectedFor } from '../sandbox/index.ts';
import { assertSelected } from '../sandbox/index.ts';
import type { ActivityItem, CommitInfo, FileDiff, HandlerSandbox, PlanHistoryEntry, PlanInfo, PlanStatusValue, SandboxChangeList } from '../../shared/dto.ts';
import type { ProvisionProgress, SandboxManager } from '../sandbox/index.ts';
import { PlanStatusBook, type PlanEvent } from './plan-status.ts';
import type { RegistryService } from './registry-service.ts';
import { pickSandbox, type SandboxRef } from './sandbox-ref.ts';

export type { PlanEvent } from './plan-status.ts';
export type { SandboxRef } from './sandbox-ref.ts';

/** A plan with everything the plan page shows. */
export interface PlanDetail {
  plan: PlanInfo;
  history: PlanHistoryEntry[];
  /** Each bound slot and its sandbox path, in slot order. */
  bound: BoundResource[];
  sandboxes: HandlerSandbox[];
  commits: CommitInfo[];
}

/** Options of createPlan. */
export interface CreatePlanOptions {
  signal?: AbortSignal;
  /** Who asks: a person (the default) or an agent through `bindery mcp`; the app shows it. */
  createdBy?: PlanInfo['createdBy'];
  onProgress?: (slotName: string, progress: ProvisionProgress) => void;
}

/** A plan just made: its id at once, while its sandboxes are provisioned. */
export interface PlanStart {
  planId: string;
  /**
   * Settles when every bound resource is provisioned (the plan is ready) or provisioning failed
   * (what was made is removed and the plan is marked failed, so a caller may also ignore it).
   */
  provisioned: Promise<PlanDetail>;
}

type CommitOptions = NonNullable<Parameters<SandboxManager['commit']>[1]>;
type DiscardOptions = NonNullable<Parameters<SandboxManager['discard']>[1]>;
/** What one sandbox's commit did (the engine's outcome). */
export type CommitOutcome = Awaited<ReturnType<SandboxManager['commit']>>;
type DiscardOutcome = Awaited<ReturnType<SandboxManager['discard']>>;

/** What the service is built from. */
export interface PlanServiceOptions {
  db: Database;
  registry: RegistryService;
  bindings: BindingResolutionService;
  sandboxes: SandboxManager;
  handlers: ResourceHandlerService;
  now?: () => Date;
}

/** The plan use cases over one open data directory. */
export class PlanService {
  private recovery: ReturnType<SandboxManager['recover']> | undefined;
  private readonly status: PlanStatusBook;

  constructor(private readonly options: PlanServiceOptions) {
    this.status = new PlanStatusBook(options.db, options.sandboxes, options.now ?? (() => new Date()));
    options.sandboxes.onEvent((event) => {
      if (event.type === 'recovered') this.status.refreshAfterRecovery(event.planId);
      this.status.emit(event);
    });
  }

  /** Subscribes to plan and sandbox events; returns the unsubscribe function. */
  onEvent(listener: (event: PlanEvent) => void): () => void {
    return this.status.onEvent(listener);
  }

  /**
   * Reconciles registry and disk once per process (missing sandboxes, orphans, interrupted
   * commits). Every other method waits for it, so no commit starts over an unfinished one.
   */
  recover(): ReturnType<SandboxManager['recover']> {
    // A failed recovery is not remembered: the next call tries again.
    this.recovery ??= this.options.sandboxes
      .recover()
      .then(async (report) => {
        await this.status.refreshed();
        return report;
      })
      .catch((error: unknown) => {
        this.recovery = undefined;
        throw error;
      });
    return this.recovery;
  }

  /** Gives up an interrupted commit that recovery reported as waiting for a folder that will not come back as it was. */
  async abandonInterrupted(transactionId: string): Promise<Awaited<ReturnType<SandboxManager['abandon']>>> {
    await this.recover();
    return this.options.sandboxes.abandon(transactionId);
  }

  /**
   * Resolves the tool's slots in the project (parameter slots from `params`; deferred ones are
   * refused, all named), creates the plan and answers with its id, then provisions every bound
   * resource (`provisioned`). A provisioning failure removes what was made.
   */
  async createPlan(toolRef: string, projectRef: string, params: BindingParams = {}, options: CreatePlanOptions = {}): Promise<PlanStart> {
    await this.recover();
    const { registry, bindings, db } = this.options;
    const tool = registry.showTool(toolRef);
    const project = registry.findProject(projectRef);
    const results = bindings.resolve(tool, project, params);
    const deferred = results.filter((r) => r.deferred).map((r) => r.slotName);
    if (deferred.length > 0) throw deferredError(deferred);
    const stamp = this.status.stamp();
    const plan: PlanInfo = {
      id: ulid(),
      toolId: tool.id,
      toolName: tool.name,
      projectId: project.id,
      projectName: project.name,
      params: { ...params },
      status: 'provisioning',
      error: null,
      createdBy: options.createdBy ?? 'person',
      reviewRequestedAt: null,
      createdAt: stamp,
      updatedAt: stamp,
    };
    plans.insertPlan(db, plan);
    this.status.log('plan.created', plan.id, `Plan of ${tool.name} in ${project.name} created; provisioning ${results.filter((r) => r.resourceId).length} slot(s).`);
    this.status.emit({ type: 'plan', planId: plan.id, status: 'provisioning' });
    const provisioned = this.provision(plan.id, results, options);
    // The failure is recorded on the plan; a caller that only wanted the id need not wait for it.
    provisioned.catch(() => undefined);
    return { planId: plan.id, provisioned };
  }

  private async provision(planId: string, results: ReturnType<BindingResolutionService['resolve']>, options: CreatePlanOptions): Promise<PlanDetail> {
    const { db, handlers, sandboxes } = this.options;
    try {
      const bound = await handlers.resolveBindings(results, planId, options);
      const ordered = results.flatMap((r) => (bound[r.slotName] ? [bound[r.slotName] as BoundResource] : []));
      plans.setPlanBindings(db, planId, ordered);
      this.status.setStatus(planId, 'ready', `${ordered.length} slot(s) bound to ${sandboxes.planSandboxes(planId).length} sandbox(es)`);
    } catch (error) {
      // A failed provision leaves nothing behind (DESIGN 2.1).
      for (const sandbox of sandboxes.planSandboxes(planId)) {
        await sandboxes.discard(sandbox.id, { yes: true, force: true }).catch(() => undefined);
      }
      this.status.setStatus(planId, 'failed', 'provisioning failed', (error as Error).message);
      throw error;
    }
    return this.showPlan(planId);
  }

  /** Plans, newest first. */
  listPlans(filter: { status?: PlanStatusValue; limit?: number } = {}): PlanInfo[] {
    return plans.listPlans(this.options.db, filter);
  }

  /** One plan by id (or a unique id prefix) with its history, bindings, sandboxes and commits. */
  showPlan(planRef: string): PlanDetail {
    const plan = this.findPlan(planRef);
    const { db, sandboxes } = this.options;
    return {
      plan,
      history: plans.planHistory(db, plan.id),
      bound: plans.planBindings(db, plan.id),
      sandboxes: sandboxes.planSandboxes(plan.id),
      commits: planCommits(db, plan.id),
    };
  }

  /** The change lists of a plan's sandboxes (or of one). */
  async changes(planRef: string, resource?: SandboxRef): Promise<SandboxChangeList[]> {
    await this.recover();
    const targets = this.targets(planRef, resource);
    return Promise.all(targets.map((sandbox) => this.options.sandboxes.changes(sandbox.id)));
  }

  /** Unified diffs: of every changed path of the selected sandboxes, or of one path. */
  async diff(planRef: string, options: { resource?: SandboxRef; path?: string } = {}): Promise<FileDiff[]> {
    await this.recover();
    // One look per sandbox, each file read once; the sandboxes' looks run side by side, and the
    // first sandbox in the plan's order that fails is the one reported, as when they ran in turn.
    const targets = this.targets(planRef, options.resource);
    const looks = await Promise.allSettled(targets.map((sandbox) => this.options.sandboxes.diffs(sandbox.id, options.path)));
    const diffs = looks.flatMap((look) => {
      if (look.status === 'rejected') throw look.reason;
      return look.value;
    });
    if (options.path !== undefined && diffs.length === 0) {
      throw new NotFoundError(`"${options.path}" has no change in plan ${planRef}: look at the list of the plan's changes.`, {
        path: options.path,
        hints: [{ action: 'list-changes', plan: planRef }],
      });
    }
    return diffs;
  }

  /**
   * Commits one sandbox (with `resource`) or all of the plan's: all-or-nothing across sandboxes,
   * nothing written while any selected path is in conflict and unresolved. `paths: []` selects
   * nothing and is refused (all is no `paths`); with expected versions (`expectedVersions` keyed
   * by any sandbox reference), a change list that is not the one reviewed is refused.
   */
  async commit(planRef: string, options: CommitOptions & { resource?: SandboxRef } = {}): Promise<CommitOutcome[]> {
    assertSelected(options.paths);
    await this.recover();
    const plan = this.findPlan(planRef);
    const { resource, expectedVersions: byRef, ...rest } = options;
    // Keyed by any reference to a sandbox (id, resource, slot); the engine knows sandboxes by id.
    const expectedVersions = byRef && Object.fromEntries(Object.entries(byRef).map(([ref, version]) => [this.pick(plan.id, ref).id, version]));
    const commitOptions = { ...rest, expectedVersions };
    // Paths, chosen hunks and lines, and a single version belong to one sandbox (the plan's only one when none is named).
    const single = resource !== undefined || commitOptions.paths !== undefined || commitOptions.selections !== undefined || commitOptions.expectedVersion !== undefined;
    const one = single ? this.pick(plan.id, resource) : null;
    const outcomes = one
      ? [await this.options.sandboxes.commit(one.id, { ...commitOptions, expectedVersion: commitOptions.expectedVersion ?? expectedFor(expectedVersions, one.id) })]
      : await this.options.sandboxes.commitAll(plan.id, commitOptions);
    // What each commit counted left spares listing its sandbox again (a commit lists at most once).
    await this.status.refreshCommitStatus(plan.id, new Map(outcomes.flatMap((o) => (o.left === undefined ? [] : [[o.sandboxId, o.left] as const]))));
    await this.status.refreshed();
    return outcomes;
  }

  /** Undoes the last commit of one sandbox from its backups. */
  async undo(planRef: string, resource?: SandboxRef): Promise<Awaited<ReturnType<SandboxManager['undo']>>> {
    await this.recover();
    const plan = this.findPlan(planRef);
    const outcome = await this.options.sandboxes.undo(this.pick(plan.id, resource).id);
    await this.status.refreshCommitStatus(plan.id);
    await this.status.refreshed();
    return outcome;
  }

  /** Discards one sandbox or all of the plan's (changes go to the trash; confirmation when there are any). */
  async discard(planRef: string, options: DiscardOptions & { resource?: SandboxRef } = {}): Promise<DiscardOutcome[]> {
    await this.recover();
    const plan = this.findPlan(planRef);
    const { resource, ...discardOptions } = options;
    const outcomes =
      resource !== undefined
        ? [await this.options.sandboxes.discard(this.pick(plan.id, resource).id, discardOptions)]
        : await this.options.sandboxes.discardAll(plan.id, discardOptions);
    const live = this.options.sandboxes.planSandboxes(plan.id).filter((s) => s.status !== 'discarded');
    if (live.length === 0) this.status.setStatus(plan.id, 'discarded', 'every sandbox discarded');
    return outcomes;
  }

  /**
   * Watches the plan's live sandboxes (or one) and reports each new change list while a tool
   * works in them; the same lists reach onEvent listeners. Returns the function that stops it.
   */
  watch(planRef: string, onChanges: (changes: SandboxChangeList) => void, resource?: SandboxRef): () => Promise<void> {
    const stops = this.targets(planRef, resource)
      .filter((s) => s.strategy !== 'none')
      .map((s) => this.options.sandboxes.watch(s.id, onChanges));
    return async () => {
      await Promise.all(stops.map((stop) => stop()));
    };
  }

  /** Trash entries still recoverable. */
  async listTrash(): Promise<ReturnType<SandboxManager['listTrash']>> {
    await this.recover();
    return this.options.sandboxes.listTrash();
  }

  /** Puts a discarded sandbox back; its plan is ready again. */
  async restoreTrash(id: string): Promise<HandlerSandbox> {
    await this.recover();
    const sandbox = await this.options.sandboxes.restoreTrash(id);
    const plan = plans.getPlan(this.options.db, sandbox.planId);
    if (plan && plan.status === 'discarded') this.status.setStatus(plan.id, 'ready', `sandbox of ${sandbox.resourceName} restored from the trash`);
    return sandbox;
  }

  /** Deletes expired trash entries, or all of them. */
  async purgeTrash(options: { all?: boolean } = {}): ReturnType<SandboxManager['purgeTrash']> {
    await this.recover();
    return this.options.sandboxes.purgeTrash(options);
  }

  /** The activity log, newest first. */
  activity(filter: { planId?: string; limit?: number } = {}): ActivityItem[] {
    return listActivity(this.options.db, filter);
  }

  /** The plan for an id or a unique id prefix. */
  findPlan(planRef: string): PlanInfo {
    const { db } = this.options;
    const exact = plans.getPlan(db, planRef);
    if (exact) return exact;
    const matches = looksLikeId(planRef) || planRef.length < 4 ? [] : plans.plansWithIdPrefix(db, planRef.toUpperCase());
    if (matches.length === 1) return matches[0] as PlanInfo;
    const why = matches.length > 1 ? `"${planRef}" matches several plans: give more of the id` : `There is no plan "${planRef}"`;
    throw new NotFoundError(`${why}. See the list of plans.`, { planRef, hints: [{ action: 'list-plans' }] });
  }

  /** The sandbox of a plan a reference names (see sandbox-ref.ts); with none, the plan's only sandbox. */
  findSandbox(planRef: string, ref: SandboxRef): HandlerSandbox {
    return this.pick(this.findPlan(planRef).id, ref);
  }

  private pick(planId: string, ref: SandboxRef): HandlerSandbox {
    return pickSandbox(planId, this.options.sandboxes.planSandboxes(planId), ref);
  }

  private targets(planRef: string, ref: SandboxRef): HandlerSandbox[] {
    const plan = this.findPlan(planRef);
    if (ref !== undefined) return [this.pick(plan.id, ref)];
    return this.options.sandboxes.planSandboxes(plan.id).filter((s) => s.status === 'ready' || s.status === 'committed');
  }
}
