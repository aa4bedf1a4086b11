import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { scheduleCost } from "../../../src/machines/cost-model.js";
import { MACHINES, findMachine } from "../../../src/machines/presets.js";
import { forwardDeps } from "../../../src/machines/sim/forward-deps.js";
import { simulateSchedule } from "../../../src/machines/sim/simulate.js";
import { networkCost } from "../../../src/machines/sim/fabric.js";
import { isCommplanError } from "../../../src/model/errors.js";
import type { MachineModel } from "../../../src/model/machine.js";
import { matrixDigest, matrixFromData, type CommMatrix } from "../../../src/model/matrix.js";
import { ScheduleBuilder, type Schedule } from "../../../src/model/schedule.js";
import { PLANNERS, plan } from "../../../src/planner/registry.js";
import { generatePattern } from "../../../src/patterns/registry.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";

/**
 * The resource bound of the nonblocking replay, computed from the schedule alone: per stage, the
 * barrier (none at P = 1) plus, for the slowest node v, the largest of: its compose then everything its processor
 * does (T_s_send per send, T_s_recv per receive, m t_m per local copy); its compose then its copy
 * engine (m t_c per send); its compose then its output port (m t_d per send); its input port
 * (m t_d per receive).
 */
function resourceBound(s: Schedule, mc: MachineModel): number {
  const p = s.p,
    eb = s.elementBytes;
  const td = networkCost(mc.fabric ?? "flat", mc);
  let total = 0;
  for (const st of s.stages) {
    const cpu = new Float64Array(p),
      dma = new Float64Array(p),
      out = new Float64Array(p),
      inn = new Float64Array(p),
      handled = new Float64Array(p);
    for (let x = s.stepStart[st.firstStep]!; x < s.stepStart[st.firstStep + st.stepCount]!; x++) {
      const a = s.src[x]!,
        b = s.dst[x]!,
        bytes = s.size[x]! * eb;
      handled[a] = handled[a]! + bytes;
      if (a === b) {
        cpu[a] = cpu[a]! + bytes * mc.tm;
        continue;
      }
      cpu[a] = cpu[a]! + mc.tsSend;
      cpu[b] = cpu[b]! + (mc.ts - mc.tsSend);
      dma[a] = dma[a]! + bytes * mc.tc;
      out[a] = out[a]! + bytes * td(a, b);
      inn[b] = inn[b]! + bytes * td(a, b);
    }
    let worst = 0;
    for (let v = 0; v < p; v++) {
      const ready = st.rearrange === "none" ? 0 : handled[v]! * mc.tm;
      worst = Math.max(worst, ready + cpu[v]!, ready + dma[v]!, ready + out[v]!, inn[v]!);
    }
    total += (p > 1 ? mc.barrier : 0) + worst; // no barrier at P = 1 (docs/cost-model.md)
  }
  return total;
}

const uniform = (p: number, m: number, elementBytes: number): CommMatrix => {
  const d = new Float64Array(p * p).fill(m);
  for (let i = 0; i < p; i++) d[i * p + i] = 0;
  return matrixFromData(p, d, { elementBytes });
};

describe("nonblocking replay (004 sec 2.2, eqs 2 and 4)", () => {
  it("never beats the resource bound, for every planner, both send rules, lock-step or not", () => {
    let n = 0;
    fc.assert(
      fc.property(
        matrixRecipe({ maxP: 10, kinds: ["dense", "sparse", "spike", "empty-rows"] }),
        fc.constantFrom("data", "steps" as const),
        fc.boolean(),
        fc.constantFrom("sp2-004", "t3d-004", "cm5-004", "cm5-fat-tree", "ib-hdr-200"),
        (r, sendWaits, lockstep, name) => {
          const m = buildMatrix({ ...r, maxEntry: Math.min(r.maxEntry, 50) });
          const mc = findMachine(name);
          for (const pl of PLANNERS) {
            if (pl.name.startsWith("te-")) continue;
            let s: Schedule;
            try {
              s = plan(m, pl.name, { seed: r.seed });
            } catch (e) {
              if (isCommplanError(e)) continue;
              throw e;
            }
            const sim = simulateSchedule(s, mc, { mode: "nonblocking", sendWaits, lockstep, timeline: false });
            const lb = resourceBound(s, mc);
            expect(sim.makespan, `${pl.name} ${name}`).toBeGreaterThanOrEqual(lb * (1 - 1e-12));
            n++;
          }
        },
      ),
      { numRuns: 20 },
    );
    expect(n).toBeGreaterThan(50);
  });

  it("on an all-to-all of equal messages (the case of 004 eq. 2), analytic <= simulated <= analytic + one message's latency, on every preset", () => {
    for (const [p, m, eb] of [
      [2, 333, 8],
      [5, 1, 1],
      [8, 1000, 8],
      [13, 17, 8],
      [16, 4000, 1],
    ] as const) {
      const mat = uniform(p, m, eb);
      for (const name of ["shift", "coloring"]) {
        const s = plan(mat, name);
        for (const mc of MACHINES) {
          const an = scheduleCost(s, mc, "nonblocking").total;
          const sim = simulateSchedule(s, mc, { mode: "nonblocking", timeline: false, topology: "flat" }).makespan;
          expect(sim, `${name} P=${p} m=${m} ${mc.name}`).toBeGreaterThanOrEqual(an * (1 - 1e-12));
          expect(sim, `${name} P=${p} m=${m} ${mc.name}`).toBeLessThanOrEqual(an + mc.ts + m * eb * (mc.tc + mc.td));
        }
      }
    }
  });

  it("in general there is no inequality with the analytic eq. 2/4 cost: contention makes it larger, per-node accounting smaller", () => {
    const sp2 = findMachine("sp2-004"),
      t3d = findMachine("t3d-004");
    const shift = plan(generatePattern("pattern1", 64, {}, 7), "shift");
    expect(simulateSchedule(shift, sp2, { mode: "nonblocking", timeline: false }).makespan).toBeGreaterThan(
      1.2 * scheduleCost(shift, sp2, "nonblocking").total,
    );
    const col = plan(generatePattern("pattern1", 16, {}, 3), "coloring");
    expect(simulateSchedule(col, t3d, { mode: "nonblocking", timeline: false }).makespan).toBeLessThan(
      scheduleCost(col, t3d, "nonblocking").total,
    );
  });
});

