/**
 * Random permutations, derangements and disjoint off-diagonal permutation sets (supports of 000 sec. 7, 001 sec. 3, 003
 * sec. 5).
 */
import { fail } from "../model/errors.js";
import { shuffleInPlace, type Rng } from "../model/rng.js";

/** A uniform random permutation of 0..p-1 (Fisher-Yates over the identity). */
export function randomPermutation(rng: Rng, p: number): Int32Array {
  const a = new Int32Array(p);
  for (let i = 0; i < p; i++) a[i] = i;
  return shuffleInPlace(rng, a);
}

/** A uniform random derangement of 0..p-1 (no fixed point), by rejection of uniform permutations; p >= 2. */
export function randomDerangement(rng: Rng, p: number): Int32Array {
  if (p < 2) throw fail("patterns", "BAD_INPUT", `no derangement of ${p} node exists`, { field: "p" });
  for (;;) {
    const a = randomPermutation(rng, p);
    let ok = true;
    for (let i = 0; i < p && ok; i++) if (a[i] === i) ok = false;
    if (ok) return a;
  }
}

/**
 * `d` permutations of 0..p-1 (0 <= d <= p - 1) whose cells (i, perm[i]) avoid the diagonal and
 * each other, so their union has exactly d entries in every row and every column.
 * Permutation m is a random perfect matching of the free cells (neither diagonal nor used by
 * permutations 0..m-1): rows are visited in random order and take a random free column (scan from
 * a random offset); rows left over are matched by breadth-first augmenting paths. The free cells
 * form a (p - 1 - m)-regular bipartite graph, which always has a perfect matching (Konig), so
 * the construction never fails. The result is random but not uniform over d-regular supports.
 */
export function disjointPermutations(rng: Rng, p: number, d: number): Int32Array[] {
  if (!Number.isInteger(d) || d < 0 || d > Math.max(0, p - 1)) {
    throw fail(
      "patterns",
      "BAD_OPTION",
      `cannot build ${d} disjoint off-diagonal permutations of ${p} nodes (at most p - 1)`,
      { field: "d" },
    );
  }
  const used = new Uint8Array(p * p);
  for (let i = 0; i < p; i++) used[i * p + i] = 1;
  const perms: Int32Array[] = [];
  const matchCol = new Int32Array(p);
  const parent = new Int32Array(p);
  const seen = new Int32Array(p);
  const queue = new Int32Array(p);
  for (let m = 0; m < d; m++) {
    const matchRow = new Int32Array(p).fill(-1);
    matchCol.fill(-1);
    const order = randomPermutation(rng, p);
    for (let k = 0; k < p; k++) {
      const row = order[k]!;
      const start = rng.int(p);
      for (let t = 0; t < p; t++) {
        const c = start + t < p ? start + t : start + t - p;
        if (used[row * p + c] === 0 && matchCol[c]! < 0) {
          matchRow[row] = c;
          matchCol[c] = row;
          break;
        }
      }
    }
    seen.fill(-1);
    for (let k = 0; k < p; k++) {
      const root = order[k]!;
      if (matchRow[root]! >= 0) continue;
      if (!augment(rng, p, root, used, matchRow, matchCol, parent, seen, queue)) {
        throw fail("patterns", "BAD_INPUT", `internal: no perfect matching in round ${m} (p = ${p}, d = ${d})`);
      }
    }
    for (let i = 0; i < p; i++) used[i * p + matchRow[i]!] = 1;
    perms.push(matchRow);
  }
  return perms;
}

/** Breadth-first search for an augmenting path from the unmatched row `root`; flips it when found. */
function augment(
  rng: Rng,
  p: number,
  root: number,
  used: Uint8Array,
  matchRow: Int32Array,
  matchCol: Int32Array,
  parent: Int32Array,
  seen: Int32Array,
  queue: Int32Array,
): boolean {
  let head = 0,
    tail = 0;
  queue[tail++] = root;
  while (head < tail) {
    const u = queue[head++]!;
    const start = rng.int(p);
    for (let t = 0; t < p; t++) {
      const c = start + t < p ? start + t : start + t - p;
      if (used[u * p + c] !== 0 || seen[c] === root) continue;
      seen[c] = root;
      parent[c] = u;
      const owner = matchCol[c]!;
      if (owner < 0) {
        // flip the path root -> ... -> u -> c
        let col = c;
        while (col >= 0) {
          const row = parent[col]!;
          const next = matchRow[row]!;
          matchRow[row] = col;
          matchCol[col] = row;
          col = next;
        }
        return true;
      }
      queue[tail++] = owner;
    }
  }
  return false;
}
