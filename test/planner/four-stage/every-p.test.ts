/** four-stage for EVERY P from 1 to 300 at payload level (issue 5, done-when): small random and divisible matrices, full verifier. */
import { describe, expect, it } from "vitest";
import { matrixFromData, type CommMatrix } from "../../../src/model/matrix.js";
import { createRng } from "../../../src/model/rng.js";
import { plan } from "../../../src/planner/index.js";
import { verifySchedule } from "../../../src/verifier/index.js";

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

/** The 004 sec 3.2.4 checks of a report, and the failing checks of any kind. */
function run(m: CommMatrix): { fourStage: { id: string; title: string }[]; failing: string[] } {
  const r = verifySchedule(m, plan(m, "four-stage", { payload: true }));
  return {
    fourStage: r.checks.filter((c) => c.id.startsWith("four-stage")),
    failing: r.checks.filter((c) => !c.holds).map((c) => `${c.id}: ${c.witness}`),
  };
}

describe("four-stage verifies at payload level with the stated bounds for every P from 1 to 300", () => {
  it("random sparse matrices with entries 0..3 (general-matrix bounds) and P * {0, 1} matrices (divisible bounds)", () => {
    for (let p = 1; p <= 300; p++) {
      for (const [kind, m] of [["random", sparseSmall(p, 7 * p + 1)], ["divisible", divisible(p, 7 * p + 2)]] as const) {
        const { fourStage, failing } = run(m);
        if (failing.length > 0) throw new Error(`P = ${p}, ${kind}: ${failing.join("; ")}`);
        // every stated bound was evaluated, under the assumption that applies
        expect(fourStage.length).toBeGreaterThanOrEqual(14);
        const isDivisible = Array.from(m.data).every((v, k) => k % (p + 1) === 0 || v % p === 0);
        const longest = fourStage.find((c) => c.id === "four-stage-I-longest")!;
        expect(longest.title).toContain(isDivisible ? "P divides every M[i][j]" : "general matrix");
      }
    }
  });
});
