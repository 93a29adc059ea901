/**
 * What every git Bindery runs is given, whichever runner starts it: the settings that keep it
 * from running the user's hooks or daemons, and an environment that cannot aim it at another
 * repository.
 */
import type { GitOptions } from './types.ts';

/** No hooks, exact names, no fsmonitor daemon, and no recursing into submodules (whatever `submodule.recurse` says). */
export const SAFETY_ARGS: readonly string[] = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.quotepath=off',
  '-c',
  'advice.detachedHead=false',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'submodule.recurse=false',
];

/** The identity Bindery writes its own snapshot commits with, independent of user config. */
export const BINDERY_IDENTITY = {
  GIT_AUTHOR_NAME: 'Bindery',
  GIT_AUTHOR_EMAIL: 'bindery@localhost',
  GIT_COMMITTER_NAME: 'Bindery',
  GIT_COMMITTER_EMAIL: 'bindery@localhost',
};

/**
 * What `git rev-parse --local-env-vars` lists, plus GIT_NAMESPACE: variables that point git at a
 * repository, index or config other than the folder it runs in. Inherited from whoever started
 * Bindery (a hook, an alias, a terminal inside a git command), they would make git act on the
 * user's repository instead.
 */
const REPOSITORY_VARIABLES = new Set([
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_OBJECT_DIRECTORY',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_IMPLICIT_WORK_TREE',
  'GIT_GRAFT_FILE',
  'GIT_INDEX_FILE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_REPLACE_REF_BASE',
  'GIT_PREFIX',
  'GIT_INTERNAL_SUPER_PREFIX',
  'GIT_SHALLOW_FILE',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
]);
/** The GIT_CONFIG_KEY_<n> / GIT_CONFIG_VALUE_<n> pairs that GIT_CONFIG_COUNT enables. */
const CONFIG_PAIR = /^GIT_CONFIG_(KEY|VALUE)_\d+$/;

/** `env` less the variables that aim git at another repository (for git, and for tools that run git in a sandbox). */
export function withoutRepositoryVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    // Upper-cased: Windows environment names are case-insensitive.
    const upper = name.toUpperCase();
    if (!REPOSITORY_VARIABLES.has(upper) && !CONFIG_PAIR.test(upper)) kept[name] = value;
  }
  return kept;
}

/** The environment for any git Bindery runs: its own, less the variables that aim git elsewhere, with `extra` on top. */
export function gitEnvironment(extra?: Record<string, string>): NodeJS.ProcessEnv {
  return { ...withoutRepositoryVariables(process.env), ...extra };
}

/** One invocation's environment: read without touching the user's index, never prompt, C locale for parsable messages. */
export function invocationEnvironment(options: Pick<GitOptions, 'env' | 'optionalLocks'>): NodeJS.ProcessEnv {
  return gitEnvironment({ GIT_OPTIONAL_LOCKS: options.optionalLocks ? '1' : '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...options.env });
}
