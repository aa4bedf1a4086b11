import { describe, expect, it } from "vitest";
import {
  flatFormulaBlocking,
  flatFormulaNonblocking,
  scheduleCost,
  type CostMode,
} from "../../src/machines/cost-model.js";
import { findMachine, MACHINES } from "../../src/machines/presets.js";
import type { MachineModel } from "../../src/model/machine.js";
import { ScheduleBuilder, type Schedule } from "../../src/model/schedule.js";

/** Round numbers so that every expected value below can be checked by hand. */
const M: MachineModel = {
  name: "test",
  title: "test",
  source: "test",
  ts: 10,
  tsSend: 5,
  tc: 1,
  td: 2,
  tm: 0.5,
  ports: 1,
  barrier: 7,
};

function builder(p: number, elementBytes = 2): ScheduleBuilder {
  return new ScheduleBuilder({ p, algorithm: "test", params: {}, seed: null, elementBytes, matrixDigest: "" }, false);
}

/** Builds a schedule from [stage name, rearrange, steps of [src, dst, size]]. */
function build(
  p: number,
  stages: [string, "none" | "compose" | "distribute" | "collect", [number, number, number][][]][],
  elementBytes = 2,
): Schedule {
  const b = builder(p, elementBytes);
  for (const [name, rearrange, steps] of stages) {
    b.stage(name, rearrange);
    for (const step of steps) {
      b.step();
      for (const [s, d, n] of step) b.transfer(s, d, n);
    }
  }
  return b.build();
}

describe("scheduleCost, blocking", () => {
  it("one step: barrier + T_s + bytes (t_c + t_d)", () => {
    const c = scheduleCost(build(2, [["s", "none", [[[0, 1, 3]]]]]), M, "blocking");
    // 3 elements * 2 bytes = 6 bytes: 7 + 10 + 6 * 3 = 35
    expect(c.total).toBe(35);
    expect(c.steps).toEqual([{ step: 0, stage: 1, time: 28, longest: 3, messages: 1 }]);
    expect(c.stages[0]).toEqual({
      stage: 1,
      name: "s",
      barrier: 7,
      rearrange: 0,
      communication: 28,
      time: 35,
      startups: 1,
    });
    expect(c.startups).toBe(1);
    expect(c.bytes).toBe(6);
    expect(c.mode).toBe("blocking");
    expect(c.machine).toBe("test");
  });

  it("two steps: each step costs its slowest transfer, steps add up", () => {
    const s = build(3, [
      [
        "s",
        "none",
        [
          [
            [0, 1, 3],
            [1, 2, 5],
          ],
          [[2, 0, 1]],
        ],
      ],
    ]);
    const c = scheduleCost(s, M, "blocking");
    // step 0: max(10 + 6*3, 10 + 10*3) = 40; step 1: 10 + 2*3 = 16
    expect(c.steps.map((x) => x.time)).toEqual([40, 16]);
    expect(c.steps.map((x) => x.longest)).toEqual([5, 1]);
    expect(c.steps.map((x) => x.messages)).toEqual([2, 1]);
    expect(c.total).toBe(7 + 40 + 16);
    expect(c.startups).toBe(1);
    expect(c.bytes).toBe(10);
  });

  it("a local copy costs bytes * t_m with no start-up and is not a message", () => {
    const s = build(2, [
      [
        "s",
        "none",
        [
          [
            [0, 0, 4],
            [1, 0, 1],
          ],
          [[1, 1, 10]],
        ],
      ],
    ]);
    const c = scheduleCost(s, M, "blocking");
    // step 0: max(8 * 0.5, 10 + 2*3) = 16; step 1: local only, 20 * 0.5 = 10
    expect(c.steps).toEqual([
      { step: 0, stage: 1, time: 16, longest: 1, messages: 1 },
      { step: 1, stage: 1, time: 10, longest: 0, messages: 0 },
    ]);
    expect(c.total).toBe(7 + 16 + 10);
    expect(c.bytes).toBe(2); // local copies are not network bytes
  });

  it("an empty step costs 0 and an empty stage costs its barrier", () => {
    const b = builder(2);
    b.stage("a", "compose").step().step().transfer(0, 1, 1);
    b.stage("empty", "collect");
    const c = scheduleCost(b.build(), M, "blocking");
    expect(c.steps.map((x) => x.time)).toEqual([0, 16]);
    expect(c.stages.map((x) => x.time)).toEqual([7 + 2 * 0.5 + 16, 7]);
    expect(c.total).toBe(24 + 7);
  });

  it("two stages: barrier in every stage, compose charged on the most bytes one node sends (local copies included)", () => {
    const s = build(2, [
      [
        "A",
        "compose",
        [
          [
            [0, 1, 2],
            [1, 0, 4],
          ],
          [[0, 0, 3]],
        ],
      ],
      ["B", "none", [[[1, 0, 1]]]],
    ]);
    const c = scheduleCost(s, M, "blocking");
    // A: node 0 handles 4 + 6 = 10 bytes, node 1 8 bytes -> rearrange 10 * 0.5 = 5;
    //    step 0 max(10 + 4*3, 10 + 8*3) = 34, step 1 6 * 0.5 = 3 -> 7 + 5 + 37 = 49
    // B: 7 + 10 + 2*3 = 23
    expect(c.stages).toEqual([
      { stage: 1, name: "A", barrier: 7, rearrange: 5, communication: 37, time: 49, startups: 1 },
      { stage: 2, name: "B", barrier: 7, rearrange: 0, communication: 16, time: 23, startups: 1 },
    ]);
    expect(c.total).toBe(72);
    expect(c.startups).toBe(2);
    expect(c.bytes).toBe(10); // node 1: 8 + 2
    expect(c.steps.map((x) => x.stage)).toEqual([1, 1, 2]);
  });

  it("every rearrangement kind except none costs t_m per byte", () => {
    for (const r of ["compose", "distribute", "collect"] as const) {
      const c = scheduleCost(build(2, [["s", r, [[[0, 1, 3]]]]]), M, "blocking");
      expect(c.stages[0]!.rearrange).toBe(3);
    }
  });
});

