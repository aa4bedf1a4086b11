import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import type { CliIo } from "../../src/cli/io.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TE_DOCS_END, TE_DOCS_START, totalExchangeMarkdown } from "../../bench/total-exchange.js";
import {
  checkOffline,
  compareDirect,
  meanSd,
  PAPER_TE_TABLE,
  paperRow,
  paperText,
  runTeTable,
  teTableViolations,
  type TeTableCell,
  type TeTableResult,
} from "../../src/experiments/index.js";

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  return runWith(false, ...argv);
}

async function runWith(interactive: boolean, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "",
    err = "";
  const io: CliIo = { out: (t) => void (out += t), err: (t) => void (err += t), interactive };
  const code = await main(argv, io);
  return { code, out, err };
}

describe("001 sec 4 table (transcription)", () => {
  it("has 35 rows and every printed rounds / time/h pair satisfies time/h = rounds * N / h to rounding", () => {
    expect(PAPER_TE_TABLE).toHaveLength(35);
    let pairs = 0;
    for (const r of PAPER_TE_TABLE) {
      for (const [rounds, t, fields] of [
        [r.oursRounds, r.oursTimePerH, ["oursRounds", "oursTimePerH"]],
        [r.directRounds, r.directTimePerH, ["directRounds", "directTimePerH"]],
      ] as const) {
        if (rounds === null || t === null || fields.some((x) => r.derived.includes(x))) continue;
        pairs++;
        expect(Math.abs(rounds / r.hOverN - t)).toBeLessThanOrEqual(0.011);
      }
    }
    expect(pairs).toBe(63);
  });

  it("derives the four numbers the text lost but their partner column kept; N = 1024, 10N stays lost", () => {
    const derived = PAPER_TE_TABLE.filter((r) => r.derived.length > 0).map((r) => [r.n, r.hOverN, r.derived.join(",")]);
    expect(derived).toEqual([
      [128, 8, "directRounds"],
      [512, 50, "oursRounds"],
      [1024, 8, "directTimePerH"],
      [1024, 32, "directRounds"],
    ]);
    expect(paperRow(128, 8)!.directRounds).toBe(21.6);
    expect(paperRow(512, 50)!.oursRounds).toBe(57.0);
    expect(paperRow(1024, 8)!.directTimePerH).toBe(3.11);
    expect(paperRow(1024, 32)!.directRounds).toBe(62.7);
    expect(paperRow(1024, 10)).toMatchObject({
      oursRounds: null,
      oursTimePerH: null,
      directRounds: null,
      directTimePerH: null,
    });
    expect(paperRow(1024, 16)).toMatchObject({ directRounds: null, directTimePerH: null, oursRounds: 21.7 });
    expect(paperText(paperRow(512, 50)!, "oursRounds", 1)).toBe("57.0*");
    expect(paperText(paperRow(512, 50)!, "directRounds", 1)).toBe("84.9");
  });
});

