/** The shapes of a git invocation, shared by both runners. */

/** Options of one git invocation. */
export interface GitOptions {
  cwd: string;
  /** Extra environment (e.g. GIT_INDEX_FILE for a temporary index). */
  env?: Record<string, string>;
  /** Bytes written to stdin. */
  input?: string | Buffer;
  signal?: AbortSignal;
  /**
   * Stops git when it has printed nothing this long (for reads of folders that may hang, e.g. on a
   * network drive). The call answers then even if git lingers: reads only, never writes.
   */
  timeoutMs?: number;
  /** Exit codes that are not failures (default [0]). */
  okCodes?: number[];
  /** Lets git refresh an index it reads: only in Bindery's own worktrees, never in an original. */
  optionalLocks?: boolean;
}

/** What git printed and how it ended. */
export interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}
