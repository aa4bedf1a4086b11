import { describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import type { CliIo } from "../../../src/cli/io.js";
import { PAPER_TE_TABLE, runTeTable } from "../../../src/planner/total-exchange/index.js";

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  return runWith(false, ...argv);
}

async function runWith(interactive: boolean, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "", err = "";
  const io: CliIo = { out: (t) => void (out += t), err: (t) => void (err += t), interactive };
  const code = await main(argv, io);
  return { code, out, err };
}

describe("001 sec 4 table (transcription)", () => {
  it("has 35 rows and every printed rounds / time/h pair satisfies time/h = rounds * N / h to rounding", () => {
    expect(PAPER_TE_TABLE).toHaveLength(35);
    let pairs = 0;
    for (const r of PAPER_TE_TABLE) {
      for (const [rounds, t] of [[r.oursRounds, r.oursTimePerH], [r.directRounds, r.directTimePerH]] as const) {
        if (rounds === null || t === null) continue;
        pairs++;
        expect(Math.abs(rounds / r.hOverN - t)).toBeLessThanOrEqual(0.011);
      }
    }
    expect(pairs).toBeGreaterThan(28);
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
  });

  it("--json gives the cells with mean rounds per protocol, equal to the library's", async () => {
    const r = await run("te-table", "--n", "16,20", "--h", "4,8N", "--seeds", "2", "--json");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { format: string; cells: { n: number; hOverN: number; results: Record<string, { meanRounds: number }> }[] };
    expect(j.format).toBe("commplan.te-table/v1");
    expect(j.cells.map((c) => [c.n, c.hOverN])).toEqual([[16, 4], [16, 8], [20, 4], [20, 8]]);
    const lib = runTeTable({ ns: [16, 20], hOverNs: [4, 8], seeds: 2 });
    expect(j.cells.map((c) => c.results["te-offline"]!.meanRounds)).toEqual(lib.map((c) => c.results["te-offline"]!.meanRounds));
    for (const c of lib) expect(c.results["te-offline"]!.meanRounds).toBeLessThanOrEqual(c.results["te-direct"]!.meanRounds);
  });

  it("bad filters exit 2 with a message naming the option", async () => {
    for (const [args, re] of [[["--n", "1"], /--n must be an integer in 2\.\.4096/], [["--h", "x"], /--h must be an integer/], [["--seeds", "0"], /--seeds/], [["--n", ""], /--n needs at least one value/], [["--n", "64,4096", "--h", "4,1024"], /N = 4096, h = 1024N is \d+ packets/]] as const) {
      const r = await run("te-table", ...args);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(re);
    }
  });
});
