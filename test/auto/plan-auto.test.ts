/** planAuto: its plans verify, it is deterministic, never loses to shift by more than 1 % in simulation, and its header lists the candidates. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { planAuto } from "../../src/auto/index.js";
import { TIE_SLACK } from "../../src/auto/index.js";
import { AUTO_VARIANTS, variantLabel } from "../../src/auto/index.js";
import { findMachine, MACHINES } from "../../src/machines/presets.js";
import { simulateSchedule } from "../../src/machines/sim/index.js";
import { plan } from "../../src/planner/index.js";
import { verifySchedule } from "../../src/verifier/index.js";
import type { Schedule } from "../../src/model/schedule.js";
import { scheduleJsonPieces } from "../../src/io/schedule-json-write.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";
import { nodePortMachineArb } from "../helpers/machines.js";
import { expectProgress, recorder } from "../helpers/progress.js";
import { generatePattern } from "../../src/patterns/index.js";
import { buildTopology, compileRoutes } from "../../src/topology/index.js";

const machineArb = fc.constantFrom(...MACHINES);
/** The presets, and now and then one with a barrier, an envelope or several ports (no preset has the last two). */
const variedMachineArb = fc.oneof(machineArb, nodePortMachineArb);
/** Makespans within this relative slack are ties (TIE_SLACK); twice it, as ties do not chain. */
const TIE = 2 * TIE_SLACK;

