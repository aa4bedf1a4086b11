/** Plan header and direct-message helpers shared by the planners. */
import { matrixDigest, type CommMatrix } from "../model/matrix.js";
import { createRng, type Rng } from "../model/rng.js";
import type { ScheduleBuilder, ScheduleHeader } from "../model/schedule.js";
import type { PlanOptions } from "./types.js";

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

/** A seeded Rng that records whether anything was drawn from it (for planners whose random choices depend on the input). */
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

/** Adds the whole message i -> j (if non-empty) to the current step; with payload, one chunk [i, j, 0, M[i][j]]. */
export function sendWhole(b: ScheduleBuilder, m: CommMatrix, i: number, j: number): void {
  const size = m.data[i * m.p + j]!;
  if (size === 0) return;
  b.transfer(i, j, size);
  if (b.payload) b.chunk(i, j, 0, size);
}

/** Counts the non-zero off-diagonal entries (a capacity hint for builders). */
export function countMessages(m: CommMatrix): number {
  let n = 0;
  for (let i = 0; i < m.p; i++) for (let j = 0; j < m.p; j++) if (i !== j && m.data[i * m.p + j]! > 0) n++;
  return n;
}
