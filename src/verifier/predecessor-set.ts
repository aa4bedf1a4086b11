/**
 * PredecessorSet: a set of integers in [0, U) with add, remove and "largest member <= x" in O(log_32 U), as a 32-ary
 * tree of bit words.
 */

/**
 * A set of small non-negative integers backed by levels of 32-bit words (level k + 1 has a bit per non-empty word of
 * level k).
 */
export class PredecessorSet {
  private levels: Uint32Array[] = [];
  private used: number[] = []; // words of each level in use since the last reset

  /** Empties the set and makes room for members in [0, u). */
  reset(u: number): void {
    const need: number[] = [];
    let n = Math.max(1, u);
    do {
      n = Math.ceil(n / 32);
      need.push(n);
    } while (n > 1);
    for (let k = 0; k < need.length; k++) {
      const lv = this.levels[k];
      if (lv === undefined || lv.length < need[k]!)
        this.levels[k] = new Uint32Array(Math.max(need[k]!, (lv?.length ?? 0) * 2));
      else lv.fill(0, 0, Math.max(this.used[k] ?? 0, need[k]!));
    }
    this.levels.length = need.length;
    this.used = need;
  }

  /** Adds x. */
  add(x: number): void {
    for (const lv of this.levels) {
      const w = x >>> 5;
      const was = lv[w]!;
      lv[w] = was | (1 << (x & 31));
      if (was !== 0) return; // the levels above already know this word is not empty
      x = w;
    }
  }

  /** Removes x. */
  remove(x: number): void {
    for (const lv of this.levels) {
      const w = x >>> 5;
      const now = lv[w]! & ~(1 << (x & 31));
      lv[w] = now;
      if (now !== 0) return;
      x = w;
    }
  }

  /** The largest member <= x, or -1. */
  prev(x: number): number {
    const { levels } = this;
    let level = 0,
      i = x;
    for (;;) {
      if (i < 0) return -1;
      const w = i >>> 5;
      const word = levels[level]![w]! & (0xffffffff >>> (31 - (i & 31)));
      if (word !== 0) {
        i = (w << 5) + 31 - Math.clz32(word);
        break;
      }
      if (w === 0 || level + 1 === levels.length) return -1;
      i = w - 1;
      level++;
    }
    while (level > 0) {
      level--;
      i = (i << 5) + 31 - Math.clz32(levels[level]![i]!);
    }
    return i;
  }
}
