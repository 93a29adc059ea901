/**
 * A vertical separator that resizes the panel before it: drag it, or focus it and use the arrow
 * keys (Shift for bigger steps, Home/End for the bounds), as ARIA's window-splitter pattern says.
 * usePersistedWidth keeps the width in localStorage so the layout survives a restart.
 */
import { useCallback, useState, type KeyboardEvent, type PointerEvent, type ReactElement } from 'react';
import { clampWidth, readWidth, widthAfterKey, type WidthBounds } from '../lib/panel-width.ts';

/** A width remembered under `key`, and its setter (which clamps and stores). */
export function usePersistedWidth(key: string, bounds: WidthBounds): [number, (width: number) => void] {
  const [width, setWidth] = useState(() => readWidth(storage(), key, bounds));
  const set = useCallback(
    (next: number) => {
      const clamped = clampWidth(next, bounds);
      setWidth(clamped);
      try {
        storage()?.setItem(key, String(clamped));
      } catch {
        // A full or disabled storage only loses the remembered width.
      }
    },
    [key, bounds],
  );
  return [width, set];
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** Props: the panel's width and bounds, what it resizes (for the label) and the setter. */
export interface ResizeHandleProps {
  width: number;
  bounds: WidthBounds;
  label: string;
  /** The id of the resized panel, for aria-controls. */
  controls?: string;
  onResize(width: number): void;
}

/** The drag handle and keyboard separator. */
export function ResizeHandle({ width, bounds, label, controls, onResize }: ResizeHandleProps): ReactElement {
  const [dragging, setDragging] = useState(false);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    handle.focus();
    const startX = event.clientX;
    const startWidth = width;
    setDragging(true);
    const move = (e: globalThis.PointerEvent) => onResize(startWidth + e.clientX - startX);
    const up = () => {
      setDragging(false);
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = widthAfterKey(width, event.key, event.shiftKey, bounds);
    if (next === null) return;
    event.preventDefault();
    event.stopPropagation();
    onResize(next);
  };
  return (
    <div
      className={dragging ? 'resize-handle is-dragging' : 'resize-handle'}
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-controls={controls}
      aria-valuenow={width}
      aria-valuemin={bounds.min}
      aria-valuemax={bounds.max}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      onDoubleClick={() => onResize(bounds.initial)}
      title="Drag to resize; double-click to reset"
    />
  );
}