describe("planAuto", () => {
  it("every plan verifies, for random matrices P 1..40 on every machine preset", () => {
    fc.assert(
      fc.property(matrixRecipe({ maxP: 40 }), machineArb, (r, machine) => {
        const m = buildMatrix(r);
        const { schedule } = planAuto(m, machine);
        const rep = verifySchedule(m, schedule);
        expect(rep.checks.filter((c) => !c.holds)).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });

  it("a payload plan verifies element by element and is the same schedule as without payload", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ maxP: 24, kinds: ["dense", "sparse", "spike", "empty-rows"] }),
        machineArb,
        (r, mc) => {
          const m = buildMatrix(r);
          const a = planAuto(m, mc, { payload: true });
          const b = planAuto(m, mc);
          const rep = verifySchedule(m, a.schedule);
          expect(rep.checks.filter((c) => !c.holds)).toEqual([]);
          expect(rep.checks.map((c) => c.id)).toContain("delivery");
          expect(a.report).toEqual(b.report);
          expect(Array.from(a.schedule.size)).toEqual(Array.from(b.schedule.size));
        },
      ),
      { numRuns: 25 },
    );
  });

  it("is deterministic: the same matrix and machine give the same bytes", () => {
    fc.assert(
      fc.property(matrixRecipe({ minP: 2, maxP: 30 }), machineArb, (r, machine) => {
        const m = buildMatrix(r);
        const a = [...scheduleJsonPieces(planAuto(m, machine).schedule)].join("");
        const b = [...scheduleJsonPieces(planAuto(m, machine).schedule)].join("");
        expect(a).toBe(b);
      }),
      { numRuns: 20 },
    );
  });

  it("the header's auto block lists every variant, the winner is the schedule's algorithm and has the least simulated time", () => {
    const m = generatePattern("liu-pattern3", 16, { lmax: 128 }, 5);
    const { schedule, report } = planAuto(m, findMachine("t3d-004"));
    expect(schedule.auto).toBeDefined();
    expect(report.candidates.map((c) => variantLabel(c))).toEqual(AUTO_VARIANTS.map(variantLabel));
    expect(schedule.algorithm).toBe(report.winner.algorithm);
    const sims = report.candidates.filter((c) => c.simulated !== null);
    const finalists = report.candidates.filter((c) => c.note.startsWith("finalist") || c.note === "winner");
    expect(finalists.map((c) => c.algorithm)).toEqual(expect.arrayContaining(["shift", "linear-permutation"]));
    const winner = report.candidates.find((c) => c.note === "winner")!;
    expect(winner.simulated).toBe(Math.min(...sims.map((c) => c.simulated!)));
    // here the bound spares most replays: every finalist but the winner's is pruned, shift too
    expect(finalists.filter((c) => c.simulated === null).length).toBeGreaterThan(0);
    expect(report.reason).toMatch(/shift (at least )?[0-9.]+ us/);
    expect(report.candidates.find((c) => c.algorithm === "mesh-two-stage")!.predicted).not.toBeNull();
    expect(report.reason).toMatch(/lowest simulated makespan/);
    // P = 15 is no perfect square: mesh-two-stage is priced on its 3 x 5 grid, and hierarchical on its default nodes
    const odd = planAuto(generatePattern("liu-pattern3", 15, {}, 5), findMachine("t3d-004")).report;
    for (const name of ["mesh-two-stage", "hierarchical"])
      expect(odd.candidates.find((c) => c.algorithm === name)!.predicted, name).not.toBeNull();
  });

  it("the schedule JSON with its auto block passes the schema (header)", () => {
    const m = generatePattern("pattern1", 9, {}, 2);
    const text = [...scheduleJsonPieces(planAuto(m, findMachine("cm5-004")).schedule)].join("");
    const doc = JSON.parse(text) as { auto: { candidates: unknown[] } };
    expect(doc.auto.candidates.length).toBe(AUTO_VARIANTS.length);
    expect(() => validateWithSchema("schedule", doc, "schedule")).not.toThrow();
    const bad = { ...doc, auto: { ...doc.auto, extra: 1 } };
    expect(() => validateWithSchema("schedule", bad, "schedule")).toThrow(/auto/);
  });

  it("on a network: finalists simulated there (link contention), the header names it and passes the schema", () => {
    const machine = findMachine("ib-hdr-200");
    const m = generatePattern("uniform", 16, { size: 64 }, 1);
    const network = compileRoutes(buildTopology("fat-tree:oversub=4", 16, machine));
    const { schedule, report } = planAuto(m, machine, { network, portSharing: "fair" });
    expect(report.network).toEqual({ name: "fat-tree:oversub=4", portSharing: "fair" });
    // each finalist's simulated time is its plan's makespan on the network, not on the node-port model
    const shift = report.candidates.find((c) => c.algorithm === "shift")!;
    const s = plan(m, "shift", { seed: 1, machine });
    const onNet = simulateSchedule(s, machine, { network, portSharing: "fair", linkFactor: false, timeline: false });
    expect(shift.simulated).toBeCloseTo(onNet.makespan, 3);
    expect(shift.simulated).not.toBeCloseTo(simulateSchedule(s, machine, { timeline: false }).makespan, 3);
    const winner = report.candidates.find((c) => c.note === "winner")!;
    expect(winner.simulated).toBe(
      Math.min(...report.candidates.flatMap((c) => (c.simulated === null ? [] : [c.simulated]))),
    );
    const doc = JSON.parse([...scheduleJsonPieces(schedule)].join("")) as { auto: { network: unknown } };
    expect(doc.auto.network).toEqual({ name: "fat-tree:oversub=4", portSharing: "fair" });
    expect(() => validateWithSchema("schedule", doc, "schedule")).not.toThrow();
    expect(() => planAuto(m, findMachine("cm5-fat-tree"), { network })).toThrow(
      /^auto: a network replaces the machine's topology/,
    );
  });

  it("refuses a bad finalist count or mode with a one-line error naming auto, not compare", () => {
    const m = generatePattern("pattern1", 8, {}, 1);
    const t3d = findMachine("t3d-004");
    expect(() => planAuto(m, t3d, { finalists: -1 })).toThrow(
      /^auto: finalists must be an integer in 0\.\.\d+, got -1$/,
    );
    expect(() => planAuto(m, t3d, { mode: "x" as never })).toThrow(
      /^auto: unknown mode 'x'; known: blocking, nonblocking$/,
    );
    expect(() => planAuto(m, t3d, { runtime: 3 as never })).toThrow(
      /^auto: runtime must be a runtime model or its name$/,
    );
    expect(() => planAuto(m, t3d, { seed: 1.5 })).toThrow(/^auto: /);
    expect(() => planAuto(m, t3d, { payload: "yes" as never })).toThrow(/^auto: payload must be true or false/);
  });
});

