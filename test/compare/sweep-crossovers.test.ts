// crossovers (src/compare/sweep.ts) on hand-made sweep points: where two series swap order, interpolated log-log.
import { describe, expect, it } from "vitest";
import { crossovers, type SweepPoint } from "../../src/compare/sweep.js";

function point(bytes: number, times: (number | null)[], best: string | null): SweepPoint {
  return { factor: bytes, meanMessageBytes: bytes, times, bound: null, best };
}

describe("crossovers", () => {
  it("places a swap at the log-log crossing and marks a leader change", () => {
    // a: 10 -> 1000, b: 100 -> 100 over 1 -> 100 bytes: log a - log b goes -1 -> +1, crossing at 10 bytes, 100 us
    const c = crossovers(["a", "b"], [point(1, [10, 100], "a"), point(100, [1000, 100], "b")]);
    expect(c).toHaveLength(1);
    expect(c[0]!.before).toBe("a");
    expect(c[0]!.after).toBe("b");
    expect(c[0]!.meanMessageBytes).toBeCloseTo(10, 9);
    expect(c[0]!.timeUs).toBeCloseTo(100, 9);
    expect(c[0]!.leaderChange).toBe(true);
  });

  it("finds no swap when the order holds, skips missing times, and flags a swap behind the leader as no leader change", () => {
    expect(crossovers(["a", "b"], [point(1, [1, 2], "a"), point(10, [5, 20], "a")])).toEqual([]);
    expect(crossovers(["a", "b"], [point(1, [1, null], "a"), point(10, [5, 2], "b")])).toEqual([]);
    const c = crossovers(["a", "b", "c"], [point(1, [1, 5, 6], "a"), point(10, [2, 7, 6.5], "a")]);
    expect(c.map((x) => [x.before, x.after, x.leaderChange])).toEqual([["b", "c", false]]);
  });
});
