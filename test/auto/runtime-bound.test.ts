/**
 * runtimeLowerBound: never above the program replay of any plan auto weighs, on any runtime and network; auto on a
 * runtime skips only finalists whose replay could not have won.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { planAuto } from "../../src/auto/index.js";
import { leastOverheadUs, roundsLowerBound, runtimeLowerBound } from "../../src/auto/runtime-bound.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { replayProgram } from "../../src/machines/program-replay/replay-program.js";
import { predictOnRuntime, runtimeTarget } from "../../src/auto/runtime-predict.js";
import { findMachine } from "../../src/machines/presets.js";
import { findRuntimeModel, withRuntime } from "../../src/machines/runtime/runtime-model.js";
import { flatOverhead, parseOverhead } from "../../src/machines/runtime/overhead.js";
import { matrixFromRows } from "../../src/model/matrix.js";
import { PLANNERS, plan } from "../../src/planner/index.js";
import { buildTopology, compileRoutes } from "../../src/topology/index.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";

const machine = findMachine("ib-hdr-200");
const mpi = findRuntimeModel("ib-hdr-200-mpi");
/** Runtimes whose corners the bound must respect: piecewise overheads, a low eager threshold, few in flight, copies. */
const RUNTIMES = [
  findRuntimeModel("smpi"),
  mpi,
  withRuntime(mpi, {
    name: "piecewise",
    isendOverhead: parseOverhead("0:1e-6:1e-9;512:2e-7:0", "test"),
    recvOverhead: parseOverhead("0:4e-7:0;1024:0:1e-10", "test"),
    eagerBytes: 256,
    maxInFlight: 3,
  }),
  withRuntime(mpi, { name: "rendezvous", eagerBytes: 0, copies: true }),
];

/** The planners auto weighs. */
const AUTO_PLANNERS = PLANNERS.filter((p) => "variants" in p.auto).map((p) => p.name);
/** A random matrix, runtime, network (null: the flat cluster) and planner. */
const boundCase = () =>
  fc.tuple(
    matrixRecipe({ minP: 2, maxP: 16, kinds: ["dense", "sparse", "spike", "permutation"] }),
    fc.constantFrom(...RUNTIMES),
    fc.constantFrom(null, "fat-tree:k=4,oversub=2", "dragonfly"),
    fc.constantFrom(...AUTO_PLANNERS),
  );
/** The routes of a network spec for p hosts, or null for the flat cluster. */
const routesOf = (spec: string | null, p: number) =>
  spec === null ? null : compileRoutes(buildTopology(spec, p, machine));
/** p ranks sending one element to every other. */
const ones = (p: number) =>
  matrixFromRows(Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => (i === j ? 0 : 1))));
/** Asserts a bound is at most a replayed time (up to rounding: the two add the same times in other orders). */
function atMost(bound: number, replayed: number, label: string): void {
  expect(bound, label).toBeLessThanOrEqual(replayed * (1 + 1e-9));
}

