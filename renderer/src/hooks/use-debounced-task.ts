/**
 * Runs a check a moment after its input stops changing (folder inspection, tool validation as
 * you type), and drops answers that arrive after the input has changed again.
 */
import { useEffect, useRef } from 'react';

/** Runs `task` `delayMs` after `key` last changed; `key` null skips. A failure reports null. */
export function useDebouncedTask<T>(key: string | null, task: () => Promise<T>, onResult: (value: T | null) => void, delayMs: number): void {
  const latest = useRef({ task, onResult });
  useEffect(() => {
    latest.current = { task, onResult };
  });
  useEffect(() => {
    if (key === null) return;
    let current = true;
    const timer = setTimeout(() => {
      latest.current.task().then(
        (value) => current && latest.current.onResult(value),
        () => current && latest.current.onResult(null),
      );
    }, delayMs);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, delayMs]);
}
