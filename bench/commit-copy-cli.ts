/**
 * `bindery plans commit --path` of 17 files in a copy sandbox of a 9,000-file folder, as whole
 * processes (issue 22: a commit costs in proportion to the files committed, not to the sandbox).
 * Several CLI builds in one run, interleaved per round (e.g. one built before a change and one
 * after), each on its own plan over its own copy of the tree. Medians of `--runs`.
 * Usage: tsx bench/commit-copy-cli.ts --cli before=DIR/bindery.js,after=DIR/bindery.js [--files 9000] [--runs 3] [--changes 32]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { flag, formatMs, machine, median, numberFlag, table } from './fixtures/report.ts';
import { GIT_ENV, generateRepo } from './fixtures/real-tree.ts';
import { editCommitSet, editSandbox } from './fixtures/sandbox-edits.ts';

const args = process.argv.slice(2);
const files = Math.round(numberFlag(args, '--files', 9_000));
const runs = Math.round(numberFlag(args, '--runs', 3));
const changes = Math.round(numberFlag(args, '--changes', 32));
const clis = flag(args, '--cli', '')
  .split(',')
  .filter(Boolean)
  .map((entry) => {
    const [label, file] = entry.split('=');
    if (!label || !file || !fs.existsSync(file)) throw new Error(`--cli takes label=path/to/bindery.js pairs, not "${entry}"`);
    return { label, entry: path.resolve(file) };
  });
if (clis.length === 0) throw new Error('--cli label=path/to/bindery.js[,label=...] is required');

const TOOL = 'name: bench-copy\nresource_slots:\n  - name: folder\n    resource_type: fs-directory\n    access: read_write\n    binding: contextual\n';

function cli(entry: string, dataDir: string, ...rest: string[]): string {
  return execFileSync(process.execPath, [entry, '--data-dir', dataDir, '--json', ...rest], { env: GIT_ENV, encoding: 'utf8', maxBuffer: 1 << 30 });
}

const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-commit-copy-')));
try {
  const layout = generateRepo(path.join(work, 'tree'), { files });
  const plans = clis.map(({ label, entry }) => {
    const folder = path.join(work, `folder-${label}`);
    // A plain folder (the tree without its .git): the sandbox is a copy, not a git worktree.
    fs.cpSync(layout.root, folder, { recursive: true, filter: (from) => path.relative(layout.root, from).split(path.sep)[0] !== '.git' });
    const dataDir = path.join(work, `data-${label}`);
    fs.writeFileSync(path.join(work, 'tool.yaml'), TOOL);
    cli(entry, dataDir, 'resources', 'add', 'local/folder', '--type', 'fs-directory', '--location', folder);
    cli(entry, dataDir, 'projects', 'add', 'bench');
    cli(entry, dataDir, 'projects', 'link', 'bench', 'local/folder');
    cli(entry, dataDir, 'tools', 'import', path.join(work, 'tool.yaml'));
    const plan = JSON.parse(cli(entry, dataDir, 'plans', 'create', 'bench-copy', '--project', 'bench')) as { plan_id: string; sandboxes: Array<{ path: string; strategy?: string }> };
    const sandbox = plan.sandboxes[0]!.path;
    editSandbox(sandbox, { ...layout, root: folder }, { changes, review: false });
    return { label, entry, dataDir, planId: plan.plan_id, sandbox, samples: [] as number[] };
  });
  console.log(`${layout.files.length} files, ${changes} changes per sandbox, committing ${layout.commitSet.length}`);
  // Round -1 is untimed: the page cache holds both sides and the CLI's code cache is made.
  for (let round = -1; round < runs; round++) {
    for (const plan of round % 2 === 0 ? plans : [...plans].reverse()) {
      editCommitSet(plan.sandbox, layout, round + 2);
      const started = process.hrtime.bigint();
      const run = spawnSync(process.execPath, [plan.entry, '--data-dir', plan.dataDir, 'plans', 'commit', plan.planId, ...layout.commitSet.flatMap((file) => ['--path', file])], { env: GIT_ENV, encoding: 'utf8' });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (run.status !== 0) throw new Error(`${plan.label}: plans commit exited with ${run.status}: ${run.stderr}`);
      if (round >= 0) plan.samples.push(ms);
    }
  }
  const info = machine();
  console.log(`\nplans commit of ${layout.commitSet.length} files, copy sandbox of ${layout.files.length.toLocaleString('en-US')} files: medians of ${runs} (node ${info.node}, ${info.cpus} CPUs, load ${info.load})\n`);
  console.log(table(['cli', 'median', 'runs'], plans.map((p) => [p.label, formatMs(median(p.samples)), p.samples.map((ms) => formatMs(ms)).join(', ')])));
} finally {
  fs.rmSync(work, { recursive: true, force: true, maxRetries: 3 });
}
