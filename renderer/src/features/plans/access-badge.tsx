/** An access mode as a badge: neutral for read only, amber for read / write, blue for write only. */
import type { ReactElement } from 'react';
import type { AccessMode } from '../../../../shared/model.ts';
import { ACCESS_LABELS } from '../../lib/labels.ts';

const TONE: Record<AccessMode, string> = {
  read_only: 'badge',
  read_write: 'badge badge-warning',
  write_only: 'badge badge-accent',
};

/** The badge. */
export function AccessBadge({ access }: { access: AccessMode }): ReactElement {
  return <span className={TONE[access]}>{ACCESS_LABELS[access]}</span>;
}
