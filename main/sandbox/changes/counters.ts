/**
 * What change detection did in this process, counted for tests and a test build's server (so a
 * spec can check that opening one file reads that file and nothing else). Never used to decide.
 */

/** Counts since the process started (or the last reset). */
export interface ChangeCounters {
  /** Sides of a path read from disk (the sandbox's and the original's entry: two per path). */
  sidesRead: number;
  /** Full candidate listings (a `git status`, or a scan of a copy against its manifest). */
  detections: number;
  /** Line counts made on the worker thread (line-count-worker.ts). */
  countedOffThread: number;
}

const counters: ChangeCounters = { sidesRead: 0, detections: 0, countedOffThread: 0 };

/** Adds to a counter. */
export function count(name: keyof ChangeCounters, by = 1): void {
  counters[name] += by;
}

/** A snapshot of the counters. */
export function changeCounters(): ChangeCounters {
  return { ...counters };
}

/** Sets every counter back to zero (tests). */
export function resetChangeCounters(): void {
  counters.sidesRead = 0;
  counters.detections = 0;
  counters.countedOffThread = 0;
}
