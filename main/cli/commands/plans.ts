/**
 * `bindery plans ...`: create a plan (bind a tool's slots in a project and provision sandboxes),
 * list and show plans, review changes and diffs, commit, undo and discard.
 */
import { BinderyError, ConflictError } from '../../../shared/errors.ts';
import { STATUS_LETTER } from '../../../shared/change-kinds.ts';
import { encodePlan, encodePlanDetail, toWire } from '../../core/codec.ts';
import { VERSION_PATTERN } from '../../../shared/change-version.ts';
import { displayPath } from '../../../shared/display-path.ts';
import { CHANGE_KIND_VALUES, PLAN_STATUS_VALUES, RESOLUTION_VALUES, type ChangeCountsInfo, type PlanStatusValue, type ResolutionValue, type SandboxChangeList } from '../../../shared/dto.ts';
import type { CommitOutcome } from '../../services/plan-service.ts';
import type { PlanDetail } from '../../services/plan-service.ts';
import { collect, type CommandModule } from '../command.ts';
import { fields, table } from '../output.ts';
import { parseParams } from './resolve.ts';
import { registerPlanDiff } from './plans-diff.ts';
import { registerPlanReview } from './plans-review.ts';
import { describePartial, parseSelections } from './plans-selection.ts';

function renderPlan(detail: PlanDetail): string {
  const { plan } = detail;
  const byResource = new Map(detail.sandboxes.map((s) => [s.resourceId, s]));
  const lines = [
    fields([
      ['plan', plan.id],
      ['tool', plan.toolName],
      ['project', plan.projectName],
      ['status', plan.status],
      ['error', plan.error],
      ['created', plan.createdAt],
    ]),
    '',
    table(
      ['SLOT', 'RESOURCE', 'ACCESS', 'STRATEGY', 'SANDBOX'],
      detail.bound.map((b) => {
        const s = byResource.get(b.resourceId);
        return [b.slotName, s?.resourceName ?? b.resourceId, b.access, s ? `${s.strategy}${s.copyMethod ? ` (${s.copyMethod})` : ''}` : '-', b.sandboxPath];
      }),
      'No bound resources.',
    ),
  ];
  for (const s of detail.sandboxes) {
    if (s.fallbackReason) lines.push(`${s.resourceName}: ${s.requestedStrategy} fell back to ${s.strategy}: ${s.fallbackReason}`);
    if (s.handlerFailure) lines.push(`${s.resourceName}: ${s.handlerFailure}`);
    // A worktree leaves ignored files behind; a copy, special files (listed as "path (FIFO)").
    if (s.ignoredCount > 0) lines.push(`${s.resourceName}: ${s.ignoredCount} ${s.strategy === 'git_worktree' ? 'ignored' : 'special'} file(s) not ${s.strategy === 'git_worktree' ? 'carried over' : 'copied'}: ${s.ignoredFiles.slice(0, 5).map(displayPath).join(', ')}${s.ignoredCount > 5 ? ', ...' : ''}`);
    if (s.strategy === 'none') lines.push(`${s.resourceName}: strategy none: changes happen in place in ${s.path}; nothing to commit or discard.`);
    if (s.status !== 'ready') lines.push(`${s.resourceName}: sandbox ${s.status}${s.error ? ` (${s.error})` : ''}`);
  }
  return lines.join('\n');
}

function renderChanges(list: SandboxChangeList[]): string {
  return list
    .map((c) => {
      const head = `${c.resourceName} (${c.strategy}, ${c.access}): ${c.changes.length} change(s), version ${c.version}${c.violation ? `\n  VIOLATION: ${c.violation}` : ''}`;
      const rows = c.changes.map((f) => [
        // A rename with edits shows its likeness as git does (R093 there, R 93% here).
        `${STATUS_LETTER[f.kind] ?? '?'}${f.similarity !== undefined && f.similarity < 100 ? ` ${f.similarity}%` : ''}`,
        f.oldPath ? `${displayPath(f.oldPath)} -> ${displayPath(f.path)}` : displayPath(f.path),
        f.binary ? 'binary' : f.additions === null ? '' : `+${f.additions} -${f.deletions ?? 0}`,
        f.special ? `NOT COMMITTABLE: ${f.driftReason ?? f.unreadable}` : f.unreadable ? `UNREADABLE: ${f.unreadable}` : f.drift === 'conflict' ? `CONFLICT${f.driftReason ? `: ${f.driftReason}` : ''}` : f.drift,
      ]);
      return `${head}\n${table(['', 'PATH', 'LINES', 'ORIGINAL'], rows, '  (no changes)')}`;
    })
    .join('\n\n');
}

