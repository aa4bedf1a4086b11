import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ScheduleBuilder, type Schedule } from "../../src/model/schedule.js";
import { checkTimedContention } from "../../src/verifier/timed-overlap.js";

type Row = [src: number, dst: number, start: number, end: number];

/** One step per transfer (so the per-step check sees nothing), with the given times. */
function timed(p: number, rows: readonly Row[]): Schedule {
  const b = new ScheduleBuilder(
    { p, algorithm: "hand", params: {}, seed: null, elementBytes: 1, matrixDigest: "x" },
    false,
    rows.length,
    true,
  );
  b.stage("realised");
  for (const [a, d, t0, t1] of rows) {
    b.step().transfer(a, d, 1);
    b.times(t0, t1);
  }
  return b.build();
}

/** The most sends or receives of one node in progress at one instant, by brute force over all start instants. */
function bruteWorst(p: number, rows: readonly Row[]): number {
  let worst = 0;
  for (const [, , t] of rows) {
    for (let v = 0; v < p; v++) {
      const live = rows.filter(([a, d, s, e]) => a !== d && e > s && s <= t && t < e);
      worst = Math.max(worst, live.filter((r) => r[0] === v).length, live.filter((r) => r[1] === v).length);
    }
  }
  return worst;
}

describe("timed-contention (realised start / end times)", () => {
  it("is absent for an untimed schedule", () => {
    const b = new ScheduleBuilder(
      { p: 2, algorithm: "hand", params: {}, seed: null, elementBytes: 1, matrixDigest: "x" },
      false,
    );
    b.stage("s").step().transfer(0, 1, 3);
    expect(checkTimedContention(b.build(), 1)).toBeNull();
  });

  it("back-to-back receives hold; overlapping receives fail with the node, both transfers and the time", () => {
    expect(
      checkTimedContention(
        timed(3, [
          [0, 2, 0, 10],
          [1, 2, 10, 20],
        ]),
        1,
      )!.holds,
    ).toBe(true);
    const c = checkTimedContention(
      timed(3, [
        [0, 2, 0, 10],
        [1, 2, 5, 20],
      ]),
      1,
    )!;
    expect(c.holds).toBe(false);
    expect(c.measured).toBe(2);
    expect(c.witness).toBe(
      "node 2 receives transfer 1 (1 -> 2, 5..20 us) while transfer 0 (0 -> 2, 0..10 us) is under way, at 5 us with 1 receive port(s); 1 overlap(s) in all",
    );
    expect(
      checkTimedContention(
        timed(3, [
          [0, 2, 0, 10],
          [1, 2, 5, 20],
        ]),
        2,
      )!.holds,
    ).toBe(true);
  });

  it("overlapping sends fail; local copies and empty intervals use no port", () => {
    const c = checkTimedContention(
      timed(3, [
        [0, 1, 0, 10],
        [0, 2, 3, 4],
      ]),
      1,
    )!;
    expect(c.holds).toBe(false);
    expect(c.witness).toMatch(/^node 0 sends transfer 1 \(0 -> 2, 3\.\.4 us\) while transfer 0/);
    expect(
      checkTimedContention(
        timed(3, [
          [0, 1, 0, 10],
          [0, 0, 3, 4],
          [2, 1, 5, 5],
        ]),
        1,
      )!.holds,
    ).toBe(true);
  });

  it("measures the same worst overlap as a brute-force count over random timed schedules", () => {
    const row = (p: number) =>
      fc.tuple(fc.nat(p - 1), fc.nat(p - 1), fc.nat(30), fc.nat(10)).map(([a, d, s, len]): Row => [a, d, s, s + len]);
    fc.assert(
      fc.property(
        fc
          .integer({ min: 2, max: 6 })
          .chain((p) => fc.tuple(fc.constant(p), fc.array(row(p), { maxLength: 25 }), fc.integer({ min: 1, max: 3 }))),
        ([p, rows, ports]) => {
          const c = checkTimedContention(timed(p, rows), ports)!;
          const worst = bruteWorst(p, rows);
          expect(c.measured).toBe(worst);
          expect(c.holds).toBe(worst <= ports);
        },
      ),
      { numRuns: 200 },
    );
  });
});