describe("runtimeLowerBound", () => {
  it("is at most the replay of every plan auto weighs, on every runtime, on the flat cluster and on networks", () => {
    let checked = 0;
    fc.assert(
      fc.property(boundCase(), ([r, runtime, spec, algorithm]) => {
        const m = buildMatrix(r);
        const target = runtimeTarget(runtime, routesOf(spec, m.p));
        let s;
        try {
          s = plan(m, algorithm, { machine });
        } catch {
          return; // a planner that does not apply to this matrix
        }
        const predicted = predictOnRuntime(m, s, machine, target, () => {
          try {
            return { schedule: plan(m, algorithm, { machine, payload: true }), error: "" };
          } catch (e) {
            return { schedule: null, error: (e as Error).message };
          }
        });
        if (typeof predicted === "string") return;
        atMost(
          runtimeLowerBound(s, m.elementBytes, machine, target),
          predicted.makespan,
          `${algorithm} on ${runtime.name}, ${spec ?? "flat"}`,
        );
        checked++;
      }),
      { numRuns: 120, seed: 11 },
    );
    expect(checked).toBeGreaterThan(80);
  });

  it("is tight where overheads decide: a direct plan of small messages pays every send and receive overhead", () => {
    // 8 ranks, 8 bytes to every other: each rank posts 7 sends and pays 7 eager receives at 0.3 us each
    const p = 8;
    const m = ones(p);
    const s = plan(m, "shift");
    const target = runtimeTarget(mpi, null);
    const bound = runtimeLowerBound(s, m.elementBytes, machine, target);
    expect(bound).toBeCloseTo(2 * (p - 1) * 0.3, 9);
    const replayed = predictOnRuntime(m, s, machine, target, () => ({ schedule: null, error: "" }));
    // the replay sums the same overheads in another order: equal up to rounding
    expect(typeof replayed === "string" ? NaN : replayed.makespan).toBeCloseTo(bound, 9);
  });

  it("is the busiest link's bytes over its bandwidth where bytes decide", () => {
    // rank 0 sends 1 MiB to rank 1 only: its up link carries the bytes and the envelope
    const rows = [
      [0, 1 << 20],
      [0, 0],
    ];
    const m = matrixFromRows(rows);
    const s = plan(m, "shift");
    const bound = runtimeLowerBound(s, m.elementBytes, machine, runtimeTarget("smpi", null));
    expect(bound).toBeCloseTo(((1 << 20) * m.elementBytes + 16) * (machine.tc + machine.td), 6);
  });

  it("takes an overhead's least value over every size", () => {
    expect(leastOverheadUs(flatOverhead(0.3))).toBe(0.3);
    expect(leastOverheadUs(parseOverhead("0:1e-6:0;512:2e-7:0", "test"))).toBeCloseTo(0.2, 12);
    expect(leastOverheadUs([{ fromBytes: 0, us: 1, usPerByte: -1e-3 }])).toBe(0);
    expect(leastOverheadUs([])).toBe(0);
  });
});

describe("roundsLowerBound", () => {
  it("is at most the replay of the nonblocking program, on every runtime and network", () => {
    let checked = 0;
    fc.assert(
      fc.property(boundCase(), fc.integer({ min: 1, max: 1 << 17 }), ([r, runtime, spec, algorithm], elementBytes) => {
        const m = { ...buildMatrix(r), elementBytes };
        const network = routesOf(spec, m.p);
        let program;
        try {
          program = lowerSchedule(m, plan(m, algorithm, { machine, payload: true })).program;
        } catch {
          return; // a planner that does not apply to this matrix
        }
        const replayed = replayProgram(program, { machine, runtime, ...(network === null ? {} : { network }) });
        const bound = roundsLowerBound(program, machine, runtimeTarget(runtime, network));
        atMost(bound, replayed.makespanUs, `${algorithm} on ${runtime.name}, ${spec ?? "flat"}`);
        checked++;
      }),
      { numRuns: 150, seed: 13 },
    );
    expect(checked).toBeGreaterThan(100);
  });

  it("a round lasts at least its receives' bytes over the link they share", () => {
    // shift at P = 4 with 1 MiB messages, no overheads: each of 3 rounds brings one message into every rank's down
    // link, so a rank takes at least 3 (latency + bytes / bandwidth)
    const p = 4,
      bytes = 1 << 20;
    const m = ones(p);
    const big = { ...m, elementBytes: bytes };
    const program = lowerSchedule(big, plan(big, "shift")).program;
    const one = machine.ts + (bytes + 16) * (machine.tc + machine.td);
    expect(roundsLowerBound(program, machine, runtimeTarget("smpi", null))).toBeCloseTo(3 * one, 6);
    const replayed = replayProgram(program, { machine, runtime: "smpi" }).makespanUs;
    expect(replayed).toBeGreaterThanOrEqual(3 * one * (1 - 1e-9));
  });
});

/** A matrix auto plans and the runtime it plans for. */
const autoCase = () =>
  [
    matrixRecipe({ minP: 4, maxP: 24, kinds: ["dense", "sparse", "spike"] }),
    fc.constantFrom("smpi", "ib-hdr-200-mpi"),
  ] as const;