describe("planAuto's reason", () => {
  it("the reason's next is a candidate that could win, with the header's makespan; bounds below it make it 'next simulated'", () => {
    // pattern1, P = 16 on the one-port t3d-004: mpi-scattered is simulated but cannot win (4 messages at once), and
    // rs-nh, split-coloring, shift and linear-permutation are skipped by bounds below the best one that can
    const m = generatePattern("pattern1", 16, {}, 1);
    const labelOf = (c: { algorithm: string; params: Record<string, unknown> }): string =>
      variantLabel({ algorithm: c.algorithm, params: c.params as Record<string, never> });
    for (const exhaustive of [false, true]) {
      const { schedule, report } = planAuto(m, findMachine("t3d-004"), { exhaustive });
      const header = schedule.auto as unknown as typeof report;
      expect(header.reason).toBe(report.reason);
      const next = /; next (simulated )?(\S+) ([\d.]+) us/.exec(report.reason)!;
      expect(next, report.reason).not.toBeNull();
      const named = header.candidates.find((c) => labelOf(c) === next[2])!;
      expect(named.note).toBe("finalist");
      expect(named.simulated).toBe(Number(next[3]));
      // the best simulated candidate that can win (no "cannot win" note) other than the winner
      const eligible = header.candidates.filter((c) => c.simulated !== null && c.note === "finalist");
      expect(named.simulated).toBe(Math.min(...eligible.map((c) => c.simulated!)));
      const misfit = header.candidates.find((c) => c.algorithm === "mpi-scattered")!;
      expect(misfit.note).toMatch(/^finalist, cannot win/);
      // faster than the next named, but not a plan auto may choose here
      if (!exhaustive) expect(misfit.simulated!).toBeLessThan(named.simulated!);
      const skipped = header.candidates
        .map((c) => ({ c, bound: /lower bound ([\d.]+) us/.exec(c.note) }))
        // a plan that cannot win either way (more messages at once than ports) is not counted, though its note has
        // its bound
        .filter((x) => x.c.simulated === null && x.bound !== null && Number(x.bound[1]) < named.simulated!)
        .filter((x) => !x.c.note.startsWith("finalist, cannot win"));
      if (exhaustive) {
        expect(skipped).toEqual([]);
        expect(next[1]).toBeUndefined();
        expect(next[2]).toBe("rs-nh");
        continue;
      }
      expect(next[1]).toBe("simulated ");
      expect(next[2]).toBe("mesh-two-stage(schedule=shift)");
      const lowest = skipped.sort((a, b) => Number(a.bound![1]) - Number(b.bound![1]))[0]!;
      const said = /\((\d+) skipped by lower bounds below it, the lowest (\S+) at least ([\d.]+) us\)/.exec(
        report.reason,
      )!;
      expect(said, report.reason).not.toBeNull();
      expect(Number(said[1])).toBe(skipped.length);
      expect(said[2]).toBe(labelOf(lowest.c));
      expect(said[2]).toBe("rs-nh");
      // rounded down: at least, and within the header's 3 decimals
      expect(Math.abs(Number(said[3]) - Number(lowest.bound![1]))).toBeLessThanOrEqual(0.001 + 1e-9);
    }
  });
});

