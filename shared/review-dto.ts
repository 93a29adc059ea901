/**
 * The review's own records (issue 23): notes a person leaves for the tool, "viewed" marks, and
 * the checkpoints a run leaves in each sandbox so one run's changes can be shown alone.
 */

/** Which side of a diff a line note is anchored to: the original's lines or the sandbox's. */
export type NoteSide = 'old' | 'new';

/** Open notes go to the tool on its next run; resolved ones are kept for the record. */
export type NoteStatus = 'open' | 'resolved';

/** The most characters a note's text holds, whichever host writes it. */
export const NOTE_BODY_MAX = 20_000;

/**
 * A review note. Its scope follows from what is set: the whole plan (no sandbox), a sandbox (no
 * path), a whole file (path, no lines), or lines `fromLine..toLine` of one side of a file's diff.
 */
export interface ReviewNote {
  id: string;
  planId: string;
  sandboxId: string | null;
  /** The resource of the sandbox, for display; null for a note on the whole plan. */
  resourceName: string | null;
  path: string | null;
  side: NoteSide | null;
  fromLine: number | null;
  toLine: number | null;
  /** The text of the anchored lines when the note was written (null for file and plan notes). */
  anchorText: string | null;
  body: string;
  status: NoteStatus;
  /** The anchored lines no longer hold `anchorText` (the file changed under the note). */
  outdated: boolean;
  createdAt: string;
  updatedAt: string;
  resolvedAt: string | null;
}

/** A file's "viewed" mark; `stale` when the file changed again after it was marked. */
export interface ViewedMark {
  path: string;
  viewedAt: string;
  stale: boolean;
}

/** One run of the tool as the review can scope to it: its checkpoints in each sandbox. */
export interface RunCheckpoint {
  runId: string;
  sandboxId: string;
  startedAt: string;
  /** Null while the run works (or if it never recorded its end). */
  endedAt: string | null;
}

/**
 * A run's checkpoint of one sandbox as recorded: a private git commit (`ref` its id) or a copy's
 * manifest (`ref` its file name). Declared once for the registry and the engine's store port.
 */
export interface StoredCheckpoint {
  runId: string;
  sandboxId: string;
  moment: 'start' | 'end';
  kind: 'commit' | 'manifest';
  ref: string;
  at: string;
}

/** What the review screen shows beside a sandbox's change list. */
export interface ReviewState {
  sandboxId: string;
  marks: ViewedMark[];
  /** The newest viewed mark's time: "changes since my last review" starts here (null: never). */
  lastReviewAt: string | null;
  /** Runs of the tool in this sandbox, oldest first. */
  runs: RunCheckpoint[];
  /** The changed paths the asked scope shows (null: every change, the scope "all"). */
  scopePaths: string[] | null;
}

/** Which changes the review shows: all, those since the last review, or one run's. */
export type ReviewScope = { kind: 'all' } | { kind: 'since_review' } | { kind: 'run'; runId: string };
