/** Off-diagonal message lists shared by the permutation-decomposition planners (003 sec 3.3). */
import { matrixRows, type CommMatrix } from "../../model/matrix.js";
import { progressTicker, type ProgressCallback } from "../../model/progress.js";

/**
 * The network messages of a matrix (non-zero off-diagonal entries) in row-major order, as columns:
 * message k goes src[k] -> dst[k] with size[k] elements; the messages of row i are
 * rowStart[i] .. rowStart[i + 1] - 1 (the CCOM rows of 003 fig. 4).
 */
export interface MessageList {
  readonly p: number;
  readonly count: number;
  readonly src: Uint32Array;
  readonly dst: Uint32Array;
  readonly size: Float64Array;
  readonly rowStart: Uint32Array;
}

/**
 * Collects the non-zero off-diagonal entries of m (the diagonal is a local copy and needs no phase); one pass over the
 * matrix (`progress`: rows done of P).
 */
export function offDiagonalMessages(m: CommMatrix, progress: ProgressCallback | null = null): MessageList {
  const tick = progressTicker(progress, m.p);
  let tickMark = tick(0);
  if (m.sparse) {
    const list = sparseMessages(m);
    tick(Infinity);
    return list;
  }
  const { p, data } = m;
  let cap = Math.max(16, 4 * p);
  let src = new Uint32Array(cap),
    dst = new Uint32Array(cap),
    size = new Float64Array(cap);
  const rowStart = new Uint32Array(p + 1);
  let k = 0;
  for (let i = 0; i < p; i++) {
    if (i >= tickMark) tickMark = tick(i);
    rowStart[i] = k;
    if (k + p > cap) {
      cap = Math.min(p * p, Math.max(2 * cap, k + p));
      const s2 = new Uint32Array(cap),
        d2 = new Uint32Array(cap),
        z2 = new Float64Array(cap);
      s2.set(src.subarray(0, k));
      d2.set(dst.subarray(0, k));
      z2.set(size.subarray(0, k));
      src = s2;
      dst = d2;
      size = z2;
    }
    const base = i * p;
    for (let j = 0; j < p; j++) {
      const v = data[base + j]!;
      if (v === 0 || j === i) continue;
      src[k] = i;
      dst[k] = j;
      size[k] = v;
      k++;
    }
  }
  rowStart[p] = k;
  const list = { p, count: k, src: src.slice(0, k), dst: dst.slice(0, k), size: size.slice(0, k), rowStart };
  tick(Infinity);
  return list;
}

/** offDiagonalMessages of a sparse matrix: its compressed rows without the diagonal (O(P + E)). */
function sparseMessages(m: CommMatrix): MessageList {
  const { p, rowStart: rs, col, val } = matrixRows(m);
  let count = 0;
  for (let i = 0; i < p; i++) for (let k = rs[i]!; k < rs[i + 1]!; k++) if (col[k] !== i) count++;
  const src = new Uint32Array(count),
    dst = new Uint32Array(count),
    size = new Float64Array(count);
  const rowStart = new Uint32Array(p + 1);
  let n = 0;
  for (let i = 0; i < p; i++) {
    rowStart[i] = n;
    for (let k = rs[i]!; k < rs[i + 1]!; k++) {
      if (col[k] === i) continue;
      src[n] = i;
      dst[n] = col[k]!;
      size[n++] = val[k]!;
    }
  }
  rowStart[p] = n;
  return { p, count, src, dst, size, rowStart };
}
