import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { runCandidates } from "../../src/compare/candidates.js";
import { compareChartSvg } from "../../src/compare/compare-chart.js";
import { compareMatrix, compareText } from "../../src/compare/compare.js";
import { compareHtml, nodeLoadSvg } from "../../src/compare/html-report.js";
import { sweepChartSvg } from "../../src/compare/sweep-chart.js";
import { parseSweep, runSweep, scaleMatrix } from "../../src/compare/sweep.js";
import { findMachine } from "../../src/machines/presets.js";
import { simulateSchedule } from "../../src/machines/sim/simulate.js";
import { matrixFromRows } from "../../src/model/matrix.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { findPlanner, plan, PLANNERS } from "../../src/planner/registry.js";
import type { Planner } from "../../src/planner/types.js";
import { fail } from "../../src/model/errors.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";
import { svgTexts, textsOutside } from "../export/svg-text.js";
import { htmlProblems } from "../helpers/html-check.js";

const t3d = findMachine("t3d-004");

describe("runCandidates", () => {
  it("every plan it measures verifies, and no plan beats the bound it reports (random matrices)", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ maxP: 10, kinds: ["dense", "sparse", "empty-rows", "zero", "permutation", "spike"] }),
        fc.constantFrom("blocking", "nonblocking" as const),
        (r, mode) => {
          const m = buildMatrix({ ...r, maxEntry: Math.min(r.maxEntry, 100) });
          const run = runCandidates(m, { machine: t3d, mode, seed: r.seed });
          expect(run.candidates.length + run.skipped.length).toBe(PLANNERS.length);
          for (const c of run.candidates) {
            // commplan's plans are one-port; MPI's (linear, scattered) post several messages per node at once
            expect(verifySchedule(m, c.schedule, { ports: c.mpi ? Infinity : 1 }).ok, c.algorithm).toBe(true);
            if (run.bound !== null) expect(c.simulatedUs).toBeGreaterThanOrEqual(run.bound.value * (1 - 1e-9));
            expect(c.simulatedUs).toBe(
              simulateSchedule(c.schedule, t3d, { mode, seed: r.seed, timeline: false }).makespan,
            );
            // direct planners hold nothing for others; "direct" as a bound class only means every pair is covered
            if (["linear-permutation", "shift", "coloring"].includes(c.algorithm)) expect(c.peakBufferElements).toBe(0);
            if (!c.cls.direct) expect(c.peakBufferElements).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 12, seed: 3 },
    );
  });
  it("skips a planner that refuses the matrix, with its reason, and the te-* planners past the element limit", () => {
    const m = generatePattern("pattern1", 12, {}, 1);
    // every registered planner takes P = 12 (mesh-two-stage on a 3 x 4 grid); a planner that refuses is skipped with its reason
    expect(runCandidates(m, { machine: t3d }).skipped).toEqual([]);
    const refusing: Planner = {
      ...findPlanner("shift"),
      name: "refuses",
      plan: () => {
        throw fail("planner", "UNSUPPORTED", "refuses: P = 12 is not its kind");
      },
    };
    const run = runCandidates(m, { machine: t3d, planners: [refusing, findPlanner("shift")] });
    expect(run.candidates.map((c) => c.algorithm)).toEqual(["shift"]);
    expect(run.skipped).toEqual([{ algorithm: "refuses", reason: expect.stringMatching(/not its kind/) }]);
    const big = scaleMatrix(m, 64);
    const r2 = runCandidates(big, { machine: t3d, planners: [findPlanner("te-direct"), findPlanner("shift")] });
    expect(r2.candidates.map((c) => c.algorithm)).toEqual(["shift"]);
    expect(r2.skipped[0]!.reason).toMatch(/network elements/);
  });
});

