/** The title row of a screen: name, one line on what it holds, and its primary actions. */
import type { ReactElement, ReactNode } from 'react';

/** Title, subtitle and actions aligned to the right. */
export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: ReactNode; actions?: ReactNode }): ReactElement {
  return (
    <div className="page-header">
      <div>
        <h1 className="page-title">{title}</h1>
        {subtitle && <p className="page-subtitle">{subtitle}</p>}
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </div>
  );
}