describe("scheduleCost, nonblocking", () => {
  const stageComm = (s: Schedule, m: MachineModel = M): number =>
    scheduleCost(s, m, "nonblocking").stages[0]!.communication;

  it("start-ups dominate: n_i T_s", () => {
    // node 0 sends three 2-byte messages: max(3 * 10, 6 * 1, 6 * 2) = 30
    const s = build(4, [["s", "none", [[[0, 1, 1]], [[0, 2, 1]], [[0, 3, 1]]]]]);
    expect(stageComm(s)).toBe(30);
    const c = scheduleCost(s, M, "nonblocking");
    expect(c.total).toBe(37);
    expect(c.steps).toEqual([]);
    expect(c.startups).toBe(3);
  });

  it("received messages count too: n_i = max(sent, received)", () => {
    const s = build(4, [["s", "none", [[[1, 0, 1]], [[2, 0, 1]], [[3, 0, 1]]]]]);
    expect(stageComm(s)).toBe(30);
    expect(scheduleCost(s, M, "nonblocking").startups).toBe(1);
  });

  it("network transfer dominates: b_i t_d", () => {
    // 100 elements = 200 bytes: max(10, 200, 400) = 400
    expect(stageComm(build(2, [["s", "none", [[[0, 1, 100]]]]]))).toBe(400);
  });

  it("interface copy dominates: b_i t_c", () => {
    const slowCopy: MachineModel = { ...M, tc: 3, td: 1 };
    expect(stageComm(build(2, [["s", "none", [[[0, 1, 100]]]]]), slowCopy)).toBe(600);
  });

  it("received bytes count too: b_i = max(sent, received)", () => {
    // node 0 receives 2 * 20 bytes = 40: max(2 * 10, 40 * 1, 40 * 2) = 80
    expect(stageComm(build(3, [["s", "none", [[[1, 0, 10]], [[2, 0, 10]]]]]))).toBe(80);
  });

  it("charges barrier and rearrangement per stage like blocking mode; local copies only through the rearrangement", () => {
    const s = build(2, [
      [
        "A",
        "compose",
        [
          [
            [0, 1, 2],
            [1, 0, 4],
          ],
          [[0, 0, 3]],
        ],
      ],
      ["B", "none", [[[1, 0, 1]]]],
    ]);
    const c = scheduleCost(s, M, "nonblocking");
    // A: rearrange 5; nodes 0 and 1: n = 1, b = 8 -> max(10, 8, 16) = 16 -> 28. B: max(10, 2, 4) = 10 -> 17
    expect(c.stages.map((x) => [x.rearrange, x.communication, x.time])).toEqual([
      [5, 16, 28],
      [0, 10, 17],
    ]);
    expect(c.total).toBe(45);
  });

  it("can exceed blocking mode when a step has node contention (blocking assumes f_nc = 1)", () => {
    const s = build(4, [
      [
        "s",
        "none",
        [
          [
            [1, 0, 1],
            [2, 0, 1],
            [3, 0, 1],
          ],
        ],
      ],
    ]);
    expect(scheduleCost(s, M, "blocking").total).toBe(7 + 16);
    expect(scheduleCost(s, M, "nonblocking").total).toBe(7 + 30);
  });
});

