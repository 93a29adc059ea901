/**
 * The fingerprint of a diff's two texts, made once per pair: a partial choice sends it so the
 * engine refuses a file changed since, and hashing both texts of a large file on every toggle
 * click would make each click cost as much as reading the file.
 */
import { textsFingerprint } from '../../../../../shared/patch-selection.ts';

/** Remembers the fingerprint of the last pair of texts asked for; made on the first ask, not before. */
export class TextsFingerprintMemo {
  private oldText: string | null = null;
  private newText: string | null = null;
  private value: string | null = null;

  /** `hash` is injectable so tests can count how often the texts are hashed. */
  constructor(private readonly hash: (oldText: string, newText: string) => string = textsFingerprint) {}

  /** The fingerprint of these texts: the remembered one while they are the same texts. */
  of(oldText: string, newText: string): string {
    // Same strings are usually the same objects here (the diff's texts), so this compares pointers.
    if (this.value === null || oldText !== this.oldText || newText !== this.newText) {
      this.value = this.hash(oldText, newText);
      this.oldText = oldText;
      this.newText = newText;
    }
    return this.value;
  }
}