/**
 * Parses repeated `--expect-version [resource=]version` values: a bare version is the one sandbox's
 * being committed; `resource=version` names the sandbox, for a commit of the whole plan.
 */
export function parseExpectedVersions(values: string[] = []): { expectedVersion?: string; expectedVersions?: Record<string, string> } {
  const named: Record<string, string> = {};
  let bare: string | undefined;
  for (const value of values) {
    const eq = value.lastIndexOf('=');
    const version = value.slice(eq + 1);
    if (!VERSION_PATTERN.test(version)) {
      throw new BinderyError('usage', `--expect-version takes [resource=]version with a version as "bindery plans changes" shows it (like 3-0123456789abcdef), not "${value}"`);
    }
    if (eq > 0) named[value.slice(0, eq)] = version;
    else if (bare === undefined) bare = version;
    else throw new BinderyError('usage', '--expect-version without a resource is given twice: name each sandbox (--expect-version <resource>=<version>)');
  }
  return { ...(bare === undefined ? {} : { expectedVersion: bare }), ...(Object.keys(named).length > 0 ? { expectedVersions: named } : {}) };
}

/** Parses repeated `--resolve path=ours|theirs|merge` values. */
export function parseResolutions(values: string[] = []): Record<string, ResolutionValue> {
  const out: Record<string, ResolutionValue> = {};
  for (const value of values) {
    const eq = value.lastIndexOf('=');
    const choice = value.slice(eq + 1);
    if (eq <= 0 || !(RESOLUTION_VALUES as readonly string[]).includes(choice)) {
      throw new BinderyError('usage', `--resolve takes path=${RESOLUTION_VALUES.join('|')}, not "${value}"`);
    }
    out[value.slice(0, eq)] = choice as ResolutionValue;
  }
  return out;
}

