import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { scheduleCost } from "../../../src/machines/cost-model.js";
import { findMachine } from "../../../src/machines/presets.js";
import { EventHeap, TIME_TICK_US } from "../../../src/machines/sim/heap.js";
import { simulateSchedule, type SimResult } from "../../../src/machines/sim/simulate.js";
import { isCommplanError } from "../../../src/model/errors.js";
import type { MachineModel } from "../../../src/model/machine.js";
import type { Schedule } from "../../../src/model/schedule.js";
import { generatePattern } from "../../../src/patterns/registry.js";
import { plan } from "../../../src/planner/registry.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";

/** A T3D-like machine in us (per-byte costs with no exact binary form) and the same machine in ns, whose every duration is an integer (exact arithmetic). */
const T3D = findMachine("t3d-004");
const IN_US: MachineModel = { ...T3D, tc: 0.04, td: 0.003, tm: 0.04, barrier: 76 };
const IN_NS: MachineModel = { ...T3D, ts: 38000, tsSend: 19000, tc: 40, td: 3, tm: 40, barrier: 76000 };
const FREE = { timeline: false } as const;

/** Relative difference of two makespans. */
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(1, Math.abs(b));

describe("event times are compared on a grid, so rounding does not reorder them", () => {
  // Both cases flipped a first-come-first-served order before: 4569.874 us in floating point against 4491.982 exact,
  // and 9586.454 against 9688.848 (free-running blocking replays of payload plans).
  it.each([
    ["coloring", 64],
    ["four-stage", 61],
  ])("004 Pattern2, %s, P = %i: the replay in us equals the exact replay in ns", (name, p) => {
    const s = plan(generatePattern("pattern2", p, {}, 1), name, { payload: true });
    const us = simulateSchedule(s, IN_US, FREE).makespan;
    const ns = simulateSchedule(s, IN_NS, FREE).makespan / 1000;
    expect(rel(us, ns)).toBeLessThan(1e-9);
  });

  it("002 Pattern3, P = 256, shift (65,280 transfers): long chains of sums still give the exact order", () => {
    // before: 111,343.934 us in floating point against 111,817.094 exact (errors past a 1e-9 us grid)
    const s = plan(generatePattern("liu-pattern3", 256, { lmax: 256 }, 1), "shift");
    const us = simulateSchedule(s, IN_US, FREE).makespan;
    const ns = simulateSchedule(s, IN_NS, FREE).makespan / 1000;
    expect(rel(us, ns)).toBeLessThan(1e-9);
  });

  it("holds over random matrices, every one-stage and two-stage planner, both modes and receive orders", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ minP: 3, maxP: 24, kinds: ["dense", "sparse", "spike", "permutation"] }),
        fc.constantFrom("shift", "coloring", "rs-nh", "linear-permutation", "two-stage", "four-stage"),
        fc.constantFrom("blocking", "nonblocking"),
        fc.constantFrom("arrival", "step"),
        (r, name, mode, recvOrder) => {
          let s: Schedule;
          try {
            s = plan(buildMatrix(r), name, { seed: r.seed, payload: true });
          } catch (e) {
            if (isCommplanError(e)) return;
            throw e;
          }
          const req = { ...FREE, mode, recvOrder } as const;
          const us = simulateSchedule(s, IN_US, req).makespan;
          const ns = simulateSchedule(s, IN_NS, req).makespan / 1000;
          expect(rel(us, ns)).toBeLessThan(1e-9);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("the heap pops events on one tick in id order, and further apart in time order", () => {
    const h = new EventHeap(4);
    h.push(100 + TIME_TICK_US / 10, 1);
    h.push(100, 7);
    h.push(100 - 3 * TIME_TICK_US, 9);
    h.push(100.00001, 0);
    const order: number[] = [];
    while (h.size > 0) {
      order.push(h.topId());
      h.pop();
    }
    expect(order).toEqual([9, 1, 7, 0]);
  });
});

/**
 * Transfers into a node that start (blocking mode) or end (nonblocking mode, whose recorded start is
 * the send start-up, not the network phase) before a transfer (send or receive) of that node from an
 * earlier step has ended.
 */
function earlyReceives(s: Schedule, r: SimResult): string[] {
  const at = r.mode === "blocking" ? r.transferStart : r.transferEnd;
  const stepOf = new Uint32Array(s.transferCount);
  for (let st = 0; st < s.stepCount; st++) stepOf.fill(st, s.stepStart[st]!, s.stepStart[st + 1]!);
  const ops: number[][] = Array.from({ length: s.p }, () => []);
  for (let y = 0; y < s.transferCount; y++) {
    ops[s.src[y]!]!.push(y);
    if (s.dst[y] !== s.src[y]) ops[s.dst[y]!]!.push(y);
  }
  const out: string[] = [];
  for (let x = 0; x < s.transferCount; x++) {
    if (s.src[x] === s.dst[x]) continue;
    for (const y of ops[s.dst[x]!]!)
      if (stepOf[y]! < stepOf[x]! && r.transferEnd[y]! > at[x]! + 1e-9 * (1 + r.makespan))
        out.push(`transfer ${x} enters at ${at[x]} before ${y} of an earlier step ends at ${r.transferEnd[y]}`);
  }
  return out;
}

