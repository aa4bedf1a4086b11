/** R-Distribute and C-Distribute against fig. 11 of 004 element by element. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ARRIVED_RULES,
  cDistribute,
  fourStageRules,
  nodeArray,
  rDistribute,
  routeCDistribute,
  routeCounts,
  routeRDistribute,
} from "../../../src/planner/four-stage/index.js";
import { createRng } from "../../../src/model/rng.js";

describe("004 fig. 11 distribution counters", () => {
  it("R-Distribute: element t for node j goes to bucket ((j mod C + t) mod P) mod C", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 150 }), fc.nat(), fc.integer({ min: 0, max: 700 }), (p, jr, h) => {
        const a = nodeArray(p),
          j = jr % p;
        const want = new Float64Array(a.cols);
        for (let t = 0; t < h; t++) want[(((j % a.cols) + t) % p) % a.cols]!++;
        const got = new Float64Array(a.cols);
        rDistribute(a, j, h, got);
        expect(Array.from(got)).toEqual(Array.from(want));
      }),
      { numRuns: 400 },
    );
  });
  it("C-Distribute: element t for node j goes to bucket (j mod N + t) mod N", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.nat(), fc.integer({ min: 0, max: 300 }), (n, j, h) => {
        const want = new Float64Array(n);
        for (let t = 0; t < h; t++) want[((j % n) + t) % n]!++;
        const got = new Float64Array(n);
        cDistribute(n, j, h, got);
        expect(Array.from(got)).toEqual(Array.from(want));
      }),
      { numRuns: 300 },
    );
  });
});

/** Random holdings: each (node, destination) amount non-zero with probability `density`, up to maxEntry. */
function holdings(p: number, seed: number, density: number, maxEntry: number): Float64Array {
  const rng = createRng(seed);
  const h = new Float64Array(p * p);
  for (let k = 0; k < p * p; k++) if (rng.next() < density) h[k] = 1 + Math.floor(rng.next() * maxEntry);
  return h;
}

describe("the closed-form Stage I and II routers give the per-destination counters' holdings and sizes", () => {
  it("routeRDistribute and routeCDistribute equal routeCounts with fig. 11's split per (node, destination)", () => {
    const cases: [number, number, number][] = [];
    for (let p = 1; p <= 130; p++) cases.push([p, 0.3, p < 40 ? 3 * p : 1000]);
    for (const p of [143, 168, 255, 300]) cases.push([p, 0.5, 2 ** 40]);
    for (const [p, density, maxEntry] of cases) {
      for (const arrived of ARRIVED_RULES) {
        const a = nodeArray(p),
          rules = fourStageRules(a, arrived);
        const hold = holdings(p, p * 13 + 1, density, maxEntry);
        for (const [k, fast] of [
          [0, routeRDistribute(a, hold)],
          [1, routeCDistribute(a, hold, null, arrived)],
        ] as const) {
          const ref = routeCounts(p, hold, rules[k]!);
          const what = `P = ${p}, arrived=${arrived}, stage ${k + 1}`;
          expect(fast.msgs.buckets).toBe(ref.msgs.buckets);
          expect(Array.from(fast.msgs.size), `${what}: sizes`).toEqual(Array.from(ref.msgs.size));
          expect(Array.from(fast.next), `${what}: holdings`).toEqual(Array.from(ref.next));
        }
      }
    }
  });
});