describe("compareMatrix", () => {
  const m = generatePattern("pattern1", 16, {}, 1);
  it("is deterministic, names the fastest plan and gives ratios >= 1 against the bound for every schedule", () => {
    const a = compareMatrix(m, { machine: t3d, seed: 5 }).report;
    const b = compareMatrix(m, { machine: t3d, seed: 5 }).report;
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const fastest = Math.min(...a.rows.map((r) => r.simulatedUs));
    expect(a.rows.find((r) => r.algorithm === a.best)!.simulatedUs).toBe(fastest);
    for (const r of a.rows) {
      expect(r.ratio!).toBeGreaterThanOrEqual(1);
      expect(r.classBound!.value).toBeGreaterThanOrEqual(a.bound!.value);
      expect(r.simulatedUs).toBeGreaterThanOrEqual(r.classBound!.value);
    }
    expect(a.bounds.map((x) => x.target)).toEqual([
      "cost-blocking",
      "cost-blocking",
      "cost-nonblocking",
      "cost-nonblocking",
      "sim-blocking",
      "sim-blocking",
      "sim-blocking",
    ]);
    const text = compareText(a);
    expect(text).toContain(`* fastest on the simulated machine: ${a.best}`);
    expect(text).toContain("lower bound");
  });
  it("a matrix with no network traffic: no bound, ratios null", () => {
    const z = matrixFromRows([
      [3, 0],
      [0, 0],
    ]);
    const r = compareMatrix(z, { machine: t3d, planners: [findPlanner("shift")] }).report;
    expect(r.bound).toBeNull();
    expect(r.rows[0]!.ratio).toBeNull();
    expect(compareText(r)).toContain("no network traffic");
    expect(compareChartSvg(r)).toContain("</svg>");
  });
});

describe("compareMatrix's ports", () => {
  it("a port count out of the simulated machine's range is refused under compare's name, before any plan", () => {
    const m = generatePattern("random", 4, {}, 1);
    for (const [ports, shown] of [
      [0, "0"],
      [2000, "2000"],
      [1.5, "1.5"],
      [Infinity, "Infinity"],
      ["2", '"2"'],
    ] as const)
      expect(() => compareMatrix(m, { machine: t3d, ports: ports as number }), String(ports)).toThrow(
        `compare: ports must be an integer in 1..1024 (the simulated machine's ports per node), got ${shown}`,
      );
    // a machine whose own count is out of range: named as the machine's
    expect(() => compareMatrix(m, { machine: { ...t3d, ports: 4096 } })).toThrow(
      /^compare: machine\.ports must be an integer in 1\.\.1024 /,
    );
    // in range: every planner is measured (2000 skipped them all, each for simulate's range)
    const ok = compareMatrix(m, { machine: t3d, ports: 1024 });
    expect(ok.run.ports).toBe(1024);
    expect(ok.run.candidates.length).toBeGreaterThan(0);
  });
});

describe("sweep", () => {
  it("parses ranges and lists, and refuses bad ones in one line naming the sweep", () => {
    expect(parseSweep("1/16..16")).toEqual([1 / 16, 1 / 8, 1 / 4, 1 / 2, 1, 2, 4, 8, 16]);
    expect(parseSweep("4,0.5,1,4")).toEqual([0.5, 1, 4]);
    expect(parseSweep("2..5")).toEqual([2, 4]);
    for (const bad of ["0..4", "4..1", "x", "1..2..3", "1,-2", "1/0", "1e400"])
      expect(() => parseSweep(bad), bad).toThrow(/^compare: sweep: /);
    expect(() => parseSweep("1/1048576..1048576")).toThrow(/more than 33 factors/);
  });
  it("scaleMatrix keeps the message pattern (every non-zero entry at least 1)", () => {
    const m = generatePattern("pattern1", 8, {}, 2);
    const s = scaleMatrix(m, 1 / 100);
    for (let k = 0; k < m.data.length; k++) expect(s.data[k]! > 0).toBe(m.data[k]! > 0);
    expect(scaleMatrix(m, 3).data[1]).toBe(m.data[1]! * 3);
  });
  it("finds the crossovers where two planners swap order, and the leader changes among them", () => {
    const m = generatePattern("pattern1", 16, {}, 1);
    const planners = ["coloring", "four-stage", "two-stage"].map(findPlanner);
    const sw = runSweep(m, parseSweep("1/64..16"), { machine: t3d, planners });
    expect(sw.algorithms).toEqual(["coloring", "four-stage", "two-stage"]);
    expect(sw.points).toHaveLength(11);
    for (const c of sw.crossovers) {
      const [a, b] = c.algorithms.map((n) => sw.algorithms.indexOf(n));
      const k = sw.points.findIndex((p) => p.meanMessageBytes > c.meanMessageBytes);
      expect(k).toBeGreaterThan(0);
      const lo = sw.points[k - 1]!,
        hi = sw.points[k]!;
      expect(Math.sign(lo.times[a!]! - lo.times[b!]!)).toBe(-Math.sign(hi.times[a!]! - hi.times[b!]!));
      expect(lo.times[sw.algorithms.indexOf(c.before)]!).toBeLessThan(lo.times[sw.algorithms.indexOf(c.after)]!);
    }
    const leaders = new Set(sw.points.map((p) => p.best));
    if (leaders.size > 1) expect(sw.crossovers.some((c) => c.leaderChange)).toBe(true);
    const svg = sweepChartSvg(sw, "t");
    expect(svg.match(/<polyline/g)).toHaveLength(4);
    // the red circles, and one more in the legend that says what they are
    const changes = sw.crossovers.filter((c) => c.leaderChange).length;
    expect(svg.match(/r="6"/g)?.length ?? 0).toBe(changes + (changes > 0 ? 1 : 0));
    const texts = svgTexts(svg).map((t) => t.text);
    expect(texts.includes("the fastest changes")).toBe(changes > 0);
    expect(sw.crossovers.some((c) => !c.leaderChange)).toBe(true);
    expect(texts).toContain("two planners cross");
    expect(textsOutside(svg)).toEqual([]);
    // without crossovers, no legend of circles
    const none = svgTexts(sweepChartSvg({ ...sw, crossovers: [] }, "t")).map((t) => t.text);
    expect(none).not.toContain("the fastest changes");
    expect(none).not.toContain("two planners cross");
  });
});

