/**
 * A list of items beside the selected one's detail (projects, tools). The first item is shown
 * until the user picks another; the list is a listbox for assistive tech.
 */
import type { ReactElement, ReactNode } from 'react';

/** Items, how to draw each entry, and the detail of the selection. */
export interface MasterDetailProps<T extends { id: string }> {
  label: string;
  items: T[];
  selected: T | null;
  onSelect(item: T): void;
  title(item: T): ReactNode;
  meta(item: T): ReactNode;
  detail(item: T): ReactNode;
}

/** The split view. */
export function MasterDetail<T extends { id: string }>(props: MasterDetailProps<T>): ReactElement {
  const { label, items, selected, onSelect, title, meta, detail } = props;
  return (
    <div className="split">
      <div className="split-list">
        <div className="split-list-items" role="listbox" aria-label={label}>
          {items.map((item) => (
            <button type="button" role="option" key={item.id} className="list-item" aria-selected={item.id === selected?.id} onClick={() => onSelect(item)}>
              <span className="list-item-title">{title(item)}</span>
              <span className="list-item-meta truncate">{meta(item)}</span>
            </button>
          ))}
        </div>
      </div>
      <div className="split-detail">{selected && detail(selected)}</div>
    </div>
  );
}
