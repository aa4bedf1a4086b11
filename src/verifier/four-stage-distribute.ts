/**
 * Four-stage distribution checks: Stages I and II exactly as 004 fig. 11 (R-Distribute, C-Distribute) and fig. 8 send
 * them, per message and, with payloads, per destination.
 */
import { bucketItems, bucketStarts } from "../internal/buckets.js";
import type { CommMatrix } from "../model/matrix.js";
import type { Schedule } from "../model/schedule.js";
import type { PaperArray } from "./types.js";
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
  const { p } = m,
    { C } = a;
  const out = new Float64Array(p * C);
  const w = new Float64Array(C);
  for (let c = 0; c < C; c++) w[c] = floorDiv(p, C) + (p % C > c ? 1 : 0);
  const above = new Float64Array(C + 1); // above[x]: destinations whose end residue is x (then suffix-summed)
  for (let u = 0; u < p; u++) {
    let full = 0,
      blocks = 0;
    above.fill(0);
    for (let j = 0; j < p; j++) {
      const h = j === u ? 0 : m.data[u * p + j]!;
      if (h === 0) continue;
      const s = j % C,
        e = s + h;
      const ePeriods = floorDiv(e, p),
        eRest = e - ePeriods * p;
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

/**
 * The receiver of node u's Stage I bucket c (fig. 8): its row's node in column c; from the incomplete row,
 * pseudo-columns c >= r go to node (b, c), b the sender's column.
 */
export function stageOneReceiver(a: PaperArray, u: number, c: number): number {
  const row = Math.floor(u / a.C),
    b = u % a.C;
  return a.r > 0 && row === a.R - 1 && c >= a.r ? b * a.C + c : row * a.C + c;
}

/**
 * The elements fig. 11 puts into bucket c of h elements for node j (counter from j mod C): F(s + h, c) - F(s, c), s = j
 * mod C.
 */
function bucketCount(p: number, C: number, w: Float64Array, j: number, h: number, c: number): number {
  const s = j % C,
    e = s + h;
  const ePeriods = floorDiv(e, p),
    eRest = e - ePeriods * p,
    eBlocks = Math.floor(eRest / C);
  return w[c]! * ePeriods + eBlocks + (eRest - eBlocks * C > c ? 1 : 0) - (s > c ? 1 : 0);
}

/**
 * The holdings after Stage I, derived from M (fig. 11's counts, fig. 8's receivers; diagonal
 * elements stay put): calls visit(v, hv) once per node v with hv[j] = elements for node j that v
 * holds after Stage I (hv is reused between calls). A complete row is one group of senders whose
 * bucket c goes to the row's node in column c, summed with the same prefix counts as
 * `figure11Sizes` per destination (a (C + 1) x P table per row, O(P^2) in all); the incomplete
 * row's nodes (buckets c < r) and their pseudo-column buckets (to row b, their own column) are
 * added one count at a time (at most P^2 more).
 */
export function forEachStageOneHolding(
  m: CommMatrix,
  a: PaperArray,
  visit: (v: number, hv: Float64Array) => void,
): void {
  const { p } = m,
    { C, R, r } = a;
  const w = new Float64Array(C);
  for (let c = 0; c < C; c++) w[c] = floorDiv(p, C) + (p % C > c ? 1 : 0);
  const full = new Float64Array(p),
    blocks = new Float64Array(p),
    run = new Float64Array(p),
    hv = new Float64Array(p);
  // above[x * p + j]: senders whose end residue for j is x, minus those whose start is x
  const above = new Float64Array(C * p);
  const last = (R - 1) * C;
  const pseudo = (u: number, c: number): void => {
    for (let j = 0; j < p; j++) {
      const h = j === u ? 0 : m.data[u * p + j]!;
      if (h > 0) hv[j] = hv[j]! + bucketCount(p, C, w, j, h, c);
    }
  };
  for (let row = 0; row < (r > 0 ? R - 1 : R); row++) {
    full.fill(0);
    blocks.fill(0);
    above.fill(0);
    for (let u = row * C; u < row * C + C; u++) {
      for (let j = 0; j < p; j++) {
        const h = j === u ? 0 : m.data[u * p + j]!;
        if (h === 0) continue;
        const s = j % C,
          e = s + h;
        const ePeriods = floorDiv(e, p),
          eRest = e - ePeriods * p,
          eBlocks = Math.floor(eRest / C);
        full[j] = full[j]! + ePeriods;
        blocks[j] = blocks[j]! + eBlocks;
        above[(eRest - eBlocks * C) * p + j]!++;
        above[s * p + j]!--;
      }
    }
    run.fill(0);
    for (let c = C - 1; c >= 0; c--) {
      if (c + 1 < C) for (let j = 0, x = (c + 1) * p; j < p; j++, x++) run[j] = run[j]! + above[x]!;
      for (let j = 0; j < p; j++) hv[j] = w[c]! * full[j]! + blocks[j]! + run[j]!;
      // fig. 8: node (R - 1, row) of the incomplete row sends its pseudo-column buckets into this row
      if (r > 0 && row < r && c >= r) pseudo(last + row, c);
      visit(row * C + c, hv);
    }
  }
  for (let c = 0; c < r; c++) {
    hv.fill(0);
    for (let b = 0; b < r; b++) pseudo(last + b, c);
    visit(last + c, hv);
  }
}

/** Transfer indices of one stage grouped by node (dst or src): order[at[u] .. at[u + 1]). */
function byNode(s: Schedule, k: number, key: Uint32Array): { at: Uint32Array; order: Uint32Array } {
  const st = s.stages[k]!;
  const x0 = s.stepStart[st.firstStep]!,
    x1 = s.stepStart[st.firstStep + st.stepCount]!;
  const at = bucketStarts(key, s.p, x0, x1, new Uint32Array(s.p + 1));
  return { at, order: bucketItems(key, at, null, x0, x1, new Uint32Array(x1 - x0)) };
}

/**
 * Stages I and II exactly as the paper distributes them, against holdings derived from M (never
 * measured from the plan, so a stage that is missing or short fails):
 *  - four-stage-I-exact: every Stage I message has fig. 11's count (`figure11Sizes`) and goes
 *    where fig. 8 sends it; with payloads, node v receives exactly hv[j] elements for each j.
 *  - four-stage-II-exact: C-Distribute (004 sec 3.2.2 C: count[j] starts at j mod N, element t to
 *    bucket (count[j] + t) mod N, N the column's size) puts floor(h / N) + [(k - j mod N) mod N <
 *    h mod N] of v's h = hv[j] elements for j into bucket k, sent to row k of v's column; every
 *    (v, k) carries exactly the sum over j (0 when nothing is due, and also when nothing is sent),
 *    and with payloads exactly that count per destination j. With `hold` (params.arrived = "hold",
 *    which the planner writes by default; a plan without it is 004's forward), v's elements for
 *    itself are held and not distributed. Measured: the wrong (v, k) messages.
 */
export function checkDistribution(m: CommMatrix, s: Schedule, a: PaperArray, hold: boolean): [Check, Check] {
  const c = s.chunks;
  const one: Finding = { bad: 0, witness: null },
    two: Finding = { bad: 0, witness: null };
  checkStageOneMessages(m, s, a, one);
  const got2 = stageTwoSizes(m.p, s, a, two);
  forEachStageOneHolding(m, a, stageTwoVisitor(m.p, s, a, got2, one, two, hold));
  return [
    check(
      "four-stage-I-exact",
      `stage I: every message has exactly fig. 11's R-Distribute count (counters start at j mod C) and goes where fig. 8 sends it${c ? "; every node receives exactly fig. 11's count per destination" : ""}`,
      SRC,
      one.bad === 0,
      one.bad,
      0,
      one.witness,
    ),
    check(
      "four-stage-II-exact",
      `stage II: every node sends each node of its column exactly C-Distribute's count (counters start at j mod N) of the holdings stage I delivers${hold ? " (a node's elements for itself held)" : ""}${c ? ", per destination" : ""}`,
      "004 sec 3.2.2 C (C-Distribute), fig. 11, fig. 8; Lemma 2",
      two.bad === 0,
      two.bad,
      0,
      two.witness,
    ),
  ];
}

/** The wrong messages of one stage: how many, and the first one described. */
interface Finding {
  bad: number;
  witness: string | null;
}

/** Stage I: every message goes where fig. 8 sends it and every (sender, bucket) carries fig. 11's count. */
function checkStageOneMessages(m: CommMatrix, s: Schedule, a: PaperArray, one: Finding): void {
  const { p } = m,
    { C } = a;
  const want1 = figure11Sizes(m, a),
    got1 = new Float64Array(p * C);
  const st = s.stages[0]!;
  for (let x = s.stepStart[st.firstStep]!; x < s.stepStart[st.firstStep + st.stepCount]!; x++) {
    const u = s.src[x]!,
      v = s.dst[x]!,
      b = v % C;
    if (stageOneReceiver(a, u, b) !== v) {
      one.bad++;
      one.witness ??= `node ${u} sends to ${v}; its bucket for column ${b} goes to ${stageOneReceiver(a, u, b)} (fig. 8)`;
    }
    got1[u * C + b] = got1[u * C + b]! + s.size[x]!;
  }
  for (let k = 0; k < p * C; k++) {
    if (got1[k] !== want1[k]) {
      one.bad++;
      one.witness ??= `node ${Math.floor(k / C)} sends ${got1[k]} elements from its bucket ${k % C}, fig. 11 (counters from j mod C) gives ${want1[k]}`;
    }
  }
}

/**
 * Stage II: elements per (sender, row of its column), got2[v * R + row]; a message outside the column is a finding of
 * its own.
 */
function stageTwoSizes(p: number, s: Schedule, a: PaperArray, two: Finding): Float64Array {
  const { C, R } = a;
  const got2 = new Float64Array(p * R);
  const st = s.stages[1]!;
  for (let x = s.stepStart[st.firstStep]!; x < s.stepStart[st.firstStep + st.stepCount]!; x++) {
    const v = s.src[x]!,
      u = s.dst[x]!;
    if (u % C !== v % C) {
      two.bad++;
      two.witness ??= `node ${v} sends to ${u}, outside its column`;
    } else got2[v * R + Math.floor(u / C)] = got2[v * R + Math.floor(u / C)]! + s.size[x]!;
  }
  return got2;
}

/**
 * The visitor of `forEachStageOneHolding` that checks node v's Stage II sizes (and, with payloads, both stages per
 * destination) against C-Distribute of hv.
 */
function stageTwoVisitor(
  p: number,
  s: Schedule,
  a: PaperArray,
  got2: Float64Array,
  one: Finding,
  two: Finding,
  hold: boolean,
): (v: number, hv: Float64Array) => void {
  const { C, R, r } = a;
  const want2 = new Float64Array(R + 1),
    wrong = new Uint8Array(R);
  const perDestination = s.chunks ? perDestinationCheck(p, s, a, wrong, one, two, hold) : null;
  return (v: number, hv: Float64Array): void => {
    const n = r === 0 || v % C < r ? R : R - 1;
    // sizes: Q + the cyclic ranges [j mod N, j mod N + h mod N) over the buckets
    want2.fill(0);
    let q = 0;
    for (let j = 0; j < p; j++) {
      const h = hold && j === v ? 0 : hv[j]!;
      if (h === 0) continue;
      const f = floorDiv(h, n),
        rem = h - f * n,
        st = j % n;
      q += f;
      if (rem === 0) continue;
      want2[st]!++;
      if (st + rem <= n) want2[st + rem]!--;
      else {
        want2[n]!--;
        want2[0]!++;
        want2[st + rem - n]!--;
      }
    }
    let acc = 0;
    wrong.fill(0);
    for (let k = 0; k < n; k++) {
      acc += want2[k]!;
      const got = got2[v * R + k]!;
      if (got !== q + acc) {
        wrong[k] = 1;
        two.witness ??= `node ${v} sends ${got} elements to ${k * C + (v % C)} (row ${k} of its column); C-Distribute of what fig. 11 and fig. 8 leave it after stage I gives ${q + acc}`;
      }
    }
    if (perDestination) perDestination(v, hv, n);
    for (let k = 0; k < n; k++) two.bad += wrong[k]!;
  };
}

/**
 * Payload: node v received exactly hv[j] for each j in stage I and sends each row k of its column
 * exactly C-Distribute's count for j, nothing for itself with `hold` (a wrong (v, k) is marked in wrong[k]).
 */
function perDestinationCheck(
  p: number,
  s: Schedule,
  a: PaperArray,
  wrong: Uint8Array,
  one: Finding,
  two: Finding,
  hold: boolean,
): (v: number, hv: Float64Array, n: number) => void {
  const { C, R } = a;
  const c = s.chunks!;
  const into1 = byNode(s, 0, s.dst),
    from2 = byNode(s, 1, s.src);
  const perDest = new Float64Array(R * p); // chunks v sends row k for node j (payload), zeroed after each node
  return (v: number, hv: Float64Array, n: number): void => {
    // payload: what v received in stage I, per destination
    const recv = perDest.subarray(0, p);
    for (let t = into1.at[v]!; t < into1.at[v + 1]!; t++) {
      const x = into1.order[t]!;
      for (let y = c.start[x]!; y < c.start[x + 1]!; y++) recv[c.dest[y]!] = recv[c.dest[y]!]! + c.count[y]!;
    }
    for (let j = 0; j < p; j++) {
      if (recv[j] !== hv[j]) {
        one.bad++;
        one.witness ??= `node ${v} receives ${recv[j]} elements for node ${j} in stage I, fig. 11 and fig. 8 give ${hv[j]}`;
      }
    }
    recv.fill(0);
    // payload: what v sends each row of its column in stage II, per destination
    for (let t = from2.at[v]!; t < from2.at[v + 1]!; t++) {
      const x = from2.order[t]!,
        u = s.dst[x]!;
      if (u % C !== v % C) continue;
      const at = Math.floor(u / C) * p;
      for (let y = c.start[x]!; y < c.start[x + 1]!; y++)
        perDest[at + c.dest[y]!] = perDest[at + c.dest[y]!]! + c.count[y]!;
    }
    for (let k = 0; k < n; k++) {
      for (let j = 0; j < p; j++) {
        const h = hold && j === v ? 0 : hv[j]!,
          f = floorDiv(h, n);
        const want = f + ((k - (j % n) + n) % n < h - f * n ? 1 : 0);
        if (perDest[k * p + j] !== want) {
          wrong[k] = 1;
          two.witness ??= `node ${v} sends ${perDest[k * p + j]} elements for node ${j} to ${k * C + (v % C)} in stage II, C-Distribute of its ${h} gives ${want}`;
        }
      }
    }
    perDest.subarray(0, n * p).fill(0);
  };
}
