/**
 * The controls of a partial commit in the diff table: the hunk column (a tri-state checkbox on a
 * hunk's first row, a handle along its other rows) and the props that turn a changed line's
 * number gutter into its toggle. Keys: Space toggles the focused control, arrows move between them.
 */
import { useEffect, useRef, type KeyboardEvent, type MouseEvent, type ReactElement } from 'react';
import type { LinePick } from './use-line-pick.ts';

const NOT_CHOSEN_HINT = 'Left out of the commit: click to take this line (Shift+click for a range)';
const CHOSEN_HINT = 'Taken in the commit: click to leave this line out (Shift+click for a range)';

/** The hunk column of one row (an empty cell outside hunks and on header rows). */
export function PickCell({ pick, row }: { pick: LinePick; row: number }): ReactElement {
  const place = pick.rows[row] ?? null;
  if (!place) return <span role="cell" className="diff-pick" />;
  const state = pick.hunkState(place.id);
  const cls = `diff-pick is-in-hunk is-${state}${place.first ? ' is-first' : ''}${place.last ? ' is-last' : ''}`;
  if (!place.first) {
    // The handle along a hunk toggles it too (as in GitHub Desktop); the checkbox is the named control.
    return (
      <span
        role="cell"
        className={cls}
        aria-hidden="true"
        title={pick.blocked ?? undefined}
        onClick={pick.blocked ? undefined : () => pick.toggleHunk(place.id)}
      />
    );
  }
  return (
    <span role="cell" className={cls}>
      <HunkBox
        state={state}
        id={place.id}
        blocked={pick.blocked}
        onToggle={() => pick.toggleHunk(place.id)}
      />
    </span>
  );
}

function HunkBox({
  state,
  id,
  blocked,
  onToggle,
}: {
  state: 'all' | 'none' | 'some';
  id: number;
  blocked: string | null;
  onToggle(): void;
}): ReactElement {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'some';
  }, [state]);
  const label = `Hunk ${id}: ${state === 'all' ? 'taken' : state === 'none' ? 'left out' : 'partly taken'}`;
  return (
    <input
      ref={ref}
      type="checkbox"
      className="diff-pick-box"
      data-pick="hunk"
      data-hunk={id}
      checked={state === 'all'}
      aria-checked={state === 'some' ? 'mixed' : state === 'all'}
      aria-label={`Take hunk ${id} in the commit`}
      title={blocked ?? `${label}. Space or click to ${state === 'all' ? 'leave it out' : 'take all of it'}.`}
      disabled={blocked !== null}
      onChange={onToggle}
      onKeyDown={moveFocus}
    />
  );
}

/**
 * A line number cell; for a choosable changed line, its number is the line's toggle (a checkbox
 * filling the cell), muted when the line is left out.
 */
export function NumCell({
  pick,
  line,
  className,
  no,
}: {
  pick: LinePick | null | undefined;
  line: number;
  className: string;
  no: number | null;
}): ReactElement {
  const key = pick && line >= 0 ? (pick.keys[line] ?? null) : null;
  if (!pick || key === null) {
    return (
      <span role="cell" className={className}>
        {no ?? ''}
      </span>
    );
  }
  const on = pick.chosen.has(key);
  const toggle = (event: MouseEvent | KeyboardEvent) => {
    event.preventDefault();
    pick.toggleLine(line, event.shiftKey);
  };
  const side = key.startsWith('-') ? 'deleted' : 'added';
  return (
    <span role="cell" className={`${className} is-pickable ${on ? 'is-picked' : 'is-unpicked'}`}>
      <span
        role="checkbox"
        className="diff-num-pick"
        data-pick="line"
        data-line-key={key}
        aria-checked={on}
        aria-disabled={pick.blocked !== null || undefined}
        aria-label={`Take ${side} line ${no ?? ''} in the commit`}
        title={pick.blocked ?? (on ? CHOSEN_HINT : NOT_CHOSEN_HINT)}
        tabIndex={-1}
        onMouseDown={(event) => {
          if (event.shiftKey) event.preventDefault(); // no text selection on a range click
        }}
        onClick={pick.blocked ? undefined : toggle}
        onKeyDown={(event) => {
          if (!pick.blocked && (event.key === ' ' || event.key === 'Enter')) {
            event.stopPropagation();
            toggle(event);
          } else moveFocus(event);
        }}
      >
        {no ?? ''}
      </span>
    </span>
  );
}

/** Whether a line drawn in the table is a changed line left out of the commit. */
export function isUnpicked(pick: LinePick | null | undefined, line: number): boolean {
  const key = pick?.keys[line] ?? null;
  return key !== null && pick !== null && pick !== undefined && !pick.chosen.has(key);
}

/** ArrowDown/ArrowUp from one pick control to the next or previous one drawn. */
function moveFocus(event: KeyboardEvent): void {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const here = event.currentTarget as HTMLElement;
  const all = [...(here.closest('.diff-canvas')?.querySelectorAll<HTMLElement>('[data-pick]') ?? [])];
  const next = all[all.indexOf(here) + (event.key === 'ArrowDown' ? 1 : -1)];
  if (!next) return;
  event.preventDefault();
  event.stopPropagation();
  next.focus();
  next.scrollIntoView({ block: 'nearest' });
}