/** Registers the `plans` command group. */
export const registerPlans: CommandModule = (program, context) => {
  const plans = program.command('plans').description('plans: provisioned sandboxes of a tool in a project, reviewed and committed or discarded');
  const service = () => context.bindery().plans;
  const out = context.output;

  plans
    .command('create <tool>')
    .description("bind the tool's slots in a project and provision a sandbox for each bound resource")
    .requiredOption('--project <project>', 'the project whose linked resources are bound')
    .option('--param <slot=resource>', 'a parameter slot value (repeatable)', collect)
    .action(async (tool: string, options: { project: string; param?: string[] }) => {
      const abort = new AbortController();
      const onSignal = () => abort.abort();
      process.once('SIGINT', onSignal);
      let lastNote = 0;
      try {
        const { provisioned } = await service().createPlan(tool, options.project, parseParams(options.param), {
          signal: abort.signal,
          onProgress: (slot, progress) => {
            if (out.json || Date.now() - lastNote < 1000) return;
            lastNote = Date.now();
            out.note(`${slot}: ${progress.phase} ${progress.done}${progress.total ? `/${progress.total}` : ''}`);
          },
        });
        const detail = await provisioned;
        out.result(encodePlanDetail(detail), () => `Plan ${detail.plan.id} is ${detail.plan.status}.\n${renderPlan(detail)}`);
      } finally {
        process.removeListener('SIGINT', onSignal);
      }
    });

  plans
    .command('list')
    .description('list plans, newest first')
    .option('--status <status>', `only plans in this status (${PLAN_STATUS_VALUES.join(', ')})`)
    .action((options: { status?: string }) => {
      if (options.status && !(PLAN_STATUS_VALUES as readonly string[]).includes(options.status)) {
        throw new BinderyError('usage', `--status must be one of ${PLAN_STATUS_VALUES.join(', ')}, not "${options.status}"`);
      }
      const list = service().listPlans({ status: options.status as PlanStatusValue | undefined });
      out.result(list.map(encodePlan), () =>
        table(
          ['PLAN', 'TOOL', 'PROJECT', 'STATUS', 'CREATED'],
          list.map((p) => [p.id, p.toolName, p.projectName, p.status, p.createdAt]),
          'No plans yet. Create one: bindery plans create <tool> --project <project>',
        ),
      );
    });

  plans
    .command('show <plan>')
    .description('show a plan: bound slots, sandboxes, status history, commits')
    .action((planRef: string) => {
      const detail = service().showPlan(planRef);
      out.result(encodePlanDetail(detail), () => {
        const history = detail.history.map((h) => `  ${h.at}  ${h.status}: ${h.detail}`).join('\n');
        return `${renderPlan(detail)}\n\nhistory:\n${history}`;
      });
    });

  plans
    .command('changes <plan>')
    .description('what changed in the sandboxes, each path marked clean or conflict against the original')
    .option('--resource <resource>', 'one sandbox: resource name, id or slot name')
    .action(async (planRef: string, options: { resource?: string }) => {
      const list = await service().changes(planRef, options.resource);
      out.result(toWire(list), () => renderChanges(list));
    });

  registerPlanDiff(plans, context);

  plans
    .command('commit <plan>')
    .description('apply sandbox changes to the originals (conflicting paths are never written until resolved)')
    .option('--resource <resource>', 'one sandbox: resource name, id or slot name')
    .option('--path <path>', 'only this path, or every change under a folder given with a trailing / (repeatable)', collect)
    .option('--resolve <path=choice>', `settle a conflict: ${RESOLUTION_VALUES.join('|')} (repeatable)`, collect)
    .option('--git-commit', 'also create a commit on the current branch of a git original')
    .option('-m, --message <message>', 'the commit message for --git-commit')
    .option('--expect-version <[resource=]version>', 'commit only if the change list still has this version, as "plans changes" shows it (repeatable, one per sandbox)', collect)
    .option('--hunks <ids>', 'only these hunks of the one --path, by the ids "plans diff" shows (e.g. 1,3); the rest stays pending')
    .option('--lines <path:lines>', 'only these changed lines of a file, numbered as "plans diff" shows them (e.g. src/a.ts:10-14,20; +n added only, -n deleted only; repeatable)', collect)
    .action(async (planRef: string, options: { resource?: string; path?: string[]; resolve?: string[]; gitCommit?: boolean; message?: string; expectVersion?: string[]; hunks?: string; lines?: string[] }) => {
      if (options.gitCommit && !options.message) throw new BinderyError('usage', '--git-commit needs a message: -m "<message>"');
      const { paths, selections } = parseSelections(options.path, options.hunks, options.lines);
      const outcomes = await service().commit(planRef, {
        resource: options.resource,
        paths,
        selections,
        ...parseExpectedVersions(options.expectVersion),
        resolutions: parseResolutions(options.resolve),
        gitCommit: options.gitCommit ? { message: options.message as string } : undefined,
      });
      const names = sandboxNames(service().showPlan(planRef));
      out.result(toWire(outcomes), () => outcomes.map((o) => describeCommit(o, names)).join('\n'));
    });

  plans
    .command('undo <plan>')
    .description('undo the last commit of a sandbox from its backups')
    .requiredOption('--resource <resource>', 'the sandbox: resource name, id or slot name')
    .action(async (planRef: string, options: { resource: string }) => {
      const outcome = await service().undo(planRef, options.resource);
      out.result(toWire(outcome), () => `Undone: ${outcome.restored.length} file(s) restored.`);
    });

  plans
    .command('discard <plan>')
    // The reference's SandboxManager.rollback_all() suggests this name to its users.
    .alias('rollback')
    .description('discard sandboxes (changes go to the trash)')
    .option('--resource <resource>', 'one sandbox: resource name, id or slot name')
    .option('--yes', 'confirm discarding sandboxes that have changes')
    .option('--force', 'discard even when the changes cannot be determined')
    .action(async (planRef: string, options: { resource?: string; yes?: boolean; force?: boolean }) => {
      const outcomes = await service().discard(planRef, { resource: options.resource, yes: options.yes ?? false, force: options.force ?? false });
      const waiting = outcomes.filter((o) => o.kind === 'needs_confirmation' || o.kind === 'unknown');
      if (waiting.length > 0) {
        const lines = waiting.map((o) =>
          o.kind === 'unknown' ? `  - ${o.resourceName}: ${o.reason} (--force discards it anyway)` : `  - ${o.resourceName}: ${describeCounts(o.counts)}`,
        );
        throw new ConflictError(
          `Nothing was discarded. These sandboxes have changes; run again with --yes to move them to the trash:\n${lines.join('\n')}`,
          { outcomes: toWire(outcomes) },
        );
      }
      const names = sandboxNames(service().showPlan(planRef));
      out.result(toWire(outcomes), () =>
        outcomes
          .map((o) => {
            const name = names.get(o.sandboxId) ?? o.sandboxId;
            return o.kind === 'discarded' ? `Discarded the sandbox of ${name}${o.trashId ? `; its changes are in the trash as ${o.trashId}` : ''}.` : `${name}: ${o.kind}`;
          })
          .join('\n'),
      );
    });

  plans
    .command('activity')
    .description('the log of plans, commits, undos, discards and restores, newest first')
    .option('--plan <plan>', 'only this plan')
    .option('--limit <n>', 'at most this many lines', '50')
    .action((options: { plan?: string; limit: string }) => {
      const planId = options.plan ? service().findPlan(options.plan).id : undefined;
      const entries = service().activity({ planId, limit: Number.parseInt(options.limit, 10) || 50 });
      out.result(toWire(entries), () => table(['AT', 'KIND', 'PLAN', 'MESSAGE'], entries.map((e) => [e.at, e.kind, e.planId, e.message]), 'No activity yet.'));
    });

  plans
    .command('recover')
    .description('reconcile sandboxes with the disk: finish interrupted commits, mark missing sandboxes, list orphan folders')
    .option('--abandon <transaction>', 'give up an interrupted commit that waits for a folder that will not come back (its backups stay in the journal)')
    .action(async (options: { abandon?: string }) => {
      if (options.abandon) {
        const done = await service().abandonInterrupted(options.abandon);
        out.result(toWire(done), () => `Abandoned the interrupted commit ${done.transactionId}: ${done.untouched?.length ?? 0} path(s) left as they were; their old versions stay in its journal folder.`);
        return;
      }
      const report = await service().recover();
      out.result(toWire(report), () => {
        const lines = [
          ...report.transactions.map((t) => `Interrupted commit ${t.transactionId}: ${t.outcome === 'waiting' ? `waiting, because ${t.reason}` : `${t.outcome.replace('_', ' ')}.`}`),
          ...report.missing.map((m) => `Missing: the sandbox folder ${m.path} (plan ${m.planId}) is gone; the sandbox is marked missing.`),
          ...report.returned.map((r) => `Back: the sandbox folder ${r.path} (plan ${r.planId}) is there again; the sandbox is ready.`),
          ...report.abandoned.map((a) => `Removed a half-made sandbox at ${a.path} (plan ${a.planId}).`),
          ...report.trash.map((t) => `Trash entry ${t.trashId}: ${TRASH_OUTCOMES[t.outcome]}${t.reason ? ` ${t.reason}` : ''}`),
          ...report.orphans.map((o) => `Orphan: ${o} is not a sandbox Bindery knows; inspect it and remove it by hand if you do not need it.`),
        ];
        return lines.join('\n') || 'Everything is consistent.';
      });
    });

  registerPlanReview(plans, context);
};

