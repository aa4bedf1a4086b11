/** Matrix statistics of 000 section 2 (r, c, t, f, g, h) and 004 section 3 (M_max, Lout, Lin, L_max). */
import type { CommMatrix } from "./matrix.js";

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
  /** messages / (p (p - 1)); 0 when p = 1. */
  readonly density: number;
  readonly classification: MatrixClass;
  /** All network messages have the same size. */
  readonly uniform: boolean;
}

/** One pass over the matrix computing every statistic. */
export function matrixStats(m: CommMatrix): MatrixStats {
  const { p, data } = m;
  const rowTraffic = new Float64Array(p);
  const colTraffic = new Float64Array(p);
  const fanOut = new Uint32Array(p);
  const fanIn = new Uint32Array(p);
  const selfOf = new Float64Array(p);
  let mMax = 0, mMaxOff = 0, selfTotal = 0, networkTotal = 0, messages = 0;
  let firstSize = -1, uniform = true;
  for (let i = 0; i < p; i++) {
    const base = i * p;
    let ri = 0, fi = 0;
    for (let j = 0; j < p; j++) {
      const v = data[base + j]!;
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
  let r = 0, c = 0, f = 0, g = 0, lMax = 0;
  let allSend = true, allRecv = true, allToAll = p > 1;
  for (let i = 0; i < p; i++) {
    r = Math.max(r, rowTraffic[i]!);
    c = Math.max(c, colTraffic[i]!);
    f = Math.max(f, fanOut[i]!);
    g = Math.max(g, fanIn[i]!);
    lMax = Math.max(lMax, rowTraffic[i]! + selfOf[i]!, colTraffic[i]! + selfOf[i]!);
    if (fanOut[i] === 0) allSend = false;
    if (fanIn[i] === 0) allRecv = false;
    if (fanOut[i] !== p - 1) allToAll = false;
  }
  const classification: MatrixClass =
    messages === 0 ? "empty" : allToAll ? "all-to-all" : allSend ? "all-to-many" : allRecv ? "many-to-all" : "many-to-many";
  return {
    p, rowTraffic, colTraffic, fanOut, fanIn, r, c, t: Math.max(r, c), f, g, h: Math.max(f, g),
    mMax, mMaxOffDiagonal: mMaxOff, lMax, selfTotal, networkTotal, messages,
    density: p > 1 ? messages / (p * (p - 1)) : 0, classification, uniform: uniform && messages > 0,
  };
}
