/** Four-stage distribution checks: Stage I exactly as 004 fig. 11 (R-Distribute) and fig. 8 send it, Stage II an even split of what Stage I delivered. */
import type { CommMatrix } from "../model/matrix.js";
import type { Schedule } from "../model/schedule.js";
import type { PaperArray } from "./four-stage-bounds.js";
import { check, type Check } from "./report.js";

const SRC = "004 sec 3.2.2 C, fig. 11";

/** floor(x / n) for integers 0 <= x < 2^53 (the float quotient may round up). */
function floorDiv(x: number, n: number): number {
  const q = Math.floor(x / n);
  return q * n > x ? q - 1 : q;
}

/**
 * The size of every Stage I message from fig. 11, out[u * C + c]: node u (diagonal excluded: it
 * stays put) scans its elements for node j with count[j] starting at j mod C and puts element t
 * into bucket ((j mod C + t) mod P) mod C. Counted with prefix counts: of the values x in
 * [s, s + h), F(s + h, c) - F(s, c) fall into bucket c, where F(n, c) = #{x < n : (x mod P) mod C
 * = c} = floor(n / P) W_c + floor((n mod P) / C) + [(n mod P) mod C > c] and W_c = F(P, c).
 * Summed over j with a histogram of (n mod P) mod C, a node costs O(P + C).
 */
export function figure11Sizes(m: CommMatrix, a: PaperArray): Float64Array {
  const { p } = m, { C } = a;
  const out = new Float64Array(p * C);
  const w = new Float64Array(C);
  for (let c = 0; c < C; c++) w[c] = floorDiv(p, C) + (p % C > c ? 1 : 0);
  const above = new Float64Array(C + 1); // above[x]: destinations whose end residue is x (then suffix-summed)
  for (let u = 0; u < p; u++) {
    let full = 0, blocks = 0;
    above.fill(0);
    for (let j = 0; j < p; j++) {
      const h = j === u ? 0 : m.data[u * p + j]!;
      if (h === 0) continue;
      const s = j % C, e = s + h;
      const ePeriods = floorDiv(e, p), eRest = e - ePeriods * p;
      const eBlocks = floorDiv(eRest, C);
      full += ePeriods;
      blocks += eBlocks;
      above[eRest - eBlocks * C]!++; // + [end residue > c]
      above[s]!--; // - [s > c] (s < C <= P: F(s, c) = [s > c])
    }
    // suffix sums: gt[c] = sum over x > c of above[x]
    let gt = 0;
    for (let c = C - 1; c >= 0; c--) {
      gt += above[c + 1]!;
      out[u * C + c] = w[c]! * full + blocks + gt;
    }
  }
  return out;
}

/** The receiver of node u's Stage I bucket c (fig. 8): its row's node in column c; from the incomplete row, pseudo-columns c >= r go to node (b, c), b the sender's column. */
export function stageOneReceiver(a: PaperArray, u: number, c: number): number {
  const row = Math.floor(u / a.C), b = u % a.C;
  return a.r > 0 && row === a.R - 1 && c >= a.r ? b * a.C + c : row * a.C + c;
}

/** Stage I's message sizes equal fig. 11's counts (and go where fig. 8 sends them). */
export function checkStageOneExact(m: CommMatrix, s: Schedule, a: PaperArray): Check {
  const { p } = m, { C } = a;
  const want = figure11Sizes(m, a);
  const got = new Float64Array(p * C);
  const st = s.stages[0]!;
  let bad = 0, witness: string | null = null;
  for (let x = s.stepStart[st.firstStep]!; x < s.stepStart[st.firstStep + st.stepCount]!; x++) {
    const u = s.src[x]!, v = s.dst[x]!, c = v % C;
    if (stageOneReceiver(a, u, c) !== v) {
      bad++;
      witness ??= `node ${u} sends to ${v}; its bucket for column ${c} goes to ${stageOneReceiver(a, u, c)} (fig. 8)`;
    }
    got[u * C + c] = got[u * C + c]! + s.size[x]!;
  }
  for (let k = 0; k < p * C; k++) {
    if (got[k] !== want[k]) {
      bad++;
      witness ??= `node ${Math.floor(k / C)} sends ${got[k]} elements from its bucket ${k % C}, fig. 11 (counters from j mod C) gives ${want[k]}`;
    }
  }
  return check("four-stage-I-exact", "stage I: every message has exactly fig. 11's R-Distribute count (counters start at j mod C) and goes where fig. 8 sends it", SRC, bad === 0, bad, 0, witness);
}

/**
 * Stage II (payload plans): node v holds H[v][j] elements for j after Stage I (measured from the
 * chunks it received); C-Distribute splits each evenly over the N nodes of v's column, so every
 * message v sends lies in [sum_j floor(H[v][j] / N), sum_j ceil(H[v][j] / N)] and stays in v's column.
 */
export function checkStageTwoEven(s: Schedule, a: PaperArray): Check {
  const { p } = s, { C, R, r } = a;
  const c = s.chunks!;
  const held = new Float64Array(p * p);
  const one = s.stages[0]!, two = s.stages[1]!;
  for (let x = s.stepStart[one.firstStep]!; x < s.stepStart[one.firstStep + one.stepCount]!; x++) {
    const v = s.dst[x]!;
    for (let y = c.start[x]!; y < c.start[x + 1]!; y++) held[v * p + c.dest[y]!] = held[v * p + c.dest[y]!]! + c.count[y]!;
  }
  const lo = new Float64Array(p), hi = new Float64Array(p);
  for (let v = 0; v < p; v++) {
    const n = r === 0 || v % C < r ? R : R - 1;
    for (let j = 0; j < p; j++) {
      const h = held[v * p + j]!;
      if (h === 0) continue;
      const f = floorDiv(h, n);
      lo[v] = lo[v]! + f;
      hi[v] = hi[v]! + (f * n === h ? f : f + 1);
    }
  }
  let bad = 0, witness: string | null = null;
  for (let x = s.stepStart[two.firstStep]!; x < s.stepStart[two.firstStep + two.stepCount]!; x++) {
    const v = s.src[x]!, w = s.dst[x]!, z = s.size[x]!;
    if (w % C !== v % C) {
      bad++;
      witness ??= `node ${v} sends to ${w}, outside its column`;
    } else if (z < lo[v]! || z > hi[v]!) {
      bad++;
      witness ??= `node ${v} sends ${z} elements to ${w}; an even split of what it received in stage I gives ${lo[v]}..${hi[v]}`;
    }
  }
  return check("four-stage-II-even", "stage II: every message is an even split (C-Distribute) of the holdings stage I delivered, within the column", "004 sec 3.2.2 C (C-Distribute), Lemma 2", bad === 0, bad, 0, witness);
}