describe("recvOrder step: a node takes the messages of one step at a time", () => {
  const flat: MachineModel = { ...T3D, barrier: 0, tm: 0 };
  const s = plan(generatePattern("uniform", 61, { size: 500 }, 1), "linear-permutation", { payload: true });

  it("uniform P = 61, linear permutation on t3d-004: free replay in step order is the lock-step time; arrival order is slower", () => {
    const lock = scheduleCost(s, flat, "blocking").total;
    const step = simulateSchedule(s, flat, { ...FREE, recvOrder: "step" });
    const arrival = simulateSchedule(s, flat, FREE);
    expect(step.recvOrder).toBe("step");
    expect(arrival.recvOrder).toBe("arrival");
    expect(rel(step.makespan, lock)).toBeLessThan(1e-12);
    expect(arrival.makespan).toBeGreaterThan(1.4 * lock);
    expect(earlyReceives(s, step)).toEqual([]);
    expect(earlyReceives(s, arrival).length).toBeGreaterThan(0);
  });

  it("no message enters before its destination has finished its earlier steps, and every element is delivered (random matrices, both modes)", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ minP: 2, maxP: 16, kinds: ["dense", "sparse", "spike", "empty-rows"] }),
        fc.constantFrom("shift", "coloring", "rs-n", "linear-permutation", "two-stage", "four-stage"),
        fc.constantFrom("blocking", "nonblocking"),
        fc.constantFrom(1, 2),
        (r, name, mode, ports) => {
          const m = buildMatrix(r);
          let sc: Schedule;
          try {
            sc = plan(m, name, { seed: r.seed, payload: true });
          } catch (e) {
            if (isCommplanError(e)) return;
            throw e;
          }
          const res = simulateSchedule(sc, findMachine("sp2-004"), {
            ...FREE,
            mode,
            ports,
            recvOrder: "step",
            data: m,
          });
          expect(res.dataFailures).toEqual([]);
          expect(earlyReceives(sc, res)).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("is refused on the ocpc topology, and an unknown order is refused by name", () => {
    const ocpc = () => simulateSchedule(s, flat, { topology: "ocpc", lockstep: true, recvOrder: "step" });
    expect(ocpc).toThrow(/recvOrder 'step' does not apply/);
    const bad = () => simulateSchedule(s, flat, { recvOrder: "fifo" as "step" });
    expect(bad).toThrow(/recvOrder/);
  });
});

describe("envelope: bytes added to every network message", () => {
  const m = generatePattern("pattern1", 16, {}, 3);
  const s = plan(m, "coloring", { payload: true });

  it("the cost model charges T_s + (bytes + envelope)(t_c + t_d) per message, and lock-step replay matches it bit for bit", () => {
    const sp2 = findMachine("sp2-004");
    const env = { ...sp2, envelope: 16 };
    const c0 = scheduleCost(s, sp2, "blocking");
    const c1 = scheduleCost(s, env, "blocking");
    for (const [k, st] of c1.steps.entries()) {
      if (st.messages === 0) continue;
      const bytes = st.longest * s.elementBytes;
      expect(st.time).toBe(sp2.ts + (bytes + 16) * (sp2.tc + sp2.td));
      expect(st.time).toBeGreaterThan(c0.steps[k]!.time);
    }
    expect(simulateSchedule(s, env, { ...FREE, lockstep: true }).makespan).toBe(c1.total);
    expect(scheduleCost(s, { ...sp2, envelope: 0 }, "blocking").total).toBe(c0.total);
  });

  it("a zero-size message still costs its envelope, in both replay modes; local copies carry none", () => {
    const sp2 = findMachine("sp2-004");
    const env = { ...sp2, envelope: 1000 };
    for (const mode of ["blocking", "nonblocking"] as const) {
      const a = simulateSchedule(s, sp2, { ...FREE, mode }).makespan;
      const b = simulateSchedule(s, env, { ...FREE, mode }).makespan;
      expect(b, mode).toBeGreaterThan(a + 1000 * sp2.td);
    }
    const n0 = scheduleCost(s, sp2, "nonblocking").total;
    expect(scheduleCost(s, env, "nonblocking").total).toBeGreaterThan(n0);
  });
});
