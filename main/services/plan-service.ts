/**
 * Plan use cases: create a plan (resolve a tool's bindings in a project, then provision every
 * bound resource through the handlers), list and show plans, and review, commit, undo and
 * discard their sandboxes. Hosts call this; it never formats output.
 */
import type { Database } from 'better-sqlite3';
import { ulid } from 'ulid';
import { NotFoundError, ValidationError } from '../../shared/errors.ts';
import type { BoundResource } from '../../shared/model.ts';
import type { BindingParams, BindingResolutionService } from '../core/binding-resolution.ts';
import { looksLikeId, shortName } from '../core/names.ts';
import { deferredError, type ResourceHandlerService } from '../handlers/resource-handler-service.ts';
import { listActivity, logActivity } from '../registry/activity.ts';
import * as plans from '../registry/plans.ts';
import { planCommits } from '../registry/sandbox-commits.ts';
import { expectedFor } from '../sandbox/changes/version.ts';
import { assertSelected } from '../sandbox/commit/operations.ts';
import type { ActivityItem, CommitInfo, FileDiff, HandlerSandbox, PlanHistoryEntry, PlanInfo, PlanStatusValue, SandboxChangeList } from '../../shared/dto.ts';
import type { ProvisionProgress, SandboxEvent, SandboxManager } from '../sandbox/sandbox-manager.ts';
import type { RegistryService } from './registry-service.ts';

/** A plan with everything the plan page shows. */
export interface PlanDetail {
  plan: PlanInfo;
  history: PlanHistoryEntry[];
  /** Each bound slot and its sandbox path, in slot order. */
  bound: BoundResource[];
  sandboxes: HandlerSandbox[];
  commits: CommitInfo[];
}

/** Events a host forwards: the engine's, plus plan status changes. */
export type PlanEvent = SandboxEvent | { type: 'plan'; planId: string; status: PlanStatusValue };

/** Options of createPlan. */
export interface CreatePlanOptions {
  signal?: AbortSignal;
  /** Who asks: a person (the default) or an agent through `bindery mcp`; the app shows it. */
  createdBy?: PlanInfo['createdBy'];
  onProgress?: (slotName: string, progress: ProvisionProgress) => void;
}

/** Which sandbox of a plan: its id, its resource's id, name or short name, or a slot name. */
export type SandboxRef = string | undefined;