describe("planAuto progress", () => {
  it("reports in thousandths of the run (fixed phases): one total, done never decreasing, ending at the total, without changing the plan", () => {
    const cases = [
      [generatePattern("random", 24, {}, 1), "sp2-004"],
      [generatePattern("uniform", 2, {}, 1), "t3d-004"],
      [generatePattern("uniform", 64, { size: 4 }, 1), "t3d-004"],
      [generatePattern("uniform", 256, { size: 4 }, 1), "t3d-004"], // shift: 65,280 transfers
    ] as const;
    for (const [m, name] of cases) {
      const machine = findMachine(name);
      // nonblocking: every finalist is replayed (blocking mode may skip some by their bound, which count as done)
      for (const mode of ["nonblocking", "blocking"] as const) {
        const r = recorder();
        const run = planAuto(m, machine, { mode, progress: r.progress });
        expectProgress(r.calls);
        expect(r.calls[0]![1]).toBe(1000);
        if (m.p === 256 && mode === "nonblocking") expect(r.calls.length).toBeGreaterThan(20); // reports inside a replay
        const plain = planAuto(m, machine, { mode });
        expect([...scheduleJsonPieces(run.schedule)].join("")).toBe([...scheduleJsonPieces(plain.schedule)].join(""));
      }
    }
  });
});

describe("planAuto against the replay", () => {
  it("never loses to shift by more than 1 % in simulated makespan (random small cases)", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ minP: 2, maxP: 40, kinds: ["dense", "sparse", "spike", "empty-rows", "permutation"] }),
        machineArb,
        (r, machine) => {
          const m = buildMatrix(r);
          const { schedule } = planAuto(m, machine);
          const t = simulateSchedule(schedule, machine, { timeline: false }).makespan;
          const shift = simulateSchedule(plan(m, "shift"), machine, { timeline: false }).makespan;
          expect(t).toBeLessThanOrEqual(shift * 1.01 + 1e-9);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("the finalists its bound spared would not have won: simulating every finalist picks the same winner, up to ties", () => {
    fc.assert(
      fc.property(matrixRecipe({ minP: 2, maxP: 40 }), variedMachineArb, (r, machine) => {
        const m = buildMatrix(r);
        const { report } = planAuto(m, machine);
        // an MPI plan needing more ports than the machine has is simulated to be compared with, and cannot win
        const misfits = report.candidates.filter((c) => c.note.startsWith("finalist, cannot win"));
        for (const c of misfits) expect(plan(m, c.algorithm, { params: c.params }).stepCount).toBeGreaterThan(0);
        const finalists = report.candidates.filter(
          (c) => (c.note.startsWith("finalist") || c.note === "winner") && !misfits.includes(c),
        );
        const times = finalists.map(
          (c) =>
            simulateSchedule(plan(m, c.algorithm, { params: c.params, machine }), machine, { timeline: false })
              .makespan,
        );
        const least = Math.min(...times);
        const w = finalists.findIndex((c) => c.note === "winner");
        // the winner is the least makespan, up to a tie; no finalist before it was faster beyond a tie
        expect(times[w]!).toBeLessThanOrEqual(least * (1 + TIE));
        for (let i = 0; i < w; i++) expect(times[i]!, finalists[i]!.note).toBeGreaterThanOrEqual(times[w]! * (1 - TIE));
        finalists.forEach((c, i) => {
          if (c.simulated === null) expect(times[i]!, c.note).toBeGreaterThan(least);
          else expect(Math.abs(c.simulated - times[i]!)).toBeLessThanOrEqual(1e-3 + 1e-12 * times[i]!); // the header rounds to 3 decimals
        });
      }),
      { numRuns: 60 },
    );
  });
});