describe("sweepChartSvg", () => {
  it("says in its legend what the red circle of a change of the fastest planner is", () => {
    const points = [100, 1000].map((bytes, f) => ({
      factor: f + 1,
      meanMessageBytes: bytes,
      times: f === 0 ? [200, 300] : [3000, 2000],
      bound: bytes,
      best: f === 0 ? "a" : "b",
    }));
    const crossovers = [
      {
        algorithms: ["a", "b"] as const,
        before: "a",
        after: "b",
        meanMessageBytes: 300,
        timeUs: 800,
        leaderChange: true,
      },
    ];
    const svg = sweepChartSvg({ mode: "blocking", algorithms: ["a", "b"], points, crossovers }, "t");
    const texts = svgTexts(svg).map((t) => t.text);
    expect(texts).toContain("the fastest changes");
    expect(texts).not.toContain("two planners cross");
    expect(svg.match(/r="6"/g)).toHaveLength(2);
    expect(textsOutside(svg)).toEqual([]);
  });

  it("tells every planner's line apart: no two share a colour and a dash, though they outnumber the palette", () => {
    const algorithms = PLANNERS.map((pl) => pl.name);
    expect(algorithms.length).toBeGreaterThan(15);
    const points = [100, 1000].map((bytes, f) => ({
      factor: f + 1,
      meanMessageBytes: bytes,
      times: algorithms.map((_, k) => bytes * (k + 2)),
      bound: bytes,
      best: algorithms[0]!,
    }));
    const svg = sweepChartSvg({ mode: "blocking", algorithms, points, crossovers: [] }, "t");
    const styles = (tag: string): string[] =>
      [...svg.matchAll(new RegExp(`<${tag} [^>]*>`, "g"))].map(
        ([t]) => `${/stroke="([^"]+)"/.exec(t)?.[1]} ${/stroke-dasharray="([^"]+)"/.exec(t)?.[1] ?? "solid"}`,
      );
    // a polyline and a legend line (the last lines drawn) per planner, and the bound's
    const lines = styles("polyline");
    expect(lines).toHaveLength(algorithms.length + 1);
    expect(new Set(lines).size).toBe(algorithms.length + 1);
    expect(styles("line").slice(-(algorithms.length + 1))).toEqual(lines);
  });
});

