/** Up-front memory estimates of two-stage and four-stage (issue 11 item 10): refused past the budget with one line, planned under it. */
import { describe, expect, it } from "vitest";
import { matrixFromData } from "../../src/model/matrix.js";
import { plan } from "../../src/planner/index.js";

/** A sparse P x P matrix with three entries. */
function sparse(p: number) {
  const d = new Float64Array(p * p);
  d[1] = 5;
  d[6 * p + (p - 3)] = 3;
  d[(p - 1) * p + 3] = 1;
  return matrixFromData(p, d);
}

describe("plan memory budget", () => {
  it("two-stage and four-stage refuse a plan past maxMemory with one line naming the estimate", () => {
    const m = sparse(512);
    // two-stage: 512^2 x 20 bytes of split arrays = 5 MiB; four-stage: two 512^2 holdings matrices = 4 MiB
    expect(() => plan(m, "two-stage", { maxMemory: 2 ** 20 })).toThrow(
      /^planner: two-stage: this plan would need about 5\.0 MiB \(512 x 512 split arrays, up to \d+ transfers\), over the memory budget of 1\.0 MiB/,
    );
    expect(() => plan(m, "four-stage", { maxMemory: 2 ** 20 })).toThrow(
      /^planner: four-stage: this plan would need about \d\.\d MiB \(two 512 x 512 holdings matrices, up to \d+ transfers\), over the memory budget of 1\.0 MiB/,
    );
    expect(() => plan(m, "four-stage", { maxMemory: 2 ** 20, payload: true })).toThrow(/pieces over the four stages/);
    for (const a of ["two-stage", "four-stage"]) {
      expect(() => plan(m, a, { maxMemory: 2 ** 20 })).toThrow(expect.objectContaining({ code: "UNSUPPORTED" }));
      expect(plan(m, a, { maxMemory: 2 ** 26 }).transferCount).toBeGreaterThan(0);
      expect(plan(m, a).transferCount).toBeGreaterThan(0); // default: half the machine's memory
    }
  });

  it("names a budget that would do, and a plan under that budget goes through", () => {
    const m = sparse(512);
    for (const a of ["two-stage", "four-stage"]) {
      let text = "";
      try {
        plan(m, a, { maxMemory: 2 ** 20 });
      } catch (e) {
        text = (e as Error).message;
      }
      const size = /\(raise it with the option maxMemory \(bytes\), e\.g\. (\d+)M\)/.exec(text)?.[1];
      expect(size, text).toBeDefined();
      expect(plan(m, a, { maxMemory: Number(size) * 2 ** 20 }).transferCount).toBeGreaterThan(0);
    }
  });
});