type CommitOptions = NonNullable<Parameters<SandboxManager['commit']>[1]>;
type DiscardOptions = NonNullable<Parameters<SandboxManager['discard']>[1]>;
type CommitOutcome = Awaited<ReturnType<SandboxManager['commit']>>;
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
  private readonly listeners = new Set<(event: PlanEvent) => void>();
  private recovery: ReturnType<SandboxManager['recover']> | undefined;

  /** Plan statuses being refreshed after recovery finished a commit or an undo (see `recovered` events). */
  private readonly refreshing = new Set<Promise<void>>();

  constructor(private readonly options: PlanServiceOptions) {
    options.sandboxes.onEvent((event) => {
      if (event.type === 'recovered') this.refreshAfterRecovery(event.planId);
      this.emit(event);
    });
  }

  /** Subscribes to plan and sandbox events; returns the unsubscribe function. */
  onEvent(listener: (event: PlanEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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
        await this.refreshed();
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
   * refused, all named) and provisions every bound resource. A failure removes what was made.
   */
  async createPlan(toolRef: string, projectRef: string, params: BindingParams = {}, options: CreatePlanOptions = {}): Promise<PlanDetail> {
    await this.recover();
    const { registry, bindings, handlers, db } = this.options;
    const tool = registry.showTool(toolRef);
    const project = registry.findProject(projectRef);
    const results = bindings.resolve(tool, project, params);
    const deferred = results.filter((r) => r.deferred).map((r) => r.slotName);
    if (deferred.length > 0) throw deferredError(deferred);
    const stamp = this.stamp();
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
    this.log('plan.created', plan.id, `Plan of ${tool.name} in ${project.name} created; provisioning ${results.filter((r) => r.resourceId).length} slot(s).`);
    this.emit({ type: 'plan', planId: plan.id, status: 'provisioning' });
    try {
      const bound = await handlers.resolveBindings(results, plan.id, options);
      const ordered = results.flatMap((r) => (bound[r.slotName] ? [bound[r.slotName] as BoundResource] : []));
      plans.setPlanBindings(db, plan.id, ordered);
      this.setStatus(plan.id, 'ready', `${ordered.length} slot(s) bound to ${this.options.sandboxes.planSandboxes(plan.id).length} sandbox(es)`);
    } catch (error) {
      await this.cleanUpFailed(plan.id);
      this.setStatus(plan.id, 'failed', 'provisioning failed', (error as Error).message);
      throw error;
    }
    return this.showPlan(plan.id);
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
    const diffs: FileDiff[] = [];
    for (const sandbox of this.targets(planRef, options.resource)) {
      const changed = (await this.options.sandboxes.changes(sandbox.id)).changes.map((c) => c.path);
      for (const path of options.path === undefined ? changed : changed.filter((p) => p === options.path)) {
        diffs.push(await this.options.sandboxes.diff(sandbox.id, path));
      }
    }
    if (options.path !== undefined && diffs.length === 0) {
      throw new NotFoundError(`"${options.path}" has no change in plan ${planRef}: see "bindery plans changes ${planRef}".`, { path: options.path });
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
    // Paths and a single version belong to one sandbox (the plan's only one when none is named).
    const single = resource !== undefined || commitOptions.paths !== undefined || commitOptions.expectedVersion !== undefined;
    const one = single ? this.pick(plan.id, resource) : null;
    const outcomes = one
      ? [await this.options.sandboxes.commit(one.id, { ...commitOptions, expectedVersion: commitOptions.expectedVersion ?? expectedFor(expectedVersions, one.id) })]
      : await this.options.sandboxes.commitAll(plan.id, commitOptions);
    await this.refreshCommitStatus(plan.id);
    await this.refreshed();
    return outcomes;
  }

  /** Undoes the last commit of one sandbox from its backups. */
  async undo(planRef: string, resource?: SandboxRef): Promise<Awaited<ReturnType<SandboxManager['undo']>>> {
    await this.recover();
    const plan = this.findPlan(planRef);
    const outcome = await this.options.sandboxes.undo(this.pick(plan.id, resource).id);
    await this.refreshCommitStatus(plan.id);
    await this.refreshed();
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
    if (live.length === 0) this.setStatus(plan.id, 'discarded', 'every sandbox discarded');
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
    if (plan && plan.status === 'discarded') this.setStatus(plan.id, 'ready', `sandbox of ${sandbox.resourceName} restored from the trash`);
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
    throw new NotFoundError(`${why}. See the list with "bindery plans list".`, { planRef });
  }

  /** The sandbox of a plan a reference names; with none, the plan's only sandbox. */
  private pick(planId: string, ref: SandboxRef): HandlerSandbox {
    const all = this.options.sandboxes.planSandboxes(planId);
    if (ref === undefined) {
      if (all.length === 1) return all[0] as HandlerSandbox;
      throw new ValidationError(`Plan ${planId} has ${all.length} sandboxes: name one with --resource (${describe(all)}).`, {
        resources: all.map((s) => s.resourceName),
      });
    }
    const found = all.filter(
      (s) => s.id === ref || s.resourceId === ref || s.resourceName === ref || shortName(s.resourceName) === ref || s.slotNames.includes(ref),
    );
    if (found.length === 1) return found[0] as HandlerSandbox;
    const why = found.length > 1 ? `"${ref}" names several sandboxes of plan ${planId}` : `Plan ${planId} has no sandbox for "${ref}"`;
    throw new NotFoundError(`${why}: use one of ${describe(all)}.`, { resource: ref, resources: all.map((s) => s.resourceName) });
  }

  private targets(planRef: string, ref: SandboxRef): HandlerSandbox[] {
    const plan = this.findPlan(planRef);
    if (ref !== undefined) return [this.pick(plan.id, ref)];
    return this.options.sandboxes.planSandboxes(plan.id).filter((s) => s.status === 'ready' || s.status === 'committed');
  }

  /**
   * An undo that recovery finished (at start, or before a commit or undo to the same folder, for
   * any plan) may leave its plan with no commit in effect: its status is refreshed, and the next
   * `refreshed()` waits for it.
   */
  private refreshAfterRecovery(planId: string): void {
    const refresh: Promise<void> = this.refreshCommitStatus(planId)
      .catch(() => undefined)
      .finally(() => this.refreshing.delete(refresh));
    this.refreshing.add(refresh);
  }

  private async refreshed(): Promise<void> {
    await Promise.all([...this.refreshing]);
  }

  /** After a commit or undo: committed when no live sandbox has changes left, else partially committed. */
  private async refreshCommitStatus(planId: string): Promise<void> {
    if (planCommits(this.options.db, planId).every((c) => c.undoneAt !== null)) {
      this.setStatus(planId, 'ready', 'no commit in effect');
      return;
    }
    const live = this.options.sandboxes.planSandboxes(planId).filter((s) => s.status === 'ready' || s.status === 'committed');
    const remaining = await Promise.all(
      live.map((s) =>
        this.options.sandboxes.changes(s.id).then(
          (c) => (s.access === 'read_only' ? 0 : c.changes.filter((change) => change.drift !== 'applied').length),
          () => 1,
        ),
      ),
    );
    const left = remaining.reduce((sum, n) => sum + n, 0);
    if (left === 0) this.setStatus(planId, 'committed', 'every change committed');
    else this.setStatus(planId, 'partially_committed', `${left} change(s) not committed yet`);
  }

  private async cleanUpFailed(planId: string): Promise<void> {
    for (const sandbox of this.options.sandboxes.planSandboxes(planId)) {
      await this.options.sandboxes.discard(sandbox.id, { yes: true, force: true }).catch(() => undefined);
    }
  }

  private setStatus(planId: string, status: PlanStatusValue, detail: string, error: string | null = null): void {
    const before = plans.getPlan(this.options.db, planId)?.status;
    plans.setPlanStatus(this.options.db, planId, status, detail, this.stamp(), error);
    if (before !== status) {
      this.log(`plan.${status}`, planId, `Plan ${status.replace('_', ' ')}: ${error ?? detail}.`);
      this.emit({ type: 'plan', planId, status });
    }
  }

  private log(kind: string, planId: string, message: string): void {
    logActivity(this.options.db, { at: this.stamp(), kind, planId, sandboxId: null, message });
  }

  private emit(event: PlanEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private stamp(): string {
    return (this.options.now?.() ?? new Date()).toISOString();
  }
}

function describe(sandboxes: HandlerSandbox[]): string {
  return sandboxes.map((s) => `${s.resourceName} (slots ${s.slotNames.join(', ') || '-'})`).join(', ') || 'none';
}
