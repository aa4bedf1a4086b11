import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { scheduleCost } from "../../../src/machines/cost-model.js";
import { MACHINES, findMachine } from "../../../src/machines/presets.js";
import { simulateSchedule } from "../../../src/machines/sim/simulate.js";
import { isCommplanError } from "../../../src/model/errors.js";
import type { CommMatrix } from "../../../src/model/matrix.js";
import { ScheduleBuilder, type Schedule } from "../../../src/model/schedule.js";
import { PLANNERS, plan } from "../../../src/planner/registry.js";
import { generatePattern } from "../../../src/patterns/registry.js";
import { verifySchedule } from "../../../src/verifier/index.js";
import { buildMatrix, matrixRecipe, type MatrixRecipe } from "../../helpers/arbitraries.js";
import { pack, unpack } from "../../helpers/schedule-edit.js";

/**
 * Plans m with every registered planner that accepts it. The total-exchange planners move single
 * elements (one transfer per element), so they get a copy of the recipe with entries of at most 3.
 */
function plans(r: MatrixRecipe, payload = false): { m: CommMatrix; s: Schedule }[] {
  const out: { m: CommMatrix; s: Schedule }[] = [];
  const full = buildMatrix(r);
  const small = buildMatrix({ ...r, kind: r.kind === "huge" ? "sparse" : r.kind, maxEntry: Math.min(r.maxEntry, 3) });
  for (const pl of PLANNERS) {
    const m = pl.name.startsWith("te-") ? small : full;
    try {
      out.push({ m, s: plan(m, pl.name, { seed: r.seed, payload }) });
    } catch (e) {
      if (!isCommplanError(e)) throw e;
    }
  }
  return out;
}

const contentionFree = (m: CommMatrix, s: Schedule): boolean =>
  verifySchedule(m, s).checks.find((c) => c.id === "node-contention")!.holds;

describe("blocking lock-step replay", () => {
  it("equals the analytic cost exactly for every contention-free plan of every planner on every preset", () => {
    let compared = 0;
    const algorithms = new Set<string>();
    fc.assert(
      fc.property(matrixRecipe({ maxP: 12 }), (r) => {
        for (const { m, s } of plans(r)) {
          if (!contentionFree(m, s)) continue;
          algorithms.add(s.algorithm);
          for (const machine of MACHINES) {
            const analytic = scheduleCost(s, machine, "blocking").total;
            const sim = simulateSchedule(s, machine, { lockstep: true, timeline: false, topology: "flat" });
            expect(sim.makespan, `${s.algorithm} on ${machine.name}`).toBe(analytic);
            expect(sim.totalWait).toBe(0);
            expect(sim.fnc).toBe(1);
            if (machine.fabric !== undefined) {
              // the preset's own network (cm5-fat-tree): faster pairs only, the flat t_d is the slowest level
              const own = simulateSchedule(s, machine, { lockstep: true, timeline: false });
              expect(own.fabric).toBe(machine.fabric);
              expect(own.makespan).toBeLessThanOrEqual(analytic);
            }
            compared++;
          }
        }
      }),
      { numRuns: 25 },
    );
    expect(compared).toBeGreaterThan(100);
    expect(algorithms.size).toBeGreaterThan(5);
  });

  it("without lock-step a transfer still runs for its full time, and a node's sends never overlap on one port", () => {
    fc.assert(
      fc.property(matrixRecipe({ maxP: 12, kinds: ["dense", "sparse", "spike"] }), (r) => {
        const machine = findMachine("t3d-004");
        for (const { s } of plans(r)) {
          const sim = simulateSchedule(s, machine, { timeline: false });
          const lastEnd = new Float64Array(s.p);
          const order = Array.from({ length: s.transferCount }, (_, x) => x).filter((x) => s.src[x] !== s.dst[x]);
          order.sort((x, y) => sim.transferStart[x]! - sim.transferStart[y]!);
          for (const x of order) {
            const d = machine.ts + s.size[x]! * s.elementBytes * (machine.tc + machine.td);
            expect(sim.transferEnd[x]! - sim.transferStart[x]!).toBeCloseTo(d, 6);
            expect(sim.transferStart[x]! + 1e-9 * (1 + sim.makespan)).toBeGreaterThanOrEqual(lastEnd[s.src[x]!]!);
            lastEnd[s.src[x]!] = sim.transferEnd[x]!;
          }
          for (let x = 0; x < s.transferCount; x++)
            expect(sim.transferEnd[x]!).toBeLessThanOrEqual(sim.makespan * (1 + 1e-12));
        }
      }),
      { numRuns: 15 },
    );
  });
});

