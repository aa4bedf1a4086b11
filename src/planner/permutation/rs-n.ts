/** RS_N: random scheduling avoiding node contention, 003 sec 3.3 fig. 4 (after Ranka and Wang, 003 ref. [11]). */
import type { CommMatrix } from "../../model/matrix.js";
import { createRng, shuffleInPlace } from "../../model/rng.js";
import { ScheduleBuilder, type Schedule } from "../../model/schedule.js";
import { progressPhases, progressTicker } from "../../model/progress.js";
import { planHeader } from "../plan-header.js";
import { definePlanner } from "../plan-params.js";
import type { Planner, PlanOptions } from "../types.js";
import { offDiagonalMessages } from "./messages.js";

const NAME = "rs-n";

/**
 * Figure 4 of 003 as published. CCOM holds, per row, the active entries (messages) not yet sent.
 * Each iteration is one phase: the rows with active entries are visited in a fresh seeded random
 * order (figure 4 says only "in each row i"; every processor runs the same program, so a shared
 * seeded order is what a distributed run would do); row i scans its active entries cyclically from
 * a seeded uniformly random start and picks the first whose column is not yet taken in this
 * iteration (figure 4 step (b)); the picked messages are sent whole and leave CCOM (step (d)).
 * A row whose active columns are all taken sends nothing in that phase. Every iteration picks at
 * least one message (the first row visited always succeeds), so the loop ends.
 * Cost: O(E) to build CCOM plus, per phase, O(P + scanned entries). Progress: the message list
 * (a tenth), then the messages placed, once per phase.
 */
function plan(m: CommMatrix, opts: PlanOptions): Schedule {
  const { phase: phaseProgress, end: endProgress } = progressPhases(opts.progress, [100, 900]);
  const msgs = offDiagonalMessages(m, phaseProgress(0));
  const placed = progressTicker(phaseProgress(1), msgs.count);
  let placedMark = placed(0);
  const { p, rowStart, dst, size } = msgs;
  const rng = createRng(opts.seed);
  const ccom = new Uint32Array(msgs.count);
  for (let k = 0; k < msgs.count; k++) ccom[k] = k;
  const len = new Uint32Array(p);
  const rows = new Uint32Array(p);
  let nRows = 0;
  for (let i = 0; i < p; i++) {
    len[i] = rowStart[i + 1]! - rowStart[i]!;
    if (len[i]! > 0) rows[nRows++] = i;
  }
  const taken = new Int32Array(p).fill(-1); // taken[j] = the iteration in which column j was picked
  const picked = new Uint32Array(p);
  const b = new ScheduleBuilder(planHeader(m, NAME, opts, true), opts.payload, msgs.count);
  b.stage("phases", "compose");
  for (let iter = 0, done = 0; nRows > 0; iter++) {
    if (done >= placedMark) placedMark = placed(done);
    shuffleInPlace(rng, rows.subarray(0, nRows));
    let nPicked = 0;
    for (let r = 0; r < nRows; r++) {
      const i = rows[r]!;
      const n = len[i]!,
        base = rowStart[i]!;
      const start = rng.int(n);
      for (let t = 0; t < n; t++) {
        const at = base + (start + t < n ? start + t : start + t - n);
        const k = ccom[at]!;
        const j = dst[k]!;
        if (taken[j] === iter) continue;
        taken[j] = iter;
        picked[nPicked++] = k;
        ccom[at] = ccom[base + n - 1]!; // reset the entry: swap-remove from the row's active list
        len[i] = n - 1;
        break;
      }
    }
    // one phase; transfers listed by sender (message indices are row-major)
    const phase = picked.subarray(0, nPicked).sort();
    done += nPicked;
    b.step();
    for (let x = 0; x < nPicked; x++) {
      const k = phase[x]!;
      const i = msgs.src[k]!,
        j = dst[k]!,
        s = size[k]!;
      b.transfer(i, j, s);
      if (b.payload) b.chunk(i, j, 0, s);
    }
    let w = 0;
    for (let r = 0; r < nRows; r++) if (len[rows[r]!]! > 0) rows[w++] = rows[r]!;
    nRows = w;
  }
  const s = b.build();
  endProgress();
  return s;
}

/** RS_N (003 fig. 4): seeded random greedy partial permutations, messages sent whole. */
export const rsN: Planner = definePlanner(
  {
    name: NAME,
    title: "RS_N: random partial permutations (rows in random order pick a free column), whole messages",
    source: "003 sec 3.3 fig. 4",
    params: {},
    traits: { relayed: false, randomised: true, stages: 1, growth: "linear", claims: "verifier" },
    auto: { variants: [{ params: {} }], bound: "whole-messages" },
  },
  plan,
);
