/** The header: the screen's name, and where the data lives and which host serves it. */
import type { ReactElement } from 'react';
import { Icon } from '../components/icons.tsx';
import { errorMessage } from '../lib/errors.ts';
import { useConnection } from '../stores/connection-store.ts';
import { useUi, type Route } from '../stores/ui-store.ts';

const TITLES: Record<Route, string> = {
  resources: 'Resources',
  projects: 'Projects',
  tools: 'Tools',
  types: 'Resource types',
  inspector: 'Binding inspector',
  plans: 'Plans',
  activity: 'Activity',
};

/** The bar above the content. */
export function Header(): ReactElement {
  const route = useUi((state) => state.route);
  const info = useUi((state) => state.appInfo);
  const infoError = useUi((state) => state.appInfoError);
  const connected = useConnection((state) => state.connected);
  const hostLabel = info
    ? info.host === 'electron'
      ? 'Desktop app'
      : `Web app · ${window.location.host}`
    : null;
  return (
    <header className="header">
      <span className="header-title">{TITLES[route]}</span>
      <span className="header-spacer" />
      {info && (
        <div className="header-meta">
          <span className="conn-dot" data-state={connected ? 'online' : 'offline'} aria-hidden="true" />
          <span>{hostLabel}</span>
          <span aria-hidden="true">·</span>
          <Icon name="database" size={14} />
          <span className="visually-hidden">Data directory</span>
          <span className="mono truncate" title={info.dataDir} data-testid="data-dir">
            {info.dataDir}
          </span>
        </div>
      )}
      {!info && infoError !== null && (
        <div className="header-meta" title={errorMessage(infoError)}>
          <span className="conn-dot" data-state="offline" aria-hidden="true" />
          <span>Not connected</span>
        </div>
      )}
    </header>
  );
}
