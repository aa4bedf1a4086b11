/** The vs-MPI bench's flags and contract checks: a case that ran only some SMPI algorithms leaves the 3 % check open. */
import { describe, expect, it } from "vitest";
import type { VsMpiCaseResult } from "../../bench/vs-mpi-case.js";
import { SMPI_ALLTOALLV, smpirunTimeoutS } from "../../bench/vs-mpi-config.js";
import {
  caseFigures,
  contractChecks,
  headlineTable,
  headlineText,
  predictionPairs,
} from "../../bench/vs-mpi-report.js";
import { needsMeasuring, parseVsMpiArgs, vsMpiCases } from "../../bench/vs-mpi.js";

/** A case where auto's plan took `autoUs` and MPI_Alltoallv `times` (algorithm -> us). */
function aCase(p: number, autoUs: number, times: Record<string, number>): VsMpiCaseResult {
  return {
    key: `random|flat-ib-hdr-200|${p}|small|overheads`,
    workload: "random",
    platform: "flat-ib-hdr-200",
    p,
    size: "small",
    config: "overheads",
    capabilities: "x",
    elementBytes: 32,
    meanMessageBytes: 1024,
    alltoallv: times,
    alltoallvPredicted: {},
    autoSpreadUs: [autoUs, autoUs],
    plans: [
      {
        role: "auto",
        algorithm: "mesh-two-stage",
        params: {},
        variant: "dataflow",
        smpiUs: autoUs,
        predictedUs: autoUs,
        predictedBy: "",
        problem: "",
      },
    ],
    answer: "use the plan",
    defaultPredictedUs: times["default"] ?? null,
    problems: [],
    wallS: 1,
  };
}

const every = (us: number): Record<string, number> => Object.fromEntries(SMPI_ALLTOALLV.map((a) => [a, us]));

describe("vs-MPI report", () => {
  it("counts a case that ran every algorithm in the 3 % check and one that ran the default only in the others", () => {
    const full = aCase(16, 5, { ...every(10), pair: 5.1 });
    const partial = aCase(256, 20, { default: 150 });
    expect(caseFigures(full).fastest).toEqual({ name: "pair", us: 5.1 });
    expect(caseFigures(partial).fastest).toBeNull();
    const [vsFastest, small] = contractChecks([caseFigures(full), caseFigures(partial)]);
    expect(vsFastest!.met).toBeNull(); // open: one case was not measured against every algorithm
    expect(vsFastest!.figures).toMatch(/^1 of 1 cases within.*1 cases ran only some algorithms/);
    expect(small!.met).toBe(true); // P = 256: 150 / 20 = 7.5x
    expect(small!.figures).toMatch(/median default \/ auto 7\.500 over 1 cases/);
    expect(headlineTable([caseFigures(partial)])).toContain("not run (default only)");
  });

  it("says the headline in words: cases per P, the largest slowdown, the median speed-up per P", () => {
    const figs = [
      aCase(16, 5.2, { ...every(10), pair: 5 }), // 4 % slower than pair; 10 / 5.2 over the default
      aCase(16, 2, every(10)), // 5x
      aCase(64, 1, every(8)), // 8x
    ].map(caseFigures);
    expect(headlineText(figs)).toBe(
      "In 3 cases (2 at P = 16, 1 at P = 64), auto was at most 4.0 % slower than the fastest of SMPI's algorithms. " +
        "With per-message overheads and small messages its plans are faster than the default by a median 3.5x at " +
        "P = 16, 8.0x at P = 64 (up to 8x).",
    );
    expect(headlineText([caseFigures(aCase(16, 2, every(10)))])).toContain("auto was never slower than the fastest");
    expect(headlineText([])).toBe("No case has been measured yet.");
  });

  it("fails the 3 % check when a fully measured case is slower than the fastest algorithm", () => {
    const [vsFastest] = contractChecks([caseFigures(aCase(16, 5.2, { ...every(10), pair: 5 }))]);
    expect(vsFastest!.met).toBe(false);
  });

  it("parses --algorithms (default first, known names) and --finalists", () => {
    const o = parseVsMpiArgs(["--p", "256", "--algorithms", "default,pair", "--finalists", "1", "--skip-mirrors"]);
    expect(o.run).toEqual({ mirrors: false, algorithms: ["default", "pair"], finalists: 1, timeoutS: null });
    expect(parseVsMpiArgs(["--timeout", "3600"]).run.timeoutS).toBe(3600);
    // by default the limit grows with P: 900 s up to P = 64, 16 times that at P = 256
    expect([16, 64, 128, 256].map(smpirunTimeoutS)).toEqual([900, 900, 3600, 14400]);
    expect(() => parseVsMpiArgs(["--timeout", "0"])).toThrow(/--timeout/);
    expect(parseVsMpiArgs([]).run.algorithms).toEqual([...SMPI_ALLTOALLV]);
    expect(() => parseVsMpiArgs(["--algorithms", "pair,default"])).toThrow(/must start with default/);
    expect(() => parseVsMpiArgs(["--algorithms", "default,pairs"])).toThrow(/unknown SMPI algorithm 'pairs'/);
    expect(() => parseVsMpiArgs(["--finalists", "-1"])).toThrow(/--finalists/);
  });

  it("parses the boolean flags as booleans: the word after one is not its value; an unknown flag is refused", () => {
    const o = parseVsMpiArgs(["vs-mpi", "--skip-mirrors", "--p", "16"]);
    expect([o.run.mirrors, o.p, o.summaryOnly, o.repredict]).toEqual([false, [16], false, false]);
    // before, --skip-mirrors took "16" as its value and --p fell back to its default
    const after = parseVsMpiArgs(["--skip-mirrors", "16", "--summary-only", "--repredict"]);
    expect([after.run.mirrors, after.p, after.summaryOnly, after.repredict]).toEqual([
      false,
      [16, 64, 256],
      true,
      true,
    ]);
    expect(parseVsMpiArgs(["--summary-only", "--timeout", "60"]).run).toMatchObject({ mirrors: true, timeoutS: 60 });
    expect(() => parseVsMpiArgs(["--skip-mirrors=yes"])).toThrow(
      /^vs-mpi: --skip-mirrors takes no value, got '--skip-mirrors=yes'$/,
    );
    expect(() => parseVsMpiArgs(["--p", "--skip-mirrors"])).toThrow(/^vs-mpi: --p needs a value$/);
    expect(() => parseVsMpiArgs(["--timeout"])).toThrow(/^vs-mpi: --timeout needs a value$/);
    expect(() => parseVsMpiArgs(["--skip-mirror"])).toThrow(
      /^vs-mpi: unknown flag --skip-mirror; known: --p, .*--repredict$/,
    );
    expect(() => parseVsMpiArgs(["--bogus=1"])).toThrow(/^vs-mpi: unknown flag --bogus; /);
  });
});