describe("planAuto's early rule-out by the simulated-machine bounds", () => {
  const RULED = "not planned: its simulated-machine lower bound";
  it("a variant it ruled out unplanned would not have won: its plan simulates no faster than the winner", () => {
    let ruled = 0;
    fc.assert(
      fc.property(
        matrixRecipe({ minP: 2, maxP: 40, kinds: ["dense", "sparse", "spike", "empty-rows", "permutation"] }),
        variedMachineArb,
        fc.constantFrom("blocking", "nonblocking"),
        (r, machine, mode) => {
          const m = buildMatrix(r);
          const { report, schedule } = planAuto(m, machine, { mode });
          const sim = (s: Schedule): number => simulateSchedule(s, machine, { mode, timeline: false }).makespan;
          const win = sim(schedule);
          for (const c of report.candidates) {
            if (!c.note.startsWith(RULED)) continue;
            ruled++;
            const t = sim(plan(m, c.algorithm, { params: c.params, machine }));
            // no faster than the winner beyond a tie
            expect(t, `${variantLabel(c)}: ${c.note}`).toBeGreaterThanOrEqual(win * (1 - TIE));
          }
        },
      ),
      { numRuns: 60, seed: 11 },
    );
    expect(ruled).toBeGreaterThan(0);
  });

  it("ties: on an all-to-all of equal messages shift is at the composed bound, so every direct planner after it is ruled out unplanned", () => {
    const m = generatePattern("uniform", 16, { size: 10000 }, 1);
    const { report } = planAuto(m, findMachine("t3d-004"));
    expect(report.winner.algorithm).toBe("shift");
    for (const name of ["rs-n", "rs-nh", "coloring", "split-coloring"]) {
      const c = report.candidates.find((x) => x.algorithm === name)!;
      expect(c.note, name).toMatch(
        /^not planned: its simulated-machine lower bound .* reaches shift's simulated .* \(a tie goes to the earlier candidate\)$/,
      );
      expect(c.simulated).toBeNull();
    }
  });
});

describe("planAuto's cut between equal predictions", () => {
  // nonblocking, the flat model prices every one-stage direct plan alike: the 3 best predictions are a tie, and the
  // planners tied with the last of them are planned and simulated, not cut off by registry order
  it.each([
    ["pattern1", "cm5-fat-tree", "split-coloring", 7714.8],
    ["ranka-kl", "cm5-fat-tree", "split-coloring", 1829.4],
  ])("nonblocking %s P = 16 on %s: every tied candidate is simulated, and %s wins at %s us", (pat, mc, best, us) => {
    const m = generatePattern(pat, 16, {}, 1);
    const { report } = planAuto(m, findMachine(mc), { mode: "nonblocking" });
    const winner = report.candidates.find((c) => c.note === "winner")!;
    expect([winner.algorithm, winner.simulated]).toEqual([best, us]);
    const cut = report.candidates.find((c) => c.algorithm === "shift")!.predicted!;
    for (const c of report.candidates)
      if (c.predicted !== null && c.predicted <= cut) expect(c.simulated, variantLabel(c)).not.toBeNull();
    // docs/auto.md quotes the pattern1 case: linear-permutation, auto's choice before, simulates at 9402.48 us
    if (pat === "pattern1")
      expect(report.candidates.find((c) => c.algorithm === "linear-permutation")!.simulated).toBe(9402.48);
    // no candidate is left out by a bound equal to the cut
    for (const c of report.candidates) expect(c.note).not.toMatch(/lower bound ([\d.]+) us >=? \1 us/);
  });
});

describe("planAuto's notes", () => {
  it("an MPI finalist that cannot win and was skipped by its lower bound says both", () => {
    const { report } = planAuto(generatePattern("pattern1", 16, {}, 1), findMachine("t3d-004"));
    const linear = report.candidates.find((c) => c.algorithm === "mpi-linear")!;
    expect(linear.simulated).toBeNull();
    expect(linear.note).toMatch(
      /^finalist, cannot win: 15 messages of a node in one step on a machine with 1 port \(compared with as what MPI does\); not simulated: its lower bound [\d.]+ us \(blocking-bound.ts\) exceeds the winner's [\d.]+ us$/,
    );
    // the figures docs/auto.md quotes
    expect(linear.note).toContain("its lower bound 4858.752 us (blocking-bound.ts) exceeds the winner's 4508.238 us");
    // every candidate with simulated null among the finalists names its bound
    for (const c of report.candidates)
      if (c.simulated === null && c.note.startsWith("finalist")) expect(c.note, c.algorithm).toMatch(/lower bound/);
  });
});
