/**
 * A revert commit for a git commit Bindery made, after its files were undone in the working tree.
 * `git revert` itself refuses there (the restored files differ from the index), and it would
 * check files out; so the revert is built as `git revert --no-edit` builds it, in a temporary
 * index: the parent's tree when HEAD is that commit, else a three-way merge (base: the commit,
 * ours: HEAD, theirs: its parent) that must be clean. The branch moves by compare-and-swap; the
 * working tree is never written, and the user's index only where it still matched HEAD.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ulid } from 'ulid';
import { git, gitText, splitNul } from '../../git/index.ts';
import { decodeName } from '../fs/index.ts';
import { currentBranch } from './git-commit.ts';
import { mergeThreeWay } from './merge.ts';

/** A revert made, or refused with the reason in words. */
export type RevertOutcome = { kind: 'reverted'; commit: string; paths: string[] } | { kind: 'refused'; reason: string };

/** Makes the revert commit of `sha` on the current branch of `repo` (see the file's note). */
export async function revertGitCommit(repo: string, sha: string, tempDir: string): Promise<RevertOutcome> {
  const branch = await currentBranch(repo);
  const short = sha.slice(0, 12);
  const head = await rev(repo, `${branch}^{commit}`);
  const target = await rev(repo, `${sha}^{commit}`);
  if (!head || !target) return { kind: 'refused', reason: `git commit ${short} is not in ${repo} any more.` };
  const ancestor = await git('merge-base --is-ancestor', ['merge-base', '--is-ancestor', target, head], { cwd: repo, okCodes: [0, 1] });
  if (ancestor.code !== 0) {
    return { kind: 'refused', reason: `git commit ${short} is not on the current branch (${branch.replace('refs/heads/', '')}), so there is nothing to revert there.` };
  }
  const parent = await rev(repo, `${target}^1`);
  const parentTree = parent ? `${parent}^{tree}` : await gitText('mktree', ['mktree', '-z'], { cwd: repo, input: '' });
  await fs.mkdir(tempDir, { recursive: true });
  const tempIndex = path.join(tempDir, `revert-index-${ulid()}`);
  const env = { GIT_INDEX_FILE: tempIndex };
  try {
    if (head === target) await git('read-tree', ['read-tree', parentTree], { cwd: repo, env });
    else {
      await git('read-tree -m', ['read-tree', '-m', '-i', '--aggressive', `${target}^{tree}`, `${head}^{tree}`, parentTree], { cwd: repo, env });
      const clash = await settleUnmerged(repo, env, tempDir);
      if (clash.length > 0) {
        const names = clash.slice(0, 3).join(', ') + (clash.length > 3 ? ` and ${clash.length - 3} more` : '');
        return {
          kind: 'refused',
          reason: `the branch changed ${names} again after git commit ${short}, so its revert does not apply cleanly. Revert it yourself in git and settle the conflicts there.`,
        };
      }
    }
    const tree = await gitText('write-tree', ['write-tree'], { cwd: repo, env });
    const subject = await gitText('log -1', ['log', '-1', '--format=%s', target], { cwd: repo });
    const message = `Revert "${subject}"\n\nThis reverts commit ${target}.`;
    const commit = await gitText('commit-tree', ['commit-tree', tree, '-p', head, '-m', message], { cwd: repo });
    await git('update-ref', ['update-ref', '-m', `bindery: revert ${short}`, branch, commit, head], { cwd: repo });
    const paths = await refreshUserIndex(repo, head, commit);
    return { kind: 'reverted', commit, paths };
  } finally {
    await fs.rm(tempIndex, { force: true });
  }
}

async function rev(repo: string, spec: string): Promise<string | null> {
  const result = await git('rev-parse', ['rev-parse', '--verify', '-q', spec], { cwd: repo, okCodes: [0, 1, 128] });
  return result.code === 0 ? result.stdout.toString('utf8').trim() : null;
}

/** Merges each path read-tree left unmerged, when all three sides are text files; returns the paths that still clash. */
async function settleUnmerged(repo: string, env: Record<string, string>, tempDir: string): Promise<string[]> {
  const listed = await git('ls-files -u', ['ls-files', '-u', '-z'], { cwd: repo, env });
  const byPath = new Map<string, { name: Buffer; stages: Map<number, { mode: string; blob: string }> }>();
  for (const record of splitNul(listed.stdout)) {
    const tab = record.indexOf(9);
    const [mode, blob, stage] = record.subarray(0, tab).toString('utf8').split(' ');
    const name = record.subarray(tab + 1);
    const key = decodeName(name);
    const entry = byPath.get(key) ?? { name, stages: new Map() };
    entry.stages.set(Number(stage), { mode: mode!, blob: blob! });
    byPath.set(key, entry);
  }
  const clash: string[] = [];
  for (const [key, { name, stages }] of byPath) {
    const [base, ours, theirs] = [stages.get(1), stages.get(2), stages.get(3)];
    if (!base || !ours || !theirs || ![base, ours, theirs].every((s) => s.mode.startsWith('100')) || ours.mode !== theirs.mode) {
      clash.push(key);
      continue;
    }
    const [b, o, t] = await Promise.all([base, ours, theirs].map((s) => git('cat-file', ['cat-file', 'blob', s.blob], { cwd: repo }).then((r) => r.stdout)));
    const merged = await mergeThreeWay(b!, o!, t!, tempDir, key);
    if (merged.kind === 'conflicts') {
      clash.push(key);
      continue;
    }
    const blob = await gitText('hash-object', ['hash-object', '-w', '--stdin'], { cwd: repo, input: merged.content });
    // A stage-0 entry replaces the path's unmerged stages.
    const line = Buffer.concat([Buffer.from(`${ours.mode} ${blob}\t`), name, Buffer.from([0])]);
    await git('update-index --index-info', ['update-index', '-z', '--index-info'], { cwd: repo, env, input: line });
  }
  return clash;
}

/**
 * Points the user's index at the new HEAD for the paths the revert changed, where the index still
 * held the old HEAD's entry (staged work of the user is left alone), so `git status` stays true.
 */
async function refreshUserIndex(repo: string, oldHead: string, newHead: string): Promise<string[]> {
  const changed = await git('diff-tree', ['diff-tree', '-r', '-z', '--no-renames', oldHead, newHead], { cwd: repo });
  const records = splitNul(changed.stdout);
  const entries: Array<{ name: Buffer; mode: string; blob: string }> = [];
  for (let i = 0; i + 1 < records.length; i += 2) {
    const [, mode, , blob] = records[i]!.toString('utf8').slice(1).split(' ');
    entries.push({ name: records[i + 1]!, mode: mode!, blob: blob! });
  }
  if (entries.length === 0) return [];
  // Paths whose index entry differs from the old HEAD were staged by the user since: left as they are.
  const staged = await git('diff-index --cached', ['diff-index', '--cached', '-z', '--name-only', '--no-renames', oldHead], { cwd: repo });
  const skip = new Set(splitNul(staged.stdout).map(decodeName));
  const lines = entries
    .filter((e) => !skip.has(decodeName(e.name)))
    .map((e) => Buffer.concat([Buffer.from(`${/^0+$/.test(e.mode) ? '0' : e.mode} ${e.blob}\t`), e.name, Buffer.from([0])]));
  if (lines.length > 0) await git('update-index --index-info (user index)', ['update-index', '-z', '--index-info'], { cwd: repo, input: Buffer.concat(lines), okCodes: [0, 128] });
  return entries.map((e) => decodeName(e.name));
}
