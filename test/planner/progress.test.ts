/** Every planner reports its progress through PlanOptions.progress (monotone, up to the total) without changing its plan. */
import { describe, expect, it } from "vitest";
import { generatePattern } from "../../src/patterns/registry.js";
import { PLANNERS, plan, resolvePlanOptions } from "../../src/planner/registry.js";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { toSparse } from "../../src/model/matrix.js";
import type { JsonValue } from "../../src/model/schedule.js";
import { expectProgress, recorder } from "../helpers/progress.js";
import { errorOf } from "../helpers/errors.js";

const m = generatePattern("random", 16, { density: 0.7, max: 9 }, 3);

/** Plans with and without a progress callback: the calls, and whether the two schedules are the same bytes. */
function planBoth(algorithm: string, payload: boolean, params: { [k: string]: JsonValue } = {}, mat = m) {
  const { calls, progress } = recorder();
  const withBar = plan(mat, algorithm, { payload, params, seed: 5, progress });
  const without = plan(mat, algorithm, { payload, params, seed: 5 });
  return { calls, same: scheduleToJsonText(withBar) === scheduleToJsonText(without) };
}

describe("planner progress", () => {
  it.each(PLANNERS.map((p) => p.name))("%s reports monotone progress up to its total, the plan unchanged", (name) => {
    for (const payload of [false, true]) {
      const { calls, same } = planBoth(name, payload);
      expectProgress(calls);
      expect(new Set(calls.map((c) => c[0])).size).toBeGreaterThanOrEqual(3); // reports on its way, not only at the end
      expect(same).toBe(true);
    }
  });

  it("parameter variants report too: rs-nh with a fixed cutoff, split-coloring's bvn mode, two-stage's reshuffle, te-offline's search", () => {
    for (const [name, params] of [
      ["rs-nh", { cutoff: 3 }],
      ["split-coloring", { mode: "bvn" }],
      ["two-stage", { reshuffle: true }],
      ["te-offline", { orders: 2 }],
    ] as const) {
      const { calls, same } = planBoth(name, true, params);
      expectProgress(calls);
      expect(same).toBe(true);
    }
  });

  it("a sparse matrix's plan reports its end (shift and linear-permutation plan it in O(P + E) without steps)", () => {
    for (const name of ["shift", "linear-permutation", "coloring"]) {
      const { calls, same } = planBoth(name, false, {}, toSparse(m));
      expectProgress(calls);
      expect(same).toBe(true);
    }
  });

  it("te-simple split into sub-relations counts only the packets delivered (the ones set aside are not)", () => {
    const { calls, progress } = recorder();
    const s = plan(m, "te-simple", { params: { subsetH: 0.05 }, progress });
    expect(s.params["subsets"]).toBeGreaterThan(1);
    expectProgress(calls);
    // the rounds rise by small steps: none jumps by a quarter of the total
    calls.forEach(([done, total], k) => expect(done - (k > 0 ? calls[k - 1]![0] : 0)).toBeLessThan(total / 4));
  });

  it("a progress option that is not a function is refused by name, through plan and through a planner's own plan", () => {
    const bad = 42 as unknown as () => void;
    const e = errorOf(() => plan(m, "coloring", { progress: bad }));
    expect(e.message).toBe("planner: progress must be a function (done, total), got number");
    expect(e.code).toBe("BAD_OPTION");
    expect(e.place.field).toBe("progress");
    const shift = PLANNERS.find((p) => p.name === "shift")!;
    expect(errorOf(() => shift.plan(m, { ...resolvePlanOptions(shift), progress: bad })).message).toBe(
      "planner: progress must be a function (done, total), got number",
    );
  });

  it("resolvePlanOptions keeps the callback only when one is given (the store keys never see it)", () => {
    const planner = PLANNERS.find((p) => p.name === "shift")!;
    const progress = (): void => undefined;
    expect(resolvePlanOptions(planner, { progress }).progress).toBe(progress);
    expect("progress" in resolvePlanOptions(planner, {})).toBe(false);
    expect("progress" in resolvePlanOptions(planner, { progress: null })).toBe(false);
  });
});
