import fs from 'node:fs'; import path from 'node:path'; import { createHash } from 'node:crypto';
import { checkOps } from '../main/sandbox/journal/check-ops.ts';
import type { TransactionOp } from '../main/sandbox/journal/index.ts';
const root = process.argv[2]!; fs.rmSync(root, { recursive: true, force: true });
const ops: TransactionOp[] = [];
const hashedAtMs = Date.now() + 10_000;
for (let i = 0; i < 200; i++) {
  const rel = `dir-${i % 10}/file-${i}.dat`;
  for (const side of ['t', 's']) { const f = path.join(root, side, rel); fs.mkdirSync(path.dirname(f), { recursive: true }); fs.writeFileSync(f, `${side}${i}`); }
  const seen = (f: string) => { const s = fs.lstatSync(f); return { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, hashedAtMs }; };
  const sha = (b: string) => createHash('sha256').update(b).digest('hex');
  ops.push({ relPath: rel, kind: 'write', sourcePath: path.join(root, 's', rel), sourceContent: { sha256: sha(`s${i}`), seen: seen(path.join(root, 's', rel)) },
    expect: { kind: 'file', sha256: sha(`t${i}`), seen: seen(path.join(root, 't', rel)) } });
}
const times: number[] = [];
for (let r = 0; r < 60; r++) {
  const t = process.hrtime.bigint();
  const { drifted } = await checkOps(path.join(root, 't'), ops, 16);
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
  if (drifted.length) throw new Error(JSON.stringify(drifted[0]));
}
times.sort((a, b) => a - b); console.log('checkOps 200 ops med', times[30]!.toFixed(2), 'min', times[0]!.toFixed(2));
