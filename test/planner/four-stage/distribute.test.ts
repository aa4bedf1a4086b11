/** R-Distribute and C-Distribute against fig. 11 of 004 element by element. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cDistribute, nodeArray, rDistribute } from "../../../src/planner/four-stage/index.js";

describe("004 fig. 11 distribution counters", () => {
  it("R-Distribute: element t for node j goes to bucket ((j mod C + t) mod P) mod C", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 150 }), fc.nat(), fc.integer({ min: 0, max: 700 }), (p, jr, h) => {
      const a = nodeArray(p), j = jr % p;
      const want = new Float64Array(a.cols);
      for (let t = 0; t < h; t++) want[((j % a.cols) + t) % p % a.cols]!++;
      const got = new Float64Array(a.cols);
      rDistribute(a, j, h, got);
      expect(Array.from(got)).toEqual(Array.from(want));
    }), { numRuns: 400 });
  });
  it("C-Distribute: element t for node j goes to bucket (j mod N + t) mod N", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.nat(), fc.integer({ min: 0, max: 300 }), (n, j, h) => {
      const want = new Float64Array(n);
      for (let t = 0; t < h; t++) want[((j % n) + t) % n]!++;
      const got = new Float64Array(n);
      cDistribute(n, j, h, got);
      expect(Array.from(got)).toEqual(Array.from(want));
    }), { numRuns: 300 });
  });
});