describe("blocking lock-step replay (continued)", () => {
  it("with k ports, a schedule contention-free for k ports replays at the analytic cost (lock-step)", () => {
    fc.assert(
      fc.property(matrixRecipe({ minP: 3, maxP: 16, kinds: ["dense", "sparse", "spike"] }), (r) => {
        const m = buildMatrix(r);
        const st = unpack(plan(m, "shift"));
        // merge steps pairwise: every node sends and receives up to two messages per step
        const merged = st.map((g) => ({
          ...g,
          steps: g.steps.flatMap((x, k, all) =>
            k % 2 === 0 ? [{ transfers: [...x.transfers, ...(all[k + 1]?.transfers ?? [])], stalls: [] }] : [],
          ),
        }));
        const s = pack(plan(m, "shift"), merged);
        expect(verifySchedule(m, s, { ports: 2 }).checks.find((c) => c.id === "node-contention")!.holds).toBe(true);
        const machine = findMachine("myrinet-004");
        const sim = simulateSchedule(s, machine, { lockstep: true, ports: 2, timeline: false });
        expect(sim.makespan).toBe(scheduleCost(s, machine, "blocking").total);
        expect(sim.totalWait).toBe(0);
        if (s.stepCount > 0 && s.transferCount > s.stepCount)
          expect(
            simulateSchedule(s, machine, { lockstep: true, ports: 1, timeline: false }).makespan,
          ).toBeGreaterThanOrEqual(sim.makespan);
      }),
      { numRuns: 30 },
    );
  });

  it("a message to a busy receiver waits; the wait is recorded as contention (004 fig. 3)", () => {
    // Step 0: nodes 0 and 1 both send to node 2 (not contention-free).
    const b = new ScheduleBuilder(
      { p: 3, algorithm: "hand", params: {}, seed: null, elementBytes: 1, matrixDigest: "x" },
      false,
    );
    b.stage("s");
    b.step();
    b.transfer(0, 2, 100);
    b.transfer(1, 2, 100);
    const s = b.build();
    const machine = { ...findMachine("cm5-004"), barrier: 0 };
    const sim = simulateSchedule(s, machine, { lockstep: true });
    const d = machine.ts + 100 * (machine.tc + machine.td);
    expect(sim.makespan).toBeCloseTo(2 * d, 9);
    expect(sim.nodes.wait[1]).toBeCloseTo(d, 9);
    expect(sim.nodes.wait[0]).toBe(0);
    expect(sim.fnc).toBeGreaterThan(1);
    expect(sim.timeline.count).toBeGreaterThan(0);
    // with two ports both go at once
    const two = simulateSchedule(s, machine, { lockstep: true, ports: 2 });
    expect(two.makespan).toBeCloseTo(d, 9);
    expect(two.totalWait).toBe(0);
  });

  it("charges the barrier per stage and the compose at t_m per byte handled", () => {
    const b = new ScheduleBuilder(
      { p: 2, algorithm: "hand", params: {}, seed: null, elementBytes: 4, matrixDigest: "x" },
      false,
    );
    b.stage("one", "compose").step().transfer(0, 1, 10);
    b.stage("two", "none").step().transfer(1, 0, 5);
    const s = b.build();
    const mc = findMachine("sp2-004");
    const sim = simulateSchedule(s, mc, { lockstep: true });
    const expected =
      mc.barrier + 40 * mc.tm + (mc.ts + 40 * (mc.tc + mc.td)) + (mc.barrier + (mc.ts + 20 * (mc.tc + mc.td)));
    expect(sim.makespan).toBeCloseTo(expected, 9);
    expect(sim.nodes.busy[0]).toBeCloseTo(40 * mc.tm + 2 * mc.ts + 60 * (mc.tc + mc.td), 9);
  });
});

