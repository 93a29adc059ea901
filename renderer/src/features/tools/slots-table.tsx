/** A tool's resource slots: what each needs and how it binds. */
import type { ReactElement } from 'react';
import type { ResourceSlot } from '../../../../shared/model.ts';
import { ACCESS_LABELS } from '../../lib/labels.ts';

/** The slots as a table, in declaration order (the order resolution follows). */
export function SlotsTable({ slots }: { slots: ResourceSlot[] }): ReactElement {
  if (slots.length === 0) return <p className="muted">This tool declares no resource slots: it needs no folders.</p>;
  return (
    <table className="simple-table" aria-label="Resource slots">
      <colgroup>
        <col style={{ width: '15%' }} />
        <col style={{ width: '17%' }} />
        <col style={{ width: '112px' }} />
        <col style={{ width: '96px' }} />
        <col />
        <col style={{ width: '84px' }} />
      </colgroup>
      <thead>
        <tr>
          <th>Slot</th>
          <th>Type</th>
          <th>Access</th>
          <th>Binding</th>
          <th>Static resource</th>
          <th>Required</th>
        </tr>
      </thead>
      <tbody>
        {slots.map((slot) => (
          <tr key={slot.name}>
            <td className="mono">{slot.name}</td>
            <td>
              <span className="chip">{slot.resourceType}</span>
            </td>
            <td>
              <span className={slot.access === 'read_only' ? 'badge' : slot.access === 'read_write' ? 'badge badge-warning' : 'badge badge-accent'}>{ACCESS_LABELS[slot.access]}</span>
            </td>
            <td>{slot.binding}</td>
            <td className="mono" title={slot.staticResource ?? undefined}>
              {slot.staticResource ?? <span className="faint">—</span>}
            </td>
            <td>{slot.required ? 'yes' : <span className="muted">optional</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