describe("planAuto on a runtime with bounds", () => {
  it("skips only finalists whose replay is slower than the winner's", () => {
    fc.assert(
      fc.property(...autoCase(), (r, runtime) => {
        const m = buildMatrix(r);
        const { report } = planAuto(m, machine, { runtime, payload: true });
        const winner = report.candidates.find((c) => c.note === "winner")!;
        const target = runtimeTarget(runtime, null);
        for (const c of report.candidates) {
          if (!c.note.startsWith("finalist, not simulated")) continue;
          expect(c.note).toContain("runtime-bound.ts");
          const s = plan(m, c.algorithm, { machine, params: c.params });
          const t = predictOnRuntime(m, s, machine, target, () => ({
            schedule: plan(m, c.algorithm, { machine, params: c.params, payload: true }),
            error: "",
          }));
          if (typeof t !== "string") expect(t.makespan).toBeGreaterThan(winner.simulated!);
        }
      }),
      { numRuns: 15, seed: 5 },
    );
  });

  it("exhaustive replays every finalist the bounds skipped: the same winner and times, each at least its bound", () => {
    fc.assert(
      fc.property(...autoCase(), (r, runtime) => {
        const m = buildMatrix(r);
        const pruned = planAuto(m, machine, { runtime }).report;
        const all = planAuto(m, machine, { runtime, exhaustive: true }).report;
        const key = (c: { algorithm: string; params: object }): string => `${c.algorithm} ${JSON.stringify(c.params)}`;
        const winner = (rep: typeof all) => key(rep.candidates.find((c) => c.note === "winner")!);
        expect(winner(all)).toBe(winner(pruned));
        expect(all.candidates.filter((c) => c.note.startsWith("finalist, not simulated"))).toEqual([]);
        for (const c of pruned.candidates) {
          const again = all.candidates.find((x) => key(x) === key(c) && x.predicted === c.predicted)!;
          if (c.simulated !== null) expect(again.simulated, key(c)).toBe(c.simulated);
          const bound = /its lower bound ([\d.]+) us/.exec(c.note)?.[1];
          // a skipped finalist, replayed: no faster than its bound (rounded to 3 decimals in the note)
          if (bound !== undefined && again.simulated !== null)
            expect(again.simulated, key(c)).toBeGreaterThanOrEqual(Number(bound) - 0.0005);
        }
      }),
      { numRuns: 10, seed: 9 },
    );
    // on the case made for pruning: what the bounds skipped, exhaustive replays
    const skipped = planAuto(ones(32), machine, { runtime: "ib-hdr-200-mpi" }).report.candidates.filter((c) =>
      c.note.startsWith("finalist, not simulated"),
    );
    expect(skipped.length).toBeGreaterThan(0);
    const every = planAuto(ones(32), machine, { runtime: "ib-hdr-200-mpi", exhaustive: true }).report.candidates;
    for (const c of skipped)
      expect(every.find((x) => x.algorithm === c.algorithm && x.predicted === c.predicted)!.simulated).not.toBeNull();
  });

  it("prunes on the case it was made for: small messages at P = 64 with overheads replay a few finalists only", () => {
    const { report } = planAuto(ones(64), machine, { runtime: "ib-hdr-200-mpi" });
    const pruned = report.candidates.filter((c) => c.note.startsWith("finalist, not simulated"));
    const replayed = report.candidates.filter((c) => c.simulated !== null);
    expect(pruned.length).toBeGreaterThan(replayed.length);
    // every direct plan pays 63 sends and 63 receives at 0.3 us: 37.8 us, far above a log-round plan's time
    expect(pruned.map((c) => c.algorithm)).toContain("shift");
    // the flat model's favourite (every message at once) was not replayed: the reason says why it lost
    expect(report.reason).toMatch(
      /the flat model preferred mpi-linear \([\d.]+ us\) but it cannot be faster: its lower bound/,
    );
  });
});