describe("node contention under 004 Pattern1 (P = 64)", () => {
  // 004's lemmas assume every entry divisible by P: the spike 1024 and the rest 64 elements.
  const m = generatePattern("pattern1", 64, { mmax: 1024, small: 64 }, 7);
  const t3d = findMachine("t3d-004");

  it("nonblocking, no lock-step (004 eq. 4): shift shows contention waits and f_nc > 1, four-stage none and f_nc = 1", () => {
    // 004's four-stage as printed (arrived=forward): every node's messages balanced
    const shift = plan(m, "shift"),
      four = plan(m, "four-stage", { params: { arrived: "forward" } });
    expect(contentionFree(m, shift)).toBe(true);
    expect(contentionFree(m, four)).toBe(true);
    const a = simulateSchedule(shift, t3d, { mode: "nonblocking", timeline: false });
    expect(a.totalWait).toBeGreaterThan(0);
    expect(a.fnc).toBeGreaterThan(1);
    const b = simulateSchedule(four, t3d, { mode: "nonblocking", timeline: false });
    expect(b.totalWait).toBe(0);
    expect(b.fnc).toBe(1);
    // the default arrived=hold keeps elements at their destination: shorter messages, unequal ones, so nodes drift
    // and wait (docs/algorithms/four-stage.md), yet the makespan is shorter
    const h = simulateSchedule(plan(m, "four-stage"), t3d, { mode: "nonblocking", timeline: false });
    expect(h.totalWait).toBeGreaterThan(0);
    expect(h.fnc).toBeGreaterThan(1);
    expect(h.makespan).toBeLessThan(b.makespan);
  });

  it("blocking, no lock-step: four-stage cuts the contention of shift but nodes still drift; every wait is a receiver busy with another sender", () => {
    const res = ["shift", "four-stage"].map((name) => {
      const s = plan(m, name);
      const r = simulateSchedule(s, t3d);
      const W = r.timeline.kindNames.indexOf("wait");
      for (let i = 0; i < r.timeline.count; i++) {
        if (r.timeline.kind[i] !== W) continue;
        const a = r.timeline.node[i]!,
          b = r.timeline.peer[i]!,
          t = r.timeline.end[i]!;
        // the receive that held b's port ends when the wait ends, and comes from another node
        const holders = Array.from({ length: s.transferCount }, (_, y) => y).filter(
          (y) => s.dst[y] === b && s.src[y] !== b && r.transferEnd[y] === t,
        );
        expect(holders.length).toBeGreaterThan(0);
        for (const y of holders) expect(s.src[y]).not.toBe(a);
      }
      return r;
    });
    expect(res[0]!.totalWait).toBeGreaterThan(0);
    expect(res[1]!.totalWait).toBeGreaterThan(0);
    expect(res[1]!.totalWait).toBeLessThan(res[0]!.totalWait / 3);
    expect(res[1]!.fnc).toBeLessThan(res[0]!.fnc);
  });

  it("lock-step (000 fig. 3) removes every wait of a contention-free schedule, by construction", () => {
    for (const name of ["shift", "linear-permutation", "four-stage"]) {
      const sim = simulateSchedule(plan(m, name), t3d, { lockstep: true, timeline: false });
      expect(sim.totalWait).toBe(0);
      expect(sim.fnc).toBe(1);
    }
  });

  it("waiting for a receiver that is still composing is stalled time, not contention", () => {
    // node 1 composes 10000 bytes (a local copy); node 0's message to node 1 is ready at once.
    const b = new ScheduleBuilder(
      { p: 2, algorithm: "hand", params: {}, seed: null, elementBytes: 1, matrixDigest: "x" },
      false,
    );
    b.stage("s", "compose").step();
    b.transfer(0, 1, 10);
    b.transfer(1, 1, 10000);
    const mc = findMachine("t3d-004");
    const sim = simulateSchedule(b.build(), mc);
    expect(sim.nodes.wait[0]).toBe(0);
    expect(sim.nodes.stalled[0]).toBeCloseTo(10000 * mc.tm - 10 * mc.tm, 6);
    expect(sim.fnc).toBe(1);
    expect(sim.transferStart[0]).toBeCloseTo(mc.barrier + 10000 * mc.tm, 6);
  });
});
