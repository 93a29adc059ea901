/**
 * Launchers for tests: the real `bindery` command, in-process through main() or as a process
 * through bin/bindery.js (TypeScript children are launched through child-process.ts).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams, type SpawnOptionsWithoutStdio, type SpawnSyncOptions, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { main } from '../cli/main.ts';
import { REPO_ROOT } from './child-process.ts';
import { GIT_ENV, gitRepo, tempDir } from './fixtures.ts';

/** The `bindery` command as shipped (runs the bundle, or the sources through tsx in a checkout). */
export const BINDERY_JS = path.join(REPO_ROOT, 'bin', 'bindery.js');

/** Environment of a spawned CLI: git's test identity, and no BINDERY_HOME from the developer's shell. */
export const CLI_ENV: NodeJS.ProcessEnv = { ...GIT_ENV, BINDERY_HOME: '' };

/** The outcome of one CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON. */
  json<T = unknown>(): T;
}

/** Runs the real CLI in-process against `dataDir`. */
export async function runCli(dataDir: string, args: string[], stdin = ''): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(
    ['--data-dir', dataDir, ...args],
    { out: (text) => (stdout += text), err: (text) => (stderr += text) },
    async () => stdin,
  );
  return { code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T };
}

/** node's arguments that run `bindery --data-dir <dataDir> ...args`. */
export function cliArgs(dataDir: string, args: readonly string[]): string[] {
  return [BINDERY_JS, '--data-dir', dataDir, ...args];
}

/** Starts `bindery` as a process, from the repository root with CLI_ENV unless `options` says otherwise. */
export function spawnCli(dataDir: string, args: readonly string[], options: SpawnOptionsWithoutStdio = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, cliArgs(dataDir, args), { cwd: REPO_ROOT, env: CLI_ENV, ...options });
}

/** Runs `bindery` as a process to its end (see spawnCli); output as text. */
export function runCliProcess(dataDir: string, args: readonly string[], options: SpawnSyncOptions = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, cliArgs(dataDir, args), { cwd: REPO_ROOT, env: CLI_ENV, ...options, encoding: 'utf8' });
}

/** A plan created through the CLI over a fresh data directory and repository. */
export interface CliPlan {
  data: string;
  repo: string;
  planId: string;
  sandboxPath: string;
}

/**
 * Registers a checkout of `files` as `local/app` in project `demo`, imports `toolText` as
 * `<tool>.yaml` and creates a plan of `tool`, all through the in-process CLI.
 */
export async function cliPlan(tool: string, toolText: string, files: Record<string, string> = { 'README.md': '# app\n' }): Promise<CliPlan> {
  const data = tempDir('bindery-cli-');
  const repo = gitRepo(files);
  const toolFile = path.join(tempDir(), `${tool}.yaml`);
  fs.writeFileSync(toolFile, toolText);
  for (const args of [
    ['resources', 'add', 'local/app', '--type', 'git-checkout', '--location', repo],
    ['projects', 'add', 'demo'],
    ['projects', 'link', 'demo', 'local/app'],
    ['tools', 'import', toolFile],
  ]) {
    const done = await runCli(data, args);
    if (done.code !== 0) throw new Error(`bindery ${args.join(' ')} failed: ${done.stderr}`);
  }
  const created = await runCli(data, ['--json', 'plans', 'create', tool, '--project', 'demo']);
  if (created.code !== 0) throw new Error(`bindery plans create failed: ${created.stderr}`);
  const plan = created.json<{ plan_id: string; bound_resources: Array<{ sandbox_path: string }> }>();
  return { data, repo, planId: plan.plan_id, sandboxPath: plan.bound_resources[0]!.sandbox_path };
}