describe("scheduleCost, input checks", () => {
  it("rejects an unknown mode", () => {
    const s = build(2, [["s", "none", [[[0, 1, 1]]]]]);
    expect(() => scheduleCost(s, M, "eager" as CostMode)).toThrow(/^machines: unknown cost mode 'eager'/);
  });

  it("names a missing or non-string mode as what it is, not as the string 'undefined'", () => {
    const s = build(2, [["s", "none", [[[0, 1, 1]]]]]);
    const call = scheduleCost as (...a: unknown[]) => unknown;
    expect(() => call(s, M)).toThrow(
      /^machines: the cost mode must be a string, got undefined; known: blocking, nonblocking$/,
    );
    expect(() => call(s, M, { mode: "blocking" })).toThrow(/^machines: the cost mode must be a string, got an object;/);
  });

  it("rejects a transfer naming a node outside the schedule", () => {
    // the builder refuses node 5 of P = 2 where it is given: the schedule object is edited after it is built
    const s = build(2, [["s", "none", [[[0, 1, 1]]]]]);
    s.dst[0] = 5;
    expect(() => scheduleCost(s, M, "blocking")).toThrow(
      /^machines: the schedule is not well formed: transfer 0: node 5 is not in 0\.\.1$/,
    );
  });
});

/** The uniform all-to-all shift of 004 section 2.3 without the self message: P - 1 steps, step k: i -> (i + k) % P. */
function shift(P: number, m: number, elementBytes: number, withSelf = false): Schedule {
  const b = builder(P, elementBytes).stage("all-to-all", "compose");
  for (let k = withSelf ? 0 : 1; k < P; k++) {
    b.step();
    for (let i = 0; i < P; i++) b.transfer(i, (i + k) % P, m);
  }
  return b.build();
}

describe("uniform all-to-all against the literal 004 eqs (1) and (2)", () => {
  const cases = MACHINES.filter((m) => ["cm5-004", "t3d-004", "ib-hdr-200", "nvlink4-h100"].includes(m.name)).flatMap(
    (mach) => [2, 4, 7, 16].map((P) => [mach.name, P] as const),
  );

  it.each(cases)("%s, P = %i: blocking cost = eq (1) minus one step, plus the barrier", (name, P) => {
    const mach = findMachine(name);
    const m = 5;
    const eb = 8;
    const bytes = m * eb;
    const c = scheduleCost(shift(P, m, eb), mach, "blocking");
    // Eq (1) counts P steps, the self message included, each with its composition m t_m:
    // P [T_s + m (t_c + t_m + t_d)]. The schedule sends only the P - 1 network messages, so it has
    // one step and one message's composition less: the difference is exactly T_s + m (t_c + t_m + t_d).
    // Eq (1) has no barrier; the cost model charges one per stage.
    const eq1 = flatFormulaBlocking(P, bytes, mach);
    const oneStep = mach.ts + bytes * (mach.tc + mach.tm + mach.td);
    expect(c.total - mach.barrier).toBeCloseTo(eq1 - oneStep, 9);
    expect(c.stages[0]!.rearrange).toBeCloseTo((P - 1) * bytes * mach.tm, 12);
    expect(c.steps.length).toBe(P - 1);
    expect(c.startups).toBe(P - 1);
    expect(c.bytes).toBe((P - 1) * bytes);
  });

  it.each(cases)("%s, P = %i: nonblocking cost = (P - 1) / P of eq (2), plus the barrier", (name, P) => {
    const mach = findMachine(name);
    const bytes = 5 * 8;
    const c = scheduleCost(shift(P, 5, 8), mach, "nonblocking");
    expect(c.total - mach.barrier).toBeCloseTo(((P - 1) / P) * flatFormulaNonblocking(P, bytes, mach), 9);
  });

  it("with the self message as a local-copy step, only that step differs from eq (1): m t_m instead of T_s + m (t_c + t_d)", () => {
    const mach = findMachine("sp2-004");
    const P = 8;
    const bytes = 3 * 22;
    const c = scheduleCost(shift(P, 3, 22, true), mach, "blocking");
    const eq1 = flatFormulaBlocking(P, bytes, mach);
    expect(c.total - mach.barrier).toBeCloseTo(eq1 - (mach.ts + bytes * (mach.tc + mach.td)) + bytes * mach.tm, 9);
    expect(c.steps[0]!.messages).toBe(0);
  });

  it("eqs (1) and (2) as printed", () => {
    // P [T_s + m (t_c + t_m + t_d)] = 4 [10 + 6 * 3.5] = 124; P m t_m + P max(T_s, m t_c, m t_d) = 12 + 4 * 12 = 60
    expect(flatFormulaBlocking(4, 6, M)).toBe(124);
    expect(flatFormulaNonblocking(4, 6, M)).toBe(60);
    expect(flatFormulaNonblocking(4, 1, M)).toBe(4 * 0.5 + 4 * 10);
  });
});
