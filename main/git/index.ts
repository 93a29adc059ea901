/**
 * The git module's face: every git invocation in Bindery goes through it. Text answers run
 * through simple-git; stdin, streamed and byte output through a direct spawn (spawn-runner.ts).
 */
export { git, gitStream, gitText, isObjectId, splitNul } from './git.ts';
export { BINDERY_IDENTITY, gitEnvironment, withoutRepositoryVariables } from './environment.ts';
export { parsePorcelainV2, workTreeStatus, type WorkTreeStatus } from './status.ts';
export { workTreeRoot } from './top-level.ts';
export { gitVersion, isSupportedGit, MINIMUM_GIT, type GitVersion } from './version.ts';
export type { GitOptions, GitResult } from './types.ts';