describe("compareHtml", () => {
  it("is one well-formed page with no script and no address, holding the table, the charts and the best plan", () => {
    const m = generatePattern("pattern1", 16, {}, 1);
    const { report, run } = compareMatrix(m, { machine: t3d });
    const best = run.candidates.find((c) => c.algorithm === report.best)!;
    const sim = simulateSchedule(best.schedule, t3d, { timeline: true });
    const sw = runSweep(m, [0.5, 1, 2], { machine: t3d, planners: [findPlanner("coloring"), findPlanner("shift")] });
    const html = compareHtml(report, sw, { schedule: best.schedule, sim });
    expect(htmlProblems(html)).toEqual([]);
    expect(htmlProblems(html.replace("</table>", ""))).not.toEqual([]);
    expect(htmlProblems(html + '<a href="https://x.org">')).not.toEqual([]);
    for (const part of ["<table>", "Step grid", "Timeline", "Per-node load", "Message-size sweep", report.best!])
      expect(html).toContain(part);
    expect(html.match(/<svg/g)!.length).toBeGreaterThanOrEqual(5);
    // on the flat fabric there are no links to draw
    expect(html).not.toContain("Link load");
  });

  it("the direct (no relays) column says no for the plans that relay, two-stage among them, and is explained", () => {
    const m = generatePattern("pattern1", 16, {}, 1);
    const { report } = compareMatrix(m, {
      machine: t3d,
      planners: ["shift", "two-stage", "four-stage"].map(findPlanner),
    });
    const html = compareHtml(report, null, null);
    expect(html).toContain("<th>direct (no relays)</th>");
    expect(html).toMatch(/<p class="note">direct \(no relays\): /);
    const cell = (alg: string): string | undefined =>
      new RegExp(`<tr[^>]*><td>${alg}</td>(?:<td>[^<]*</td>)*?<td>(yes|no)</td></tr>`).exec(html)?.[1];
    expect(cell("shift")).toBe("yes");
    expect(cell("two-stage")).toBe("no");
    expect(cell("four-stage")).toBe("no");
  });

  it("a step grid shows at most 64 steps of a stage and says how many it left out", () => {
    // shift at P = 100: one stage of 99 steps (every step a row of 24 px: 99 rows made a grid of 2,440 px)
    const m = generatePattern("uniform", 100, { size: 1 }, 1);
    const { report } = compareMatrix(m, { machine: t3d, planners: [findPlanner("shift")] });
    const s = plan(m, "shift");
    const sim = simulateSchedule(s, t3d, { timeline: true });
    const html = compareHtml(report, null, { schedule: s, sim });
    const grid = /<svg[^>]*font-family="monospace"[\s\S]*?<\/svg>/.exec(html)![0];
    const stepLabels = svgTexts(grid)
      .filter((t) => t.anchor === "end" && /^\d+$/.test(t.text))
      .map((t) => Number(t.text));
    expect(stepLabels).toEqual(Array.from({ length: 64 }, (_, k) => k + 1));
    expect(html).toContain("Steps 1 .. 64 of the stage's 99 shown.");
    expect(html).toContain("Senders 0 .. 63 of 100 shown.");
  });

  it("the per-node load's labels fit left of the bars (no clipped 'max 23,892 bytes')", () => {
    const m = generatePattern("pattern1", 16, {}, 1);
    const sim = simulateSchedule(plan(m, "coloring"), t3d, { timeline: true });
    const svg = nodeLoadSvg(sim);
    const firstBar = Number(/<rect x="([\d.]+)"/.exec(svg)![1]);
    const labels = svgTexts(svg).filter((t) => t.x < firstBar);
    expect(labels.map((t) => t.text)).toContain("bytes sent");
    expect(labels.some((t) => /^max [\d,]+ bytes$/.test(t.text))).toBe(true);
    for (const t of labels) expect(t.x + 0.6 * t.size * t.text.length, t.text).toBeLessThanOrEqual(firstBar);
  });

  it("the bar chart keeps every label in the canvas: the last tick (1,000,000), long names, the bound's label", () => {
    const m = generatePattern("pattern1", 16, {}, 1);
    const { report } = compareMatrix(m, { machine: t3d });
    for (const r of [report, { ...report, best: "linear-permutation" }]) {
      const svg = compareChartSvg(r);
      const texts = svgTexts(svg).map((t) => t.text);
      expect(texts).toContain("1,000,000");
      expect(texts).toContain(`${r.best} (fastest)`);
      expect(textsOutside(svg)).toEqual([]);
    }
  });
});

