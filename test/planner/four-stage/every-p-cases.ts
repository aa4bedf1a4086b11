/** The every-P four-stage case (issue 5, done-when), shared by every-p-*.test.ts: each file covers the P of one residue mod EVERY_P_FILES, one test per P. */
import { expect } from "vitest";
import { matrixFromData, type CommMatrix } from "../../../src/model/matrix.js";
import { createRng } from "../../../src/model/rng.js";
import { plan } from "../../../src/planner/index.js";
import { verifySchedule } from "../../../src/verifier/index.js";

/** The largest P checked. */
export const EVERY_P_MAX = 300;
/** Files the range 1..EVERY_P_MAX is dealt over (P mod EVERY_P_FILES): the cost grows with P, so interleaving keeps the files even. */
export const EVERY_P_FILES = 4;

/** The P of file `part` (0-based residue): P = part, part + EVERY_P_FILES, ... within 1..EVERY_P_MAX. */
export function everyPPart(part: number): number[] {
  const out: number[] = [];
  for (let p = part === 0 ? EVERY_P_FILES : part; p <= EVERY_P_MAX; p += EVERY_P_FILES) out.push(p);
  return out;
}

/** Entries 0..3 with probability 0.1 each (diagonal included: it stays put). */
function sparseSmall(p: number, seed: number): CommMatrix {
  const rng = createRng(seed);
  const d = new Float64Array(p * p);
  for (let k = 0; k < p * p; k++) if (rng.next() < 0.1) d[k] = rng.int(4);
  return matrixFromData(p, d);
}

/** The divisible case of 004 sec 3.2.4: entries P * {0, 1}, about one non-zero entry per row (each element is spread over every node by Stage II, so a P-element message becomes about 3P chunks). */
function divisible(p: number, seed: number): CommMatrix {
  const rng = createRng(seed);
  const d = new Float64Array(p * p);
  for (let k = 0; k < p * p; k++) if (rng.int(p) === 0) d[k] = p;
  return matrixFromData(p, d);
}

/** four-stage at payload level on a random sparse matrix (general-matrix bounds) and a P * {0, 1} matrix (divisible bounds) of size P: every check holds, every stated bound evaluated. */
export function checkEveryP(p: number): void {
  for (const [kind, m] of [
    ["random", sparseSmall(p, 7 * p + 1)],
    ["divisible", divisible(p, 7 * p + 2)],
  ] as const) {
    const r = verifySchedule(m, plan(m, "four-stage", { payload: true }));
    const failing = r.checks.filter((c) => !c.holds).map((c) => `${c.id}: ${c.witness}`);
    expect(failing, `P = ${p}, ${kind}`).toEqual([]);
    // every stated bound was evaluated, under the assumption that applies
    const fourStage = r.checks.filter((c) => c.id.startsWith("four-stage"));
    expect(fourStage.length, `P = ${p}, ${kind}`).toBeGreaterThanOrEqual(14);
    const isDivisible = Array.from(m.data).every((v, k) => k % (p + 1) === 0 || v % p === 0);
    const longest = fourStage.find((c) => c.id === "four-stage-I-longest")!;
    expect(longest.title, `P = ${p}, ${kind}`).toContain(isDivisible ? "P divides every M[i][j]" : "general matrix");
  }
}
