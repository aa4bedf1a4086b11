/** compareMatrix on an MPI runtime: every plan timed as plan -a auto --runtime times its finalists, and ranked so. */
import { describe, expect, it } from "vitest";
import { planAuto, round } from "../../src/auto/index.js";
import { compareMatrix, compareText } from "../../src/compare/compare.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { findMachine } from "../../src/machines/presets.js";
import { findRuntimeModel } from "../../src/machines/runtime/runtime-model.js";
import { matrixFromRows } from "../../src/model/matrix.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { findPlanner } from "../../src/planner/registry.js";

const ib = findMachine("ib-hdr-200");

describe("compareMatrix with a runtime", () => {
  it("each row's runtime time is auto's for the same plan and runtime, the default's is auto's answer's, and it ranks", () => {
    const m = generatePattern("halo", 16, {}, 1);
    const runtime = findRuntimeModel("ib-hdr-200-mpi");
    const { report, run } = compareMatrix(m, { machine: ib, runtime });
    const rt = report.runtime!;
    expect(rt.name).toBe("ib-hdr-200-mpi");
    expect(rt.times.map((t) => t.algorithm)).toEqual(report.rows.map((r) => r.algorithm));
    const auto = planAuto(m, ib, { runtime, exhaustive: true }).report;
    expect(rt.libraryDefaultUs).toBeGreaterThan(0);
    expect(round(rt.libraryDefaultUs)).toBe(auto.mpi.mpiSimulated);
    let matched = 0;
    run.candidates.forEach((c, k) => {
      const t = rt.times[k]!;
      expect(t.us, c.algorithm).not.toBeNull();
      // auto's candidate of the same planner whose parameters the plan's header carries: the same plan
      const same = auto.candidates.filter(
        (a) =>
          a.algorithm === c.algorithm &&
          a.simulated !== null &&
          Object.entries(a.params).every(([key, v]) => c.schedule.params[key] === v),
      );
      if (same.length === 0) return;
      matched++;
      expect(
        same.map((a) => a.simulated),
        c.algorithm,
      ).toContain(round(t.us!));
    });
    expect(matched).toBeGreaterThanOrEqual(10);
    // the fastest on the runtime is best, not the simulated machine's fastest (rs-nh there)
    const least = Math.min(...rt.times.map((t) => t.us!));
    expect(rt.times.find((t) => t.algorithm === report.best)!.us).toBe(least);
    expect(report.best).toBe(auto.winner.algorithm);
    expect(() => validateWithSchema("compare", JSON.parse(JSON.stringify(report)), "test")).not.toThrow();
    const text = compareText(report);
    expect(text).toContain("ib-hdr-200-mpi us");
    expect(text).toContain(`* fastest on runtime ib-hdr-200-mpi: ${report.best}\n`);
    expect(text).toMatch(/MPI_Alltoallv's default on runtime ib-hdr-200-mpi, as the library runs it .*: 11\.12 us\n/);
    expect(text).not.toContain("fastest on the simulated machine");
    // docs/compare.md quotes this case: the default 11.12 us, linear-permutation's plan 7.554 us
    expect(report.best).toBe("linear-permutation");
    expect(round(rt.times.find((t) => t.algorithm === "linear-permutation")!.us!)).toBe(7.554);
  });

  it("a relaying plan without payload chunks is planned again with them (the same time); no runtime, no runtime key", () => {
    const m = generatePattern("pattern1", 8, {}, 1);
    const planners = [findPlanner("two-stage"), findPlanner("shift")];
    const withChunks = compareMatrix(m, { machine: ib, planners, runtime: "smpi" }).report.runtime!;
    const without = compareMatrix(m, { machine: ib, planners, runtime: "smpi", payload: false }).report.runtime!;
    expect(without.times).toEqual(withChunks.times);
    expect(withChunks.times.every((t) => t.us !== null && t.note === "")).toBe(true);
    expect(compareMatrix(m, { machine: ib, planners }).report).not.toHaveProperty("runtime");
  });

  it("progress: the plans count as the first half, the replays as the second, rising to the end", () => {
    const m = generatePattern("pattern1", 8, {}, 1);
    const planners = [findPlanner("shift"), findPlanner("coloring"), findPlanner("mpi-linear")];
    const seen: [number, number][] = [];
    compareMatrix(m, { machine: ib, planners, runtime: "smpi", progress: (d, t) => seen.push([d, t]) });
    expect(seen.map(([, t]) => t)).toEqual(Array(6).fill(6));
    expect(seen.map(([d]) => d)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("an unknown runtime is refused before anything is planned; no messages: none ranked", () => {
    const m = generatePattern("pattern1", 8, {}, 1);
    let planned = 0;
    expect(() => compareMatrix(m, { machine: ib, runtime: "smpj", progress: () => planned++ })).toThrow(
      /unknown runtime.*smpj/,
    );
    expect(planned).toBe(0);
    const none = matrixFromRows([
      [3, 0],
      [0, 3],
    ]);
    const r = compareMatrix(none, { machine: ib, runtime: "smpi", planners: [findPlanner("shift")] }).report;
    expect(r.best).toBeNull();
    expect(r.runtime!.times).toHaveLength(1);
  });
});