describe("vs-MPI predictions", () => {
  it("compares the prediction of an algorithm only when the case ran it", () => {
    const c = { ...aCase(256, 20, { default: 150 }), alltoallvPredicted: { default: 151, pair: 90 } };
    const names = predictionPairs(c).map(([n]) => n);
    expect(names).toContain("alltoallv default");
    expect(names).not.toContain("alltoallv pair");
  });
});

describe("vs-MPI cases", () => {
  it("measures each platform at the P it hosts: the k = 8 fat tree up to 128 ranks, the k = 12 one above", () => {
    const names = (p: string): string[] =>
      vsMpiCases(parseVsMpiArgs(["--p", p, "--workloads", "moe", "--sizes", "small", "--configs", "plain"])).map(
        (c) => c.platform.name,
      );
    expect(names("16")).toContain("fat-tree-k8-4to1");
    expect(names("16")).not.toContain("fat-tree-k12-4to1");
    expect(names("256")).toContain("fat-tree-k12-4to1");
    expect(names("256")).not.toContain("fat-tree-k8-4to1");
    expect(names("256")).toContain("flat-ib-hdr-200");
  });
});

describe("vs-MPI cache", () => {
  it("measures a cached case again when it lacks an algorithm the run asks for, not otherwise", () => {
    const full = parseVsMpiArgs([]).run;
    const onlyDefault = parseVsMpiArgs(["--algorithms", "default"]).run;
    const partial = aCase(256, 10, { default: 12 });
    expect(needsMeasuring(partial, "x", onlyDefault)).toBe(false);
    expect(needsMeasuring(partial, "x", full)).toBe(true);
    expect(needsMeasuring(aCase(16, 10, every(12)), "x", full)).toBe(false);
    expect(needsMeasuring(aCase(16, 10, every(12)), "y", full)).toBe(true);
    expect(needsMeasuring(undefined, "x", onlyDefault)).toBe(true);
  });
});
