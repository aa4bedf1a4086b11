/**
 * NodeLoads: what every node must send and receive for a matrix (message counts, bytes, byte-weighted network time).
 */
import { matrixRows, type CommMatrix } from "../model/matrix.js";
import { checkMatrixArg } from "../model/matrix.js";
import { checkArg } from "../model/option-checks.js";

/** Per-node loads of a matrix (network traffic only: the diagonal is left out). */
export interface NodeLoads {
  readonly p: number;
  /** b: bytes per element (the smallest message carries one element). */
  readonly elementBytes: number;
  /** f_i: destinations j != i with M[i][j] > 0. */
  readonly fanOut: Uint32Array;
  /** g_j: sources i != j with M[i][j] > 0. */
  readonly fanIn: Uint32Array;
  /** R_i: bytes node i sends to other nodes. */
  readonly rowBytes: Float64Array;
  /** C_j: bytes node j receives from other nodes. */
  readonly colBytes: Float64Array;
  /** sum_j M[i][j] b t_d(i, j): node i's output-port time of a direct schedule. */
  readonly rowTd: Float64Array;
  /** sum_i M[i][j] b t_d(i, j): node j's input-port time of a direct schedule. */
  readonly colTd: Float64Array;
  /**
   * min over j != i of t_d(i, j) (= t_d(j, i) for the symmetric networks here): the cheapest byte node i can send or
   * receive.
   */
  readonly tdMin: Float64Array;
  /** True when some off-diagonal entry is non-zero. */
  readonly traffic: boolean;
}

/**
 * The loads of `m`, with per-pair t_d given by `td`: one number for every pair (a flat machine:
 * O(P + E) over the non-zero entries), or a function (then tdMin, the cheapest t_d of each node over
 * every other node, comes from `tdMinOf` when given, else from one O(P^2) pass).
 */
export function nodeLoads(
  m: CommMatrix,
  td: ((a: number, b: number) => number) | number,
  tdMinOf?: (a: number) => number,
): NodeLoads {
  checkMatrixArg("bounds", m, "nodeLoads");
  const tdOk = typeof td === "function" || (typeof td === "number" && td >= 0 && td < Infinity);
  checkArg("bounds", "nodeLoads", "td", td, tdOk, "a time per byte >= 0 or a function (a, b) of one", "BAD_OPTION");
  checkArg(
    "bounds",
    "nodeLoads",
    "tdMinOf",
    tdMinOf,
    tdMinOf === undefined || typeof tdMinOf === "function",
    "a function (a) or undefined",
    "BAD_OPTION",
  );
  const { p, elementBytes: eb } = m;
  const { rowStart, col, val } = matrixRows(m);
  const tdOf = typeof td === "number" ? (): number => td : td;
  const fanOut = new Uint32Array(p);
  const fanIn = new Uint32Array(p);
  const rowBytes = new Float64Array(p);
  const colBytes = new Float64Array(p);
  const rowTd = new Float64Array(p);
  const colTd = new Float64Array(p);
  let traffic = false;
  for (let i = 0; i < p; i++)
    for (let k = rowStart[i]!; k < rowStart[i + 1]!; k++) {
      const j = col[k]!;
      if (i === j) continue;
      traffic = true;
      const bytes = val[k]! * eb,
        t = tdOf(i, j);
      fanOut[i]!++;
      fanIn[j]!++;
      rowBytes[i] = rowBytes[i]! + bytes;
      colBytes[j] = colBytes[j]! + bytes;
      rowTd[i] = rowTd[i]! + bytes * t;
      colTd[j] = colTd[j]! + bytes * t;
    }
  const tdMin = new Float64Array(p).fill(typeof td === "number" && p > 1 ? td : 0);
  if (typeof td !== "number" && tdMinOf !== undefined) for (let i = 0; i < p; i++) tdMin[i] = tdMinOf(i);
  else if (typeof td !== "number")
    for (let i = 0; i < p; i++) {
      let best = Infinity;
      for (let j = 0; j < p; j++) if (j !== i) best = Math.min(best, td(i, j));
      tdMin[i] = best === Infinity ? 0 : best;
    }
  return { p, elementBytes: eb, fanOut, fanIn, rowBytes, colBytes, rowTd, colTd, tdMin, traffic };
}
