/**
 * networkMessages: the off-diagonal non-zero entries of a matrix as columns, row-major (the verifier's own list: it
 * does not import the planners').
 */
import type { CommMatrix } from "../model/matrix.js";

/** Message x goes src[x] -> dst[x] with size[x] elements; row-major order. */
export interface NetworkMessages {
  readonly src: Uint32Array;
  readonly dst: Uint32Array;
  readonly size: Float64Array;
}

/** The network messages of m: one scan of a dense matrix, the compressed rows of a sparse one (O(P + E)). */
export function networkMessages(m: CommMatrix): NetworkMessages {
  const p = m.p;
  const s = m.sparse;
  let n = 0;
  if (s) {
    for (let i = 0; i < p; i++) for (let k = s.rowStart[i]!; k < s.rowStart[i + 1]!; k++) if (s.col[k] !== i) n++;
  } else {
    const data = m.data;
    for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) if (i !== j && data[i * p + j]! > 0) n++;
  }
  const src = new Uint32Array(n),
    dst = new Uint32Array(n),
    size = new Float64Array(n);
  n = 0;
  if (s) {
    for (let i = 0; i < p; i++)
      for (let k = s.rowStart[i]!; k < s.rowStart[i + 1]!; k++) {
        if (s.col[k] === i) continue;
        src[n] = i;
        dst[n] = s.col[k]!;
        size[n++] = s.val[k]!;
      }
  } else {
    const data = m.data;
    for (let i = 0; i < p; i++)
      for (let j = 0; j < p; j++) {
        const v = data[i * p + j]!;
        if (i === j || !(v > 0)) continue;
        src[n] = i;
        dst[n] = j;
        size[n++] = v;
      }
  }
  return { src, dst, size };
}