describe("what your MPI does", () => {
  it("labels MPI's algorithms with the library they mirror and their time as the library runs them", () => {
    const m = generatePattern("pattern1", 8, {}, 1);
    const machine = findMachine("t3d-004");
    const { report } = compareMatrix(m, { machine, planners: ["shift", "mpi-linear", "mpi-ring"].map(findPlanner) });
    const row = (a: string) => report.rows.find((x) => x.algorithm === a)!;
    expect(row("shift").mpi).toBeNull();
    expect(row("mpi-linear").mpi!.isDefault).toBe(true);
    expect(row("mpi-ring").mpi!.isDefault).toBe(false);
    const lin = plan(m, "mpi-linear");
    expect(row("mpi-linear").mpi!.libraryUs).toBe(
      simulateSchedule(lin, machine, { mode: "nonblocking", seed: 1, timeline: false }).makespan,
    );
    expect(() => validateWithSchema("compare", report, "compare")).not.toThrow();
    const text = compareText(report);
    expect(text).toMatch(/^mpi-linear \(MPI\)/m);
    expect(text).toMatch(/what your MPI library does for MPI_Alltoallv/);
    expect(text).toMatch(/mpi-linear: SMPI default.* us as the library runs it \(MPI_Alltoallv's default\)/);
    expect(compareHtml(report, null, null)).toContain("<th>what your MPI does</th>");
  });

  it("says why a library time can be below the lower bound: the library runs nonblocking, the bound is blocking", () => {
    const m = generatePattern("pattern1", 16, {}, 1);
    const planners = ["shift", "mpi-pair", "mpi-linear"].map(findPlanner);
    const machine = findMachine("t3d-004");
    const one = compareMatrix(m, { machine, planners }).report;
    const pair = one.rows.find((x) => x.algorithm === "mpi-pair")!;
    // mpi-pair posts one message per node per round: nothing is beyond the port, only the mode differs
    expect(pair.mpi!.libraryUs).toBeLessThan(one.bound!.value);
    const nonblocking = compareMatrix(m, { machine, planners, mode: "nonblocking" }).report;
    expect(one.libraryBound).toEqual(nonblocking.bound);
    for (const x of one.rows.filter((r) => r.mpi !== null))
      expect(x.mpi!.libraryUs).toBeGreaterThanOrEqual(one.libraryBound!.value);
    expect(compareText(one)).toContain(
      "(every round posted at once, nonblocking, its messages of zero count left out, which a runtime's library mirror posts; below the lower bound above, which is for blocking runs: the " +
        "library runs nonblocking, where the lower bound is 1,020 us (pipeline-traffic)):",
    );
    expect(compareText(one)).not.toContain("posts more messages per node at once");
    // the figures docs/compare.md quotes: mpi-pair's 2,388 us against the blocking bound's 3,031 us
    expect(compareText(one)).toMatch(/^compare on t3d-004 .*: lower bound 3,031 us \(port-traffic: /);
    expect(compareText(one)).toMatch(/^ {2}mpi-pair: .*, 2,388 us as the library runs it$/m);
    expect(() => validateWithSchema("compare", one, "compare")).not.toThrow();
    // in nonblocking mode the header's bound is the library's own, and nothing is said
    expect(nonblocking.libraryBound).toBeUndefined();
    expect(compareText(nonblocking)).toContain(
      "(every round posted at once, nonblocking, its messages of zero count left out, which a runtime's library mirror posts):",
    );
  });
});

describe("the rows' bound class with several ports", () => {
  it("contentionFree is one message per node and step whatever ports: a row marked so keeps the cost model's bounds", () => {
    const m = generatePattern("uniform", 8, { size: 100 }, 1);
    const machine = findMachine("t3d-004");
    for (const ports of [1, 2, 8]) {
      const r = compareMatrix(m, {
        machine,
        ports,
        planners: ["mpi-linear", "shift", "mpi-scattered"].map(findPlanner),
      }).report;
      expect(r.rows.find((x) => x.algorithm === "mpi-linear")!.contentionFree, `ports ${ports}`).toBe(false);
      expect(r.rows.find((x) => x.algorithm === "shift")!.contentionFree, `ports ${ports}`).toBe(true);
      for (const x of r.rows.filter((row) => row.contentionFree))
        for (const b of r.bounds.filter((y) => y.target === "cost-blocking" && (y.scope === "all" || x.direct)))
          expect(x.blockingUs, `${x.algorithm} ports ${ports} ${b.name}`).toBeGreaterThanOrEqual(b.value * (1 - 1e-9));
    }
  });

  it("zero counts are no messages for every command on the simulated machine; the MPI block says the library's are left out", () => {
    // the library posts a message for every pair, zero counts included; a plan has no empty transfers, so on the
    // simulated machine (the one-port default) MPI's rows, verify and simulate all count the non-empty messages only
    const m = matrixFromRows([
      [0, 0, 2],
      [1, 0, 1],
      [1, 1, 0],
    ]);
    const machine = findMachine("t3d-004");
    const linear = plan(m, "mpi-linear");
    expect(linear.transferCount).toBe(5); // 6 pairs, one of zero count
    const { report } = compareMatrix(m, { machine, planners: [findPlanner("mpi-linear")] });
    const library = simulateSchedule(linear, machine, { mode: "nonblocking", timeline: false }).makespan;
    expect(report.rows[0]!.mpi!.libraryUs).toBeCloseTo(library, 9);
    expect(compareText(report)).toContain("nonblocking, its messages of zero count left out, which a runtime's");
    const contention = verifySchedule(m, linear).checks.find((c) => c.id === "node-contention")!;
    expect(contention.holds).toBe(false);
    expect(contention.witness).toMatch(/node 1 sends 2 messages \(to 0 and 2\)/);
  });
});