describe("nonblocking replay (004 sec 2.2, eqs 2 and 4) (continued)", () => {
  it("a node sends its messages first and receives meanwhile: pipelined sends are faster than waiting for each step's receive", () => {
    const sp2 = findMachine("sp2-004");
    const s = plan(generatePattern("pattern1", 64, {}, 7), "shift");
    const data = simulateSchedule(s, sp2, { mode: "nonblocking", timeline: false }).makespan;
    const steps = simulateSchedule(s, sp2, { mode: "nonblocking", sendWaits: "steps", timeline: false }).makespan;
    expect(data).toBeLessThan(0.6 * steps);
    // lock-step puts a barrier after every step: one message per node per step, nothing to pipeline
    const lockNb = simulateSchedule(s, sp2, { mode: "nonblocking", lockstep: true, timeline: false }).makespan;
    const lockB = simulateSchedule(s, sp2, { lockstep: true, timeline: false }).makespan;
    expect(Math.abs(lockNb - lockB)).toBeLessThan(1e-9 * lockB);
  });

  it("no registered planner forwards within a stage (what sendWaits 'data' assumes of a plan without payloads)", () => {
    const seen = new Set<string>();
    let plans = 0;
    for (const p of [3, 5, 8, 13, 16]) {
      for (const kind of ["dense", "sparse", "spike", "empty-rows"] as const) {
        for (const seed of [1, 2]) {
          const full = buildMatrix({ p, kind, seed, maxEntry: 40 });
          const small = buildMatrix({ p, kind, seed, maxEntry: 3 });
          for (const pl of PLANNERS) {
            let s: Schedule;
            try {
              s = plan(pl.name.startsWith("te-") ? small : full, pl.name, { payload: true, seed });
            } catch (e) {
              if (isCommplanError(e)) continue;
              throw e;
            }
            expect(s.chunks).not.toBeNull();
            const deps = forwardDeps(s);
            const x = deps.need.findIndex((n) => n > 0);
            expect(
              x,
              `${pl.name} P = ${p} ${kind} seed ${seed}: transfer ${x} forwards what it receives in its own stage`,
            ).toBe(-1);
            seen.add(pl.name);
            plans++;
          }
        }
      }
    }
    expect(seen.size).toBe(PLANNERS.length);
    expect(plans).toBeGreaterThan(PLANNERS.length * 20);
  });

  it("within a stage, a send that forwards elements waits exactly for the receive that brings them (payload chunks)", () => {
    // 0 -> 1 in step 0; 1 forwards those elements to 2 in step 1; 1 also sends its own to 3 in step 1.
    const mat = matrixFromData(4, new Float64Array([0, 0, 5, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0]), {
      elementBytes: 8,
    });
    const b = new ScheduleBuilder(
      { p: 4, algorithm: "hand", params: {}, seed: null, elementBytes: 8, matrixDigest: matrixDigest(mat) },
      true,
    );
    b.stage("one").step();
    b.transfer(0, 1, 5);
    b.chunk(0, 2, 0, 5);
    b.step();
    b.transfer(1, 3, 4);
    b.chunk(1, 3, 0, 4);
    b.transfer(1, 2, 5);
    b.chunk(0, 2, 0, 5);
    const s = b.build();
    const deps = forwardDeps(s);
    expect(Array.from(deps.need)).toEqual([0, 0, 1]);
    expect(Array.from(deps.list.subarray(deps.start[0]!, deps.start[1]!))).toEqual([2]);
    const mc = findMachine("sp2-004");
    const r = simulateSchedule(s, mc, { mode: "nonblocking", data: mat });
    expect(r.dataFailures).toEqual([]);
    expect(r.transferStart[1]!).toBeLessThan(r.transferEnd[0]!); // 1 -> 3 forwards nothing: it goes at once
    expect(r.transferStart[2]!).toBeGreaterThanOrEqual(r.transferEnd[0]!); // 1 -> 2 waits for the elements
  });
});
