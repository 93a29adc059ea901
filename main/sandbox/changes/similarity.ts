/**
 * How alike two files are, as git's rename detection measures it (diffcore-delta): both are cut
 * into chunks (a line, or 64 bytes where a line is longer; a CR before a newline left out), and
 * the bytes of chunks they share, over the larger file's size, is the similarity. A fingerprint
 * keeps what that needs, plus each line's hash so a rename's line counts need no second read.
 */

/** What similarity and line counts need of one file's content. */
export interface Fingerprint {
  size: number;
  /** Chunk hashes, ascending, each once. */
  chunks: Uint32Array;
  /** Bytes of the chunks with the hash at the same index. */
  bytes: Uint32Array;
  /** The hash of each line, in order (shared/diff/line-match.ts matches them). */
  lines: Int32Array;
}

/** git's default: a deleted and an added file at least this alike are a rename (`-M50%`). */
export const RENAME_THRESHOLD = 0.5;

/** Chunk length at most, as git's. */
const CHUNK = 64;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 16777619;

/** The fingerprint of some content. */
export function fingerprint(data: Buffer): Fingerprint {
  const byHash = new Map<number, number>();
  const lines: number[] = [];
  let chunk = FNV_OFFSET;
  let chunkBytes = 0;
  let line = FNV_OFFSET;
  const endChunk = (): void => {
    if (chunkBytes > 0) byHash.set(chunk >>> 0, (byHash.get(chunk >>> 0) ?? 0) + chunkBytes);
    chunk = FNV_OFFSET;
    chunkBytes = 0;
  };
  for (let at = 0; at < data.length; at++) {
    const c = data[at]!;
    line = Math.imul(line ^ c, FNV_PRIME);
    if (c === 0x0d && data[at + 1] === 0x0a) continue;
    chunk = Math.imul(chunk ^ c, FNV_PRIME);
    chunkBytes++;
    if (c === 0x0a) {
      lines.push(line | 0);
      line = FNV_OFFSET;
      endChunk();
    } else if (chunkBytes === CHUNK) endChunk();
  }
  endChunk();
  if (data.length > 0 && data[data.length - 1] !== 0x0a) lines.push(line | 0);
  const chunks = Uint32Array.from(byHash.keys()).sort();
  const bytes = new Uint32Array(chunks.length);
  chunks.forEach((hash, index) => (bytes[index] = byHash.get(hash)!));
  return { size: data.length, chunks, bytes, lines: Int32Array.from(lines) };
}

/** How alike two files are, from 0 to 1; 0 at once when their sizes alone rule out `threshold`. */
export function similarity(a: Fingerprint, b: Fingerprint, threshold = RENAME_THRESHOLD): number {
  const max = Math.max(a.size, b.size);
  const min = Math.min(a.size, b.size);
  // Empty files are never renames (renames.ts does not pair them when exact either).
  if (min === 0 || min < max * threshold) return 0;
  let shared = 0;
  for (let i = 0, j = 0; i < a.chunks.length && j < b.chunks.length; ) {
    if (a.chunks[i]! < b.chunks[j]!) i++;
    else if (a.chunks[i]! > b.chunks[j]!) j++;
    else shared += Math.min(a.bytes[i++]!, b.bytes[j++]!);
  }
  return Math.min(1, shared / max);
}

/** Pairs compared at most: beyond it (thousands of additions and deletions at once) only exact renames are found, as git's rename limit does. */
export const PAIRS_LIMIT = 400_000;

/**
 * Deleted and added files paired by likeness, best first, each at most once: [added index,
 * deleted index, similarity] for every pair at least `threshold` alike. Ties go to the earlier
 * files, so every look pairs the same way.
 */
export function pairBySimilarity(deleted: ReadonlyArray<Fingerprint | null>, added: ReadonlyArray<Fingerprint | null>, threshold = RENAME_THRESHOLD): Array<[number, number, number]> {
  if (deleted.length * added.length > PAIRS_LIMIT) return [];
  const scored: Array<[number, number, number]> = [];
  added.forEach((to, ai) => {
    if (!to) return;
    deleted.forEach((from, di) => {
      if (!from) return;
      const score = similarity(from, to, threshold);
      if (score >= threshold) scored.push([ai, di, score]);
    });
  });
  scored.sort((p, q) => q[2] - p[2] || p[0] - q[0] || p[1] - q[1]);
  const usedAdded = new Set<number>();
  const usedDeleted = new Set<number>();
  const pairs: Array<[number, number, number]> = [];
  for (const [ai, di, score] of scored) {
    if (usedAdded.has(ai) || usedDeleted.has(di)) continue;
    usedAdded.add(ai);
    usedDeleted.add(di);
    pairs.push([ai, di, score]);
  }
  return pairs;
}
