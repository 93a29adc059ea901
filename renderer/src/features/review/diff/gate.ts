/**
 * The large-file gate: when a diff is too big to show without asking (it would cost seconds of
 * diffing and a huge DOM), the viewer first says how big it is and offers "Show anyway".
 */
import type { DiffFile } from './file-diff.ts';
import { formatBytes, formatCount } from './format.ts';

/** Changed lines above which a diff waits behind the gate (a 10,000-line file rewritten is 20,000). */
export const GATE_CHANGED_LINES = 20_000;

/** Characters of both texts together above which a diff waits behind the gate. */
export const GATE_TEXT_CHARS = 4_000_000;

/** Why a file is gated: its changed lines (when known) and its text size (when loaded). */
export interface GateReason {
  changedLines: number | null;
  chars: number | null;
}

/** The reason to gate `file`, or null to show it at once. Binary files are never gated (they show sizes). */
export function gateReason(file: DiffFile): GateReason | null {
  if (file.binary) return null;
  const counted = file.additions != null || file.deletions != null;
  const changedLines = counted ? (file.additions ?? 0) + (file.deletions ?? 0) : null;
  const hasText = file.oldText != null || file.newText != null;
  const chars = hasText ? (file.oldText?.length ?? 0) + (file.newText?.length ?? 0) : null;
  const large =
    file.tooLarge === true || (changedLines ?? 0) > GATE_CHANGED_LINES || (chars ?? 0) > GATE_TEXT_CHARS;
  return large ? { changedLines, chars } : null;
}

/** The sentence the gate shows ("This file has 48,213 changed lines."). */
export function gateMessage(reason: GateReason, file: Pick<DiffFile, 'oldSize' | 'newSize'>): string {
  if (reason.changedLines !== null) return `This file has ${formatCount(reason.changedLines)} changed lines.`;
  const bytes = reason.chars ?? Math.max(file.oldSize ?? 0, file.newSize ?? 0);
  return `This diff is large (${formatBytes(bytes)}).`;
}
