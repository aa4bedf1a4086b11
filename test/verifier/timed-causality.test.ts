import { describe, expect, it } from "vitest";
import { findMachine } from "../../src/machines/presets.js";
import { runProtocol } from "../../src/machines/sim/protocols.js";
import { matrixDigest, matrixFromRows, type CommMatrix } from "../../src/model/matrix.js";
import { ScheduleBuilder, type Schedule } from "../../src/model/schedule.js";
import { generatePattern } from "../../src/patterns/index.js";
import { verifySchedule } from "../../src/verifier/index.js";

/** A hop: one transfer in a step of its own, carrying elements [offset, offset + count) of message origin -> dest. */
type Hop = [
  src: number,
  dst: number,
  origin: number,
  dest: number,
  offset: number,
  count: number,
  t0: number,
  t1: number,
];

/** A realised (timed) payload schedule of the hops, one step each, in the order given. */
function timedPlan(m: CommMatrix, hops: readonly Hop[], payload = true): Schedule {
  const b = new ScheduleBuilder(
    { p: m.p, algorithm: "hand", params: {}, seed: null, elementBytes: 8, matrixDigest: matrixDigest(m) },
    payload,
    hops.length,
    true,
  );
  b.stage("realised");
  for (const [src, dst, o, d, offset, count, t0, t1] of hops) {
    b.step().transfer(src, dst, count);
    if (payload) b.chunk(o, d, offset, count);
    b.times(t0, t1);
  }
  return b.build();
}

const row = (m: CommMatrix, s: Schedule, id: string) => verifySchedule(m, s).checks.find((c) => c.id === id);

// 0 -> 2 through relay 1: the first hop ends at 100 us
const relay = matrixFromRows([
  [0, 0, 5],
  [0, 0, 0],
  [0, 0, 0],
]);

describe("timed-causality: a relay forwards only what has arrived, by the realised times", () => {
  it("forwarding at 50 us what arrives at 100 us fails, naming the transfer, the elements and both times", () => {
    const s = timedPlan(relay, [
      [0, 1, 0, 2, 0, 5, 0, 100],
      [1, 2, 0, 2, 0, 5, 50, 150],
    ]);
    const report = verifySchedule(relay, s);
    expect(report.ok).toBe(false);
    // in step order it is fine: only the times are wrong
    expect(report.checks.filter((c) => !c.holds).map((c) => c.id)).toEqual(["timed-causality"]);
    expect(row(relay, s, "timed-causality")!.witness).toBe(
      "transfer 1 (1 -> 2, step 1) starts at 50 us forwarding elements of message 0 -> 2 (0..4) that arrive at node 1 only at 100 us",
    );
  });

  it("holds when the forward starts as the first hop ends, or later", () => {
    for (const start of [100, 120]) {
      const s = timedPlan(relay, [
        [0, 1, 0, 2, 0, 5, 0, 100],
        [1, 2, 0, 2, 0, 5, start, start + 50],
      ]);
      expect(verifySchedule(relay, s).ok, `start ${start}`).toBe(true);
      expect(row(relay, s, "timed-causality")!.holds).toBe(true);
    }
  });

  it("follows every element: of a message brought in two pieces, only the late piece is forwarded too early", () => {
    const s = timedPlan(relay, [
      [0, 1, 0, 2, 0, 3, 0, 10],
      [0, 1, 0, 2, 3, 2, 10, 200],
      [1, 2, 0, 2, 0, 5, 150, 250],
    ]);
    const c = row(relay, s, "timed-causality")!;
    expect(c.holds).toBe(false);
    expect(c.witness).toMatch(
      /starts at 150 us forwarding elements of message 0 -> 2 \(3\.\.4\) that arrive at node 1 only at 200 us$/,
    );
  });

  it("is absent without times or without payloads, and holds on DRS_N's realised trace (direct)", () => {
    const untimed = new ScheduleBuilder(
      { p: 3, algorithm: "hand", params: {}, seed: null, elementBytes: 8, matrixDigest: matrixDigest(relay) },
      true,
    );
    untimed.stage("s").step().transfer(0, 2, 5);
    untimed.chunk(0, 2, 0, 5);
    expect(row(relay, untimed.build(), "timed-causality")).toBeUndefined();
    const messageLevel = timedPlan(relay, [[0, 2, 0, 2, 0, 5, 0, 10]], false);
    expect(row(relay, messageLevel, "timed-causality")).toBeUndefined();
    const m = generatePattern("wang-set2", 16, { d: 4 }, 2);
    const run = runProtocol(m, findMachine("cm5-004"), { protocol: "drs-n", timeline: false });
    expect(row(m, run.realised, "timed-causality")!.holds).toBe(true);
  });
});