describe("runTeTable statistics and checks", () => {
  it("records per-seed rounds, sd and standard error; te-offline's seeds at the relay bound", () => {
    const [c] = runTeTable({ ns: [16], hOverNs: [4], seeds: 5 });
    const d = c!.results["te-direct"]!;
    expect(d.rounds).toHaveLength(5);
    expect(d.meanRounds).toBeCloseTo(d.rounds.reduce((a, b) => a + b, 0) / 5, 12);
    const sd = Math.sqrt(d.rounds.reduce((a, x) => a + (x - d.meanRounds) ** 2, 0) / 4);
    expect(d.sdRounds).toBeCloseTo(sd, 12);
    expect(d.seRounds).toBeCloseTo(sd / Math.sqrt(5), 12);
    expect(c!.meanRelayBound).toBeGreaterThanOrEqual(c!.meanLowerBound);
    expect(c!.results["te-offline"]!.atRelayBound).toBe(5);
    expect(c!.directModel.mean).toBeGreaterThan(c!.meanLowerBound);
  });

  const cell = (
    direct: number[],
    offlineWorst: number,
    overLb: number,
    paper: { directRounds: number | null; oursRounds: number | null },
  ): TeTableCell => {
    const res = (rounds: number[], over: number): TeTableResult => {
      const { mean, sd } = meanSd(rounds);
      return {
        meanRounds: mean,
        minRounds: Math.min(...rounds),
        maxRounds: Math.max(...rounds),
        sdRounds: sd,
        seRounds: sd / Math.sqrt(rounds.length),
        rounds,
        timePerH: 0,
        maxOverLowerBound: over,
        atRelayBound: 0,
      };
    };
    return {
      n: 64,
      hOverN: 10,
      h: 640,
      seeds: direct.length,
      meanLowerBound: 11,
      meanRelayBound: 11,
      directModel: { mean: 23.1, sd: 1.4 },
      paper: {
        n: 64,
        hOverN: 10,
        oursRounds: paper.oursRounds,
        oursTimePerH: null,
        directRounds: paper.directRounds,
        directTimePerH: null,
        derived: [],
      },
      results: { "te-direct": res(direct, 12), "te-offline": res([offlineWorst], overLb) },
    };
  };

  it("te-direct within noise means |mean - paper| <= 3 SE, SE = max(sample SE, model sd / sqrt K); the paper's place among the seeds is reported", () => {
    const inside = compareDirect(cell([22, 23, 24, 23], 11, 0, { directRounds: 23.5, oursRounds: 14 }))!;
    expect(inside.withinNoise).toBe(true);
    expect(inside.paperAmongSeeds).toBe("inside");
    // sample SE 0.29 is below the model's 1.4 / sqrt(4) = 0.7, so 0.7 is used
    const out = compareDirect(cell([26, 27, 26, 27], 11, 0, { directRounds: 23.8, oursRounds: 14 }))!;
    expect(out.se).toBeCloseTo(Math.sqrt(1 / 3) / 2, 10);
    expect(out.noiseSe).toBeCloseTo(0.7, 10);
    expect(out.z).toBeCloseTo((26.5 - 23.8) / 0.7, 10);
    expect(out.withinNoise).toBe(false);
    expect(out.paperAmongSeeds).toBe("below all");
    // a sample SE above the model's is used as it is
    const wide = compareDirect(cell([20, 30, 20, 30], 11, 0, { directRounds: 23.8, oursRounds: 14 }))!;
    expect(wide.noiseSe).toBeCloseTo(wide.se, 12);
    expect(wide.se).toBeGreaterThan(0.7);
    // seeds that agree: the model's SE keeps z finite (it was Infinity with the sample SE of 0)
    const flat = compareDirect(cell([24, 24], 11, 0, { directRounds: 23.8, oursRounds: 14 }))!;
    expect(flat.noiseSe).toBeCloseTo(1.4 / Math.sqrt(2), 10);
    expect(flat.z).toBeCloseTo(0.2 / (1.4 / Math.sqrt(2)), 10);
    expect(flat.withinNoise).toBe(true);
    // one seed says nothing about the noise
    const one = compareDirect(cell([30], 11, 0, { directRounds: 23.8, oursRounds: 14 }))!;
    expect(one).toMatchObject({ noiseSe: null, z: null, withinNoise: null });
    expect(compareDirect(cell([24, 24], 11, 0, { directRounds: null, oursRounds: 14 }))!.withinNoise).toBeNull();
  });

  it("violations: te-offline's worst seed not below the paper's protocol, or above lower bound + 2", () => {
    expect(teTableViolations([cell([23], 11, 0, { directRounds: 23.8, oursRounds: 14.4 })])).toEqual([]);
    expect(teTableViolations([cell([23], 15, 0, { directRounds: 23.8, oursRounds: 14.4 })])).toEqual([
      "N = 64, h = 10N: te-offline's worst seed takes 15 rounds, not below the paper's 14.4",
    ]);
    expect(teTableViolations([cell([23], 14, 3, { directRounds: 23.8, oursRounds: null })])[0]).toMatch(
      /lower bound \+ 3 rounds on some seed/,
    );
    expect(checkOffline(cell([23], 11, 0, { directRounds: null, oursRounds: null }))).toMatchObject({
      belowPaper: null,
      atLowerBoundEverySeed: true,
    });
    // the bench's markdown names missed goals and cells outside the noise
    const md = totalExchangeMarkdown([cell([26, 27, 26, 27], 15, 0, { directRounds: 23.8, oursRounds: 14.4 })], []);
    expect(md).toMatch(/MISSED: N = 64, h = 10N: te-offline's worst seed takes 15 rounds/);
    expect(md).toMatch(/Outside the noise: N = 64, h = 10N \(26\.5 vs 23\.8/);
  });
});

describe("docs/algorithms/total-exchange.md", () => {
  it("its results block is bench/results/total-exchange.md (written by the bench, so the two cannot drift)", () => {
    const root = join(import.meta.dirname, "..", "..");
    const doc = readFileSync(join(root, "docs", "algorithms", "total-exchange.md"), "utf8");
    const a = doc.indexOf(TE_DOCS_START),
      b = doc.indexOf(TE_DOCS_END);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(a);
    expect(doc.slice(a + TE_DOCS_START.length + 1, b)).toBe(
      readFileSync(join(root, "bench", "results", "total-exchange.md"), "utf8"),
    );
  });
});

describe("commplan te-table", () => {
  it("prints the paper's columns beside ours on a small filter, progress on a terminal's stderr only", async () => {
    expect((await run("te-table", "--n", "64", "--h", "4N", "--seeds", "1")).err).toBe("");
    const r = await runWith(true, "te-table", "--n", "64", "--h", "4N", "--seeds", "2");
    expect(r.code).toBe(0);
    const line = r.out.split("\n").find((l) => l.startsWith("64 "))!;
    expect(line).toBeDefined();
    const cols = line.trim().split(/\s+/);
    expect(cols.slice(0, 6)).toEqual(["64", "4N", "8.0", "2.00", "12.7", "3.18"]);
    // te-offline (last two columns) needs fewer rounds than the paper's protocol
    expect(Number(cols[cols.length - 2])).toBeLessThan(8);
    expect(r.err).toMatch(/N = 64, h = 4N, seed 2\/2/);
    // the check tables: te-direct against the paper (mean, sd, SE, difference in SEs), te-offline against the bounds
    const direct = r.out.split("\n").find((l) => /^64\s+4N\s+2\s+12\.7\s/.test(l))!;
    expect(direct).toBeDefined();
    expect(direct.split(/\s+/)[11]).toMatch(/^(yes|NO)$/);
    expect(r.out).toMatch(/te-offline against the paper's protocol and the lower bounds/);
    expect(r.out).not.toMatch(/goal missed/);
  });

  it("one seed, or seeds that agree: '-' or a finite z from the model's SE, never inf (issue 6 review)", async () => {
    const one = await run("te-table", "--seeds", "1", "--n", "64", "--h", "4,8,10");
    expect(one.code).toBe(0);
    expect(one.out).not.toMatch(/inf|\bNO\b/);
    const section = one.out.slice(one.out.indexOf("te-direct against"), one.out.indexOf("te-offline against"));
    const rows = section
      .split("\n")
      .filter((l) => /^64\s+(4|8|10)N\s+1\s+\d/.test(l))
      .map((l) => l.trim().split(/\s+/));
    expect(rows).toHaveLength(3);
    for (const r of rows) expect([r[5], r[6], r[7], r[10], r[11]]).toEqual(["-", "-", "-", "-", "-"]);
    const j = JSON.parse((await run("te-table", "--seeds", "1", "--n", "64", "--h", "4", "--json")).out) as {
      checks: { direct: { z: unknown; withinNoise: unknown }[] };
    };
    expect(j.checks.direct[0]).toMatchObject({ z: null, withinNoise: null });
  });

  it("--json gives the cells with mean rounds per protocol, equal to the library's", async () => {
    const r = await run("te-table", "--n", "16,20", "--h", "4,8N", "--seeds", "2", "--json");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as {
      format: string;
      cells: { n: number; hOverN: number; results: Record<string, { meanRounds: number }> }[];
    };
    expect(j.format).toBe("commplan.te-table/v1");
    expect(j.cells.map((c) => [c.n, c.hOverN])).toEqual([
      [16, 4],
      [16, 8],
      [20, 4],
      [20, 8],
    ]);
    const lib = runTeTable({ ns: [16, 20], hOverNs: [4, 8], seeds: 2 });
    expect(j.cells.map((c) => c.results["te-offline"]!.meanRounds)).toEqual(
      lib.map((c) => c.results["te-offline"]!.meanRounds),
    );
    for (const c of lib)
      expect(c.results["te-offline"]!.meanRounds).toBeLessThanOrEqual(c.results["te-direct"]!.meanRounds);
    const checks = (JSON.parse(r.out) as { checks: { direct: { paper: number | null }[]; violations: string[] } })
      .checks;
    expect(checks.direct).toHaveLength(4);
    expect(checks.direct[0]!.paper).toBeNull();
    expect(checks.violations).toEqual([]);
  });

  it("bad filters exit 2 with a message naming the option", async () => {
    for (const [args, re] of [
      [["--n", "1"], /^te-table: --nodes \(--n\) must be an integer in 2\.\.4096, got '1'$/m],
      [["--nodes", "1"], /^te-table: --nodes \(--n\) must be an integer in 2\.\.4096, got '1'$/m],
      [["--h-over-n", "x"], /^te-table: --h-over-n \(--h\) takes integers in 1\.\.1024, each bare or followed by N/],
      [["--seeds", "0"], /--seeds/],
      [["--nodes", ""], /--nodes \(--n\) needs at least one value/],
      [["--n", "64,4096", "--h", "4,1024"], /N = 4096, h = 1024N is \d+ packets/],
    ] as const) {
      const r = await run("te-table", ...args);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(re);
    }
  });
});
