import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  bestBound,
  lowerBounds,
  relayRounds,
  scheduleClass,
  type BoundTarget,
  type LowerBound,
} from "../../src/bounds/index.js";
import { scheduleCost } from "../../src/machines/cost-model.js";
import { MACHINES, findMachine } from "../../src/machines/presets.js";
import { simulateSchedule } from "../../src/machines/sim/simulate.js";
import { cheapestNetworkCost, networkCost, FABRICS } from "../../src/machines/sim/fabric.js";
import { isCommplanError } from "../../src/model/errors.js";
import type { MachineModel } from "../../src/model/machine.js";
import { matrixFromRows, type CommMatrix } from "../../src/model/matrix.js";
import type { Schedule } from "../../src/model/schedule.js";
import { findPlanner, PLANNERS, plan } from "../../src/planner/registry.js";
import { buildMatrix, matrixRecipe, type MatrixRecipe } from "../helpers/arbitraries.js";
import { generatePattern } from "../../src/patterns/registry.js";

/** Every registered planner's plan of the recipe's matrix (the te-* planners, which move single elements, get entries of at most 3). */
function plans(r: MatrixRecipe, machine: MachineModel): { m: CommMatrix; s: Schedule }[] {
  const full = buildMatrix(r);
  const small = buildMatrix({ ...r, kind: r.kind === "huge" ? "sparse" : r.kind, maxEntry: Math.min(r.maxEntry, 3) });
  const out: { m: CommMatrix; s: Schedule }[] = [];
  for (const pl of PLANNERS) {
    const m = pl.name.startsWith("te-") ? small : full;
    try {
      out.push({ m, s: plan(m, pl.name, { seed: r.seed, machine, payload: true }) });
    } catch (e) {
      if (!isCommplanError(e)) throw e;
    }
  }
  return out;
}

/** Relative slack for floating-point rounding only: the bound and the replay add the same terms in different orders. */
const ULP = 1e-9;

function check(b: LowerBound | null, measured: number, what: string): void {
  if (b === null) return;
  expect(b.value, `${what}: bound ${b.target}/${b.name} ${b.value} > measured ${measured}`).toBeLessThanOrEqual(
    measured * (1 + ULP) + ULP,
  );
}

describe("lower bounds hold for every plan of every planner", () => {
  it("on the cost model and the simulated machine, blocking and nonblocking, every preset and 1 or 2 ports", () => {
    const seen = new Set<string>();
    let direct = 0,
      relayed = 0;
    fc.assert(
      fc.property(
        matrixRecipe({ maxP: 12, kinds: ["dense", "sparse", "empty-rows", "zero", "permutation", "spike"] }),
        fc.constantFrom(...MACHINES),
        fc.constantFrom(1, 2),
        (r, machine, ports) => {
          for (const { m, s } of plans(r, machine)) {
            seen.add(s.algorithm);
            const cls1 = scheduleClass(m, s, 1);
            const clsK = scheduleClass(m, s, ports);
            // docs/bounds.md: every registered planner's steps are contention-free, so the cost-model bounds apply to all of
            // them, except MPI's linear and scattered plans (several messages per node at once): their class decides
            if (findPlanner(s.algorithm).traits.mpi === undefined) expect(cls1.contentionFree, s.algorithm).toBe(true);
            if (cls1.direct) direct++;
            else relayed++;
            const pairTd = networkCost(machine.fabric ?? "flat", machine);
            for (const mode of ["blocking", "nonblocking"] as const) {
              const what = `${s.algorithm} P=${m.p} ${machine.name} ${mode}`;
              const cost = scheduleCost(s, machine, mode).total;
              check(bestBound(lowerBounds(m, `cost-${mode}`, { machine }), cls1), cost, `${what} cost`);
              const sim = simulateSchedule(s, machine, { mode, ports, timeline: false });
              const target: BoundTarget = `sim-${mode}`;
              const bounds = lowerBounds(m, target, { machine, ports, pairTd });
              check(bestBound(bounds, clsK), sim.makespan, `${what} sim`);
              // without pairTd, the machine's own fabric (machine.td alone overstated the CM-5 fat tree's bounds)
              expect(lowerBounds(m, target, { machine, ports })).toEqual(bounds);
            }
          }
        },
      ),
      { numRuns: 60, seed: 7 },
    );
    expect(seen.size).toBe(PLANNERS.length);
    expect(direct).toBeGreaterThan(0);
    expect(relayed).toBeGreaterThan(0);
  });
});

