/** R-Distribute and C-Distribute against fig. 11 of 004 element by element. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cDistribute, cDistributeRow, nodeArray, rDistribute, rDistributeRow } from "../../../src/planner/four-stage/index.js";

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

describe("the row-wise fast paths give the per-destination counts", () => {
  it("rDistributeRow and cDistributeRow equal rDistribute and cDistribute for every destination", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 60 }), fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 60, maxLength: 60 }), fc.integer({ min: 1, max: 9 }), (p, vals, n) => {
      const a = nodeArray(p), row = Float64Array.from(vals.slice(0, p));
      const byRow = new Float64Array(a.cols * p), one = new Float64Array(a.cols);
      rDistributeRow(a, row, byRow);
      for (let j = 0; j < p; j++) {
        rDistribute(a, j, row[j]!, one);
        for (let c = 0; c < a.cols; c++) expect(byRow[c * p + j]).toBe(one[c]);
      }
      const cRow = new Float64Array(n * p), cOne = new Float64Array(n);
      cDistributeRow(n, row, cRow);
      for (let j = 0; j < p; j++) {
        cDistribute(n, j, row[j]!, cOne);
        for (let k = 0; k < n; k++) expect(cRow[k * p + j]).toBe(cOne[k]);
      }
    }), { numRuns: 200 });
  });
});
