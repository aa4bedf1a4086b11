/** Matrix statistics of 000 section 2 (r, c, t, f, g, h) and 004 section 3 (M_max, Lout, Lin, L_max). */
import { checkMatrixArg, type CommMatrix } from "./matrix.js";

/** The collective-communication class of 000 section 2. */
export type MatrixClass = "empty" | "all-to-all" | "all-to-many" | "many-to-all" | "many-to-many";

/**
 * Statistics of a matrix. Following 000, r, c, t, f, g, h describe network traffic, so the
 * diagonal (a node's message to itself, a local copy) is left out of them; 004's Lout, Lin and
 * L_max include the diagonal, as 004 section 3 says each node "sends a message to itself".
 */
export interface MatrixStats {
  readonly p: number;
  /** r_i: elements node i sends to other nodes. */
  readonly rowTraffic: Float64Array;
  /** c_j: elements node j receives from other nodes. */
  readonly colTraffic: Float64Array;
  /** f_i: messages node i sends to other nodes. */
  readonly fanOut: Uint32Array;
  /** g_j: messages node j receives from other nodes. */
  readonly fanIn: Uint32Array;
  readonly r: number;
  readonly c: number;
  /** t = max(r, c). */
  readonly t: number;
  readonly f: number;
  readonly g: number;
  /** h = max(f, g). */
  readonly h: number;
  /** Largest entry, diagonal included (004). */
  readonly mMax: number;
  /** Largest off-diagonal entry (the longest network message). */
  readonly mMaxOffDiagonal: number;
  /** Max over nodes of outgoing and incoming traffic, diagonal included (004). */
  readonly lMax: number;
  /** Elements sent by nodes to themselves. */
  readonly selfTotal: number;
  /** Elements sent over the network. */
  readonly networkTotal: number;
  /** Non-zero off-diagonal entries (network messages). */
  readonly messages: number;
  /**
   * Fill: messages / (p (p - 1)), the fraction of ordered pairs of distinct nodes that carry a message; 0 when p = 1.
   */
  readonly density: number;
  /** 003's "density d" (its tables): mean active off-diagonal entries per row, messages / p. */
  readonly d: number;
  readonly classification: MatrixClass;
  /** All network messages have the same size. */
  readonly uniform: boolean;
}

/** One pass over the matrix computing every statistic. */
export function matrixStats(m: CommMatrix): MatrixStats {
  checkMatrixArg("matrix", m);
  const p = m.p;
  const sparse = m.sparse;
  const rowTraffic = new Float64Array(p);
  const colTraffic = new Float64Array(p);
  const fanOut = new Uint32Array(p);
  const fanIn = new Uint32Array(p);
  const selfOf = new Float64Array(p);
  let mMax = 0,
    mMaxOff = 0,
    selfTotal = 0,
    networkTotal = 0,
    messages = 0;
  let firstSize = -1,
    uniform = true;
  // One loop over a row's non-zero entries: the columns of a sparse row, or all P cells of a dense one.
  const data = sparse ? null : m.data;
  for (let i = 0; i < p; i++) {
    const base = i * p;
    let ri = 0,
      fi = 0;
    const a = sparse ? sparse.rowStart[i]! : 0,
      b = sparse ? sparse.rowStart[i + 1]! : p;
    for (let x = a; x < b; x++) {
      const j = sparse ? sparse.col[x]! : x;
      const v = sparse ? sparse.val[x]! : data![base + x]!;
      if (v === 0) continue;
      if (v > mMax) mMax = v;
      if (i === j) {
        selfOf[i] = v;
        selfTotal += v;
        continue;
      }
      if (v > mMaxOff) mMaxOff = v;
      ri += v;
      fi++;
      colTraffic[j] = colTraffic[j]! + v;
      fanIn[j] = fanIn[j]! + 1;
      if (firstSize < 0) firstSize = v;
      else if (v !== firstSize) uniform = false;
    }
    rowTraffic[i] = ri;
    fanOut[i] = fi;
    networkTotal += ri;
    messages += fi;
  }
  let r = 0,
    c = 0,
    f = 0,
    g = 0,
    lMax = 0;
  for (let i = 0; i < p; i++) {
    r = Math.max(r, rowTraffic[i]!);
    c = Math.max(c, colTraffic[i]!);
    f = Math.max(f, fanOut[i]!);
    g = Math.max(g, fanIn[i]!);
    lMax = Math.max(lMax, rowTraffic[i]! + selfOf[i]!, colTraffic[i]! + selfOf[i]!);
  }
  const classification = messages === 0 ? "empty" : classify(fanOut, fanIn);
  return {
    p,
    rowTraffic,
    colTraffic,
    fanOut,
    fanIn,
    r,
    c,
    t: Math.max(r, c),
    f,
    g,
    h: Math.max(f, g),
    mMax,
    mMaxOffDiagonal: mMaxOff,
    lMax,
    selfTotal,
    networkTotal,
    messages,
    density: p > 1 ? messages / (p * (p - 1)) : 0,
    d: messages / p,
    classification,
    uniform: uniform && messages > 0,
  };
}

/**
 * The class of 000 section 2, in its order, with f_i and g_j counting other nodes only (so 000's
 * "f_i = p", every node, reads "f_i = P - 1", every other node): all-to-all when f_i = P - 1 for
 * every i; else all-to-many when f_i > 0 for every i; else many-to-all when f_i is 0 or P - 1 for
 * every i and g_j > 0 for every j; else many-to-many. (A non-empty matrix; docs/matrix.md.)
 */
export function classify(fanOut: Uint32Array, fanIn: Uint32Array): Exclude<MatrixClass, "empty"> {
  const p = fanOut.length;
  let allFull = true,
    allSend = true,
    zeroOrFull = true,
    allRecv = true;
  for (let i = 0; i < p; i++) {
    const fi = fanOut[i]!;
    if (fi !== p - 1) allFull = false;
    if (fi === 0) allSend = false;
    if (fi !== 0 && fi !== p - 1) zeroOrFull = false;
    if (fanIn[i] === 0) allRecv = false;
  }
  return allFull ? "all-to-all" : allSend ? "all-to-many" : zeroOrFull && allRecv ? "many-to-all" : "many-to-many";
}