/** What recovery did with a discard or restore that a stopped process left half done. */
const TRASH_OUTCOMES = {
  discarded: 'its interrupted discard was finished; the changes are in the trash.',
  kept: 'its interrupted discard had not moved anything yet, so the sandbox is kept as it was.',
  restored: 'its interrupted restore was finished; the sandbox is back.',
  failed: 'its interrupted discard or restore could not be finished.',
} as const;

function describeCounts(counts: ChangeCountsInfo): string {
  const parts = CHANGE_KIND_VALUES.filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${k.replace('_', ' ')}`);
  return `${counts.total} change(s)${parts.length ? ` (${parts.join(', ')})` : ''}${counts.ignored ? ` and ${counts.ignored} ignored file(s)` : ''}`;
}

function sandboxNames(detail: PlanDetail): Map<string, string> {
  return new Map(detail.sandboxes.map((s) => [s.id, s.resourceName]));
}

function describeCommit(outcome: CommitOutcome, names: Map<string, string>): string {
  const name = names.get(outcome.sandboxId) ?? outcome.sandboxId;
  if (outcome.kind === 'nothing') return `${name}: nothing committed (${outcome.reason}).`;
  const { written, deleted, gitCommit } = outcome.commit;
  const skipped = outcome.skipped.length ? ` Kept the original for: ${outcome.skipped.map(displayPath).join(', ')}.` : '';
  return `${name}: wrote ${written.length} file(s), deleted ${deleted.length}${gitCommit ? `, git commit ${gitCommit.slice(0, 12)}` : ''}.${describePartial(outcome.partial, outcome.left)}${skipped}`;
}
