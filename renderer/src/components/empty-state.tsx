/** The "nothing here yet" panel: says what the screen is for and offers the next action. */
import type { ReactElement, ReactNode } from 'react';
import { Icon, type IconName } from './icons.tsx';

/** Icon, title, one sentence and the actions that fill the screen. */
export function EmptyState({ icon, title, children, actions }: { icon: IconName; title: string; children?: ReactNode; actions?: ReactNode }): ReactElement {
  return (
    <div className="empty">
      <div className="empty-icon">
        <Icon name={icon} size={22} />
      </div>
      <div className="empty-title">{title}</div>
      {children && <div className="empty-body">{children}</div>}
      {actions && <div className="empty-actions">{actions}</div>}
    </div>
  );
}
