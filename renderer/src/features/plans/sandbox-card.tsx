/**
 * One sandbox on the plan page: the slots it serves, its resource, the strategy used (and why it
 * fell back, or which handler failed), its access, its path with copy and open-folder, and its
 * change and conflict counts, with the way into its review.
 */
import type { ReactElement } from 'react';
import type { SandboxChangeList, SandboxInfo } from '../../../../shared/dto.ts';
import { api } from '../../api/index.ts';
import { Icon } from '../../components/icons.tsx';
import { AccessBadge } from './access-badge.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { STRATEGY_LABELS } from '../../lib/labels.ts';
import { changeCounts } from '../../stores/change-counts.ts';
import { useUi } from '../../stores/ui-store.ts';
import { copyText } from './clipboard.ts';
import { SANDBOX_STATUS } from './plan-labels.ts';
import { goTo } from './plan-route.ts';

/** Props: the sandbox and its change list when known. */
export interface SandboxCardProps {
  sandbox: SandboxInfo;
  changes: SandboxChangeList | null;
}

/** The card. */
export function SandboxCard({ sandbox, changes }: SandboxCardProps): ReactElement {
  const toast = useUi((s) => s.toast);
  const isDesktop = useUi((s) => s.appInfo?.host === 'electron');
  const live = sandbox.status === 'ready' || sandbox.status === 'committed';
  const { pending, conflicts, committed } = changeCounts(changes);
  const strategy = `${STRATEGY_LABELS[sandbox.strategy]}${sandbox.copyMethod ? ` (${sandbox.copyMethod === 'clone' ? 'filesystem clone' : 'plain copy'})` : ''}`;
  const copy = async () =>
    toast(
      (await copyText(sandbox.path))
        ? `Copied ${sandbox.path}`
        : 'The clipboard refused the copy: select the path and copy it by hand.',
      'success',
    );
  const reveal = async () => {
    try {
      const { opened } = await api.revealSandbox({ plan: sandbox.planId, sandbox: sandbox.id });
      if (!opened) toast('No file manager could be started on this system: copy the path instead.', 'error');
    } catch (error) {
      toast(errorMessage(error), 'error');
    }
  };

  return (
    <section className="sandbox-card" aria-label={`Sandbox of ${sandbox.resourceName}`}>
      <header className="sandbox-card-header">
        <Icon name="folder" />
        <span className="sandbox-card-title">{sandbox.resourceName}</span>
        <span className="sandbox-slots">
          {sandbox.slotNames.map((slot) => (
            <span key={slot} className="chip mono">
              {slot}
            </span>
          ))}
        </span>
        <span className="header-spacer" />
        <span className={`badge ${SANDBOX_STATUS[sandbox.status].tone}`}>
          {SANDBOX_STATUS[sandbox.status].label}
        </span>
      </header>
      <dl className="sandbox-facts">
        <dt>Strategy</dt>
        <dd>
          {strategy}
          {sandbox.requestedStrategy !== sandbox.strategy && (
            <span className="muted"> · asked for {STRATEGY_LABELS[sandbox.requestedStrategy]}</span>
          )}
        </dd>
        <dt>Access</dt>
        <dd>
          <AccessBadge access={sandbox.access} />
        </dd>
        <dt>Sandbox</dt>
        <dd className="sandbox-path">
          <code className="mono truncate" title={sandbox.path}>
            {sandbox.path}
          </code>
          <button
            type="button"
            className="btn btn-ghost btn-icon btn-sm"
            aria-label={`Copy path of ${sandbox.resourceName}`}
            title="Copy path"
            onClick={() => void copy()}
          >
            <Icon name="copy" />
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-icon btn-sm"
            aria-label={`Open folder of ${sandbox.resourceName}`}
            title={
              isDesktop ? 'Open folder' : 'Open folder works in the desktop app only; copy the path instead'
            }
            disabled={!isDesktop || !live}
            onClick={() => void reveal()}
          >
            <Icon name="folder" />
          </button>
        </dd>
        <dt>Original</dt>
        <dd>
          <code className="mono truncate" title={sandbox.originalPath}>
            {sandbox.originalPath}
          </code>
        </dd>
      </dl>
      {sandbox.fallbackReason && (
        <Note tone="warning">
          Fell back from {STRATEGY_LABELS[sandbox.requestedStrategy]}: {sandbox.fallbackReason}
        </Note>
      )}
      {sandbox.handlerFailure && <Note tone="warning">{sandbox.handlerFailure}</Note>}
      {sandbox.ignoredCount > 0 && (
        <Note tone="info">
          {sandbox.ignoredCount} {sandbox.strategy === 'git_worktree' ? 'ignored' : 'special'} file
          {sandbox.ignoredCount === 1 ? ' was' : 's were'} not {sandbox.strategy === 'git_worktree' ? 'carried over' : 'copied'}:{' '}
          {sandbox.ignoredFiles.slice(0, 4).join(', ')}
          {sandbox.ignoredCount > 4 ? ', …' : ''}
        </Note>
      )}
      {sandbox.strategy === 'none' && (
        <Note tone="info">
          No sandbox: the tool changes {sandbox.originalPath} in place, so there is nothing to review, commit
          or discard.
        </Note>
      )}
      {sandbox.error && <Note tone="danger">{sandbox.error}</Note>}
      {changes?.violation && <Note tone="danger">{changes.violation}</Note>}
      <footer className="sandbox-card-footer">
        <span className="sandbox-counts" aria-label={`Changes in ${sandbox.resourceName}`}>
          {!live ? (
            <span className="muted">
              {sandbox.status === 'discarded' ? 'Discarded (see the trash to restore)' : 'No changes to show'}
            </span>
          ) : changes === null ? (
            <span className="muted">Counting changes…</span>
          ) : (
            <>
              <span className="count-pill">
                <strong>{pending}</strong> change{pending === 1 ? '' : 's'}
              </span>
              {conflicts > 0 && (
                <span className="count-pill is-conflict">
                  <Icon name="alert" /> <strong>{conflicts}</strong> conflict{conflicts === 1 ? '' : 's'}
                </span>
              )}
              {committed > 0 && <span className="muted">{committed} already in the original</span>}
            </>
          )}
        </span>
        {live && sandbox.strategy !== 'none' && (
          <button
            type="button"
            className="btn btn-sm"
            onClick={() =>
              goTo({ kind: 'review', planId: sandbox.planId, sandboxId: sandbox.id, path: null })
            }
          >
            <Icon name="file" /> Review changes
          </button>
        )}
      </footer>
    </section>
  );
}

function Note({
  tone,
  children,
}: {
  tone: 'warning' | 'info' | 'danger';
  children: React.ReactNode;
}): ReactElement {
  return (
    <div className={`sandbox-note is-${tone}`}>
      <Icon name={tone === 'info' ? 'info' : 'alert'} />
      <span>{children}</span>
    </div>
  );
}
