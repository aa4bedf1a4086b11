/** Plan header and direct-message helpers shared by the planners. */
import { matrixDigest, matrixRows, type CommMatrix } from "../model/matrix.js";
import { createRng, type Rng } from "../model/rng.js";
import type { ScheduleBuilder, ScheduleHeader } from "../model/schedule.js";
import type { PlanOptions } from "./types.js";
import { messagesByStep } from "./by-step.js";

/**
 * The header of a plan made by `algorithm` for matrix m; its params are those the caller gave (planners
 * that report more add to them). `random`: the planner makes a random choice from `opts.seed`; only then
 * does the header record the seed (else null, so that plans which no seed can change are the same bytes).
 */
export function planHeader(m: CommMatrix, algorithm: string, opts: PlanOptions, random: boolean): ScheduleHeader {
  return {
    p: m.p,
    algorithm,
    params: opts.givenParams,
    seed: random ? opts.seed : null,
    elementBytes: m.elementBytes,
    matrixDigest: matrixDigest(m),
  };
}

/**
 * A seeded Rng that records whether anything was drawn from it (for planners whose random choices depend on the input).
 */
export function trackedRng(seed: number): { readonly rng: Rng; readonly used: () => boolean } {
  const inner = createRng(seed);
  let drawn = false;
  const rng: Rng = {
    nextU32: () => ((drawn = true), inner.nextU32()),
    next: () => ((drawn = true), inner.next()),
    int: (n) => ((drawn = true), inner.int(n)),
  };
  return { rng, used: () => drawn };
}

/**
 * Adds the message i -> j of `size` elements (if non-empty) to the current step; with payload, one chunk [i, j, 0,
 * size].
 */
export function sendSize(b: ScheduleBuilder, i: number, j: number, size: number): void {
  if (size === 0) return;
  b.transfer(i, j, size);
  if (b.payload) b.chunk(i, j, 0, size);
}

/** Counts the non-zero off-diagonal entries (a capacity hint for builders); O(P + E) on sparse storage. */
export function countMessages(m: CommMatrix): number {
  let n = 0;
  const s = m.sparse;
  if (s) {
    for (let i = 0; i < m.p; i++) for (let k = s.rowStart[i]!; k < s.rowStart[i + 1]!; k++) if (s.col[k] !== i) n++;
    return n;
  }
  const { p, data } = m;
  for (let i = 0; i < p; i++) {
    const base = i * p;
    for (let j = 0; j < p; j++) if (data[base + j]! > 0) n++;
    if (data[base + i]! > 0) n--;
  }
  return n;
}

/**
 * Sends every network message of a sparse matrix whole, one step per non-empty value of
 * `stepOf(i, j)` (0..steps-1), in step order and, within a step, in row order: what a planner that
 * loops over steps and rows emits, without its P x steps loop (messagesByStep).
 */
export function sendByStep(
  b: ScheduleBuilder,
  m: CommMatrix,
  steps: number,
  stepOf: (i: number, j: number) => number,
): void {
  const { col, val } = matrixRows(m);
  const { start, src, at } = messagesByStep(m, steps, stepOf);
  for (let s = 0; s < steps; s++) {
    if (start[s] === start[s + 1]) continue;
    b.step();
    for (let x = start[s]!; x < start[s + 1]!; x++) sendSize(b, src[x]!, col[at[x]!]!, val[at[x]!]!);
  }
}