describe("lower bounds: values", () => {
  const t3d = findMachine("t3d-004");
  it("an all-to-all of m bytes: the direct cost-model bound is the shift schedule's cost without the compose", () => {
    const p = 8;
    const m = matrixFromRows(
      Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => (i === j ? 0 : 10))),
      { elementBytes: 4 },
    );
    const bs = lowerBounds(m, "cost-blocking", { machine: t3d });
    const d = bs.find((b) => b.name === "busiest-node")!;
    expect(d.value).toBeCloseTo(t3d.barrier + (p - 1) * (t3d.ts + 40 * (t3d.tc + t3d.td)), 9);
    const t = bs.find((b) => b.name === "traffic")!;
    // 7 destinations need ceil(log2 8) = 3 contention-free steps even with relays
    expect(t.value).toBeCloseTo(t3d.barrier + 3 * t3d.ts + (p - 1) * 40 * (t3d.tc + t3d.td), 9);
    expect(bestBound(bs, { direct: true, contentionFree: true })).toBe(d);
    expect(bestBound(bs, { direct: false, contentionFree: true })).toBe(t);
    expect(bestBound(bs, { direct: false, contentionFree: false })).toBeNull();
    const shift = plan(m, "shift", {});
    const cost = scheduleCost(shift, t3d, "blocking");
    expect(cost.total - cost.stages.reduce((x, s) => x + s.rearrange, 0)).toBeCloseTo(d.value, 6);
  });
  it("relay-depth: ceil(log_(k+1)(D + 1)) rounds of one smallest message", () => {
    expect([0, 1, 2, 3, 7, 8, 255].map((d) => relayRounds(d, 1))).toEqual([0, 1, 2, 2, 3, 4, 8]);
    expect([1, 2, 8, 9].map((d) => relayRounds(d, 2))).toEqual([1, 1, 2, 3]);
    const p = 16;
    const m = matrixFromRows(
      Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => (i === j ? 0 : 1))),
    );
    const d = lowerBounds(m, "sim-blocking", { machine: t3d }).find((b) => b.name === "relay-depth")!;
    expect(d.value).toBeCloseTo(t3d.barrier + 4 * (t3d.ts + m.elementBytes * (t3d.tc + t3d.td)), 9);
  });
  it("is 0 for a matrix with no network traffic, and refuses an unknown target or bad ports", () => {
    const m = matrixFromRows([
      [5, 0],
      [0, 3],
    ]);
    for (const target of ["cost-blocking", "cost-nonblocking", "sim-blocking", "sim-nonblocking"] as const)
      for (const b of lowerBounds(m, target, { machine: t3d })) expect(b.value).toBe(0);
    expect(() => lowerBounds(m, "sim-x" as BoundTarget, { machine: t3d })).toThrow(/bounds: unknown bound target/);
    expect(() => lowerBounds(m, "sim-blocking", { machine: t3d, ports: 0 })).toThrow(/bounds: ports must be/);
  });
  it("scheduleClass: a relayed plan is not direct, a single-port coloring is contention-free", () => {
    const m = matrixFromRows([
      [0, 4, 4, 4],
      [4, 0, 4, 4],
      [4, 4, 0, 4],
      [4, 4, 4, 0],
    ]);
    expect(scheduleClass(m, plan(m, "shift", {}))).toEqual({ direct: true, contentionFree: true });
  });
});

describe("the cheapest partner in closed form (pairTdMin)", () => {
  it("cheapestNetworkCost is the least networkCost to another node, every topology, P 1..40", () => {
    const machine = findMachine("cm5-004");
    for (const topology of FABRICS)
      for (let p = 1; p <= 40; p++) {
        const cost = networkCost(topology, machine),
          cheapest = cheapestNetworkCost(topology, machine, p);
        for (let a = 0; a < p; a++) {
          let least = Infinity;
          for (let b = 0; b < p; b++) if (b !== a) least = Math.min(least, cost(a, b));
          expect(cheapest(a), `${topology} P=${p} a=${a}`).toBe(least === Infinity ? 0 : least);
        }
      }
  });
  it("gives the bounds the O(P^2) pass gives (random matrices on the CM-5 fat tree), and is refused without pairTd", () => {
    const machine = findMachine("cm5-fat-tree");
    fc.assert(
      fc.property(
        matrixRecipe({ maxP: 40 }),
        fc.constantFrom("sim-blocking", "sim-nonblocking" as const),
        (r, target) => {
          const m = buildMatrix(r);
          const pairTd = networkCost("cm5-fat-tree", machine);
          const slow = lowerBounds(m, target, { machine, pairTd });
          const fast = lowerBounds(m, target, {
            machine,
            pairTd,
            pairTdMin: cheapestNetworkCost("cm5-fat-tree", machine, m.p),
          });
          expect(fast).toEqual(slow);
        },
      ),
      { numRuns: 40 },
    );
    const m = matrixFromRows([
      [0, 1],
      [1, 0],
    ]);
    expect(() => lowerBounds(m, "sim-blocking", { machine, pairTdMin: () => 0 })).toThrow(/bounds: pairTdMin must be/);
  });
  it("without pairTd, the CM-5 fat tree's rates: a coloring plan no longer beats its bound (moe, P = 16)", () => {
    const machine = findMachine("cm5-fat-tree");
    const m = generatePattern("moe", 16, {}, 4);
    const s = plan(m, "coloring", { payload: true });
    const sim = simulateSchedule(s, machine, { mode: "blocking", timeline: false }).makespan;
    const bound = bestBound(lowerBounds(m, "sim-blocking", { machine }), scheduleClass(m, s, 1))!;
    expect(bound.value).toBeLessThanOrEqual(sim);
    // with machine.td for every pair (the old default) the bound was above the simulated makespan
    const flat = bestBound(
      lowerBounds(m, "sim-blocking", { machine, pairTd: () => machine.td }),
      scheduleClass(m, s, 1),
    )!;
    expect(flat.value).toBeGreaterThan(sim);
    // the figures docs/bounds.md gives
    expect([Math.round(sim), Math.round(flat.value), Math.round(bound.value)]).toEqual([1085267, 1328549, 787877]);
  });
});
