/**
 * Memory bench: each command run as a child process of the built CLI (bin/commplan.js), its estimate found from its
 * refusals and its peak RSS measured (/usr/bin/time -f %M) at that budget. A command's estimate is the least
 * --max-memory it runs under: the bench starts at 1M, reads "needs about X" from each refusal, raises the budget to X
 * and runs again, until the command passes (each check of the command is met in turn). The peak is the run that
 * passes, less the RSS of the CLI itself (`commplan stats` of a 2 x 2 matrix): the bytes the work took, which the
 * estimate claims. The ratio is that peak over the estimate; the goal is 1/1.5 .. 1.5.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { machineInfo, mdTable, writeResults } from "./lib.js";

const BIN = join(import.meta.dirname, "..", "bin", "commplan.js");
const MIB = 2 ** 20;
/** The most refusals a row may meet before it runs (each is one check of the command). */
const MAX_STEPS = 16;

/** One run of the CLI: exit code, stderr, peak RSS (bytes). */
function cli(args: readonly string[]): { code: number; err: string; peak: number } {
  const r = spawnSync("/usr/bin/time", ["-f", "MAXRSS %M", process.execPath, BIN, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const err = r.stderr ?? "";
  const kb = Number(/MAXRSS (\d+)\s*$/.exec(err)?.[1] ?? NaN);
  return { code: r.status ?? -1, err: err.replace(/MAXRSS \d+\s*$/, ""), peak: kb * 1024 };
}

const UNIT: { [u: string]: number } = { bytes: 1, KiB: 1024, MiB: MIB, GiB: 2 ** 30 };

/** The estimate a refusal states ("needs about 384 MiB", "would need about 1.5 GiB"), or null. */
export function refusalEstimate(err: string): number | null {
  const m = /need(?:s)? about ([\d.]+) (bytes|KiB|MiB|GiB)/.exec(err);
  return m === null ? null : Number(m[1]) * UNIT[m[2]!]!;
}

/** A row of the table. */
interface Row {
  readonly command: string;
  readonly size: string;
  readonly estimate: number;
  readonly peak: number;
  readonly work: number;
  readonly ratio: number;
  readonly refusals: number;
  readonly note: string;
}

/** Runs `args` under rising budgets until it passes; its estimate (the last refusal's) and the peak of the pass. */
function measure(command: string, size: string, args: readonly string[], base: number, log: (s: string) => void): Row {
  let budget = MIB,
    estimate = 0,
    refusals = 0;
  for (let k = 0; k < MAX_STEPS; k++) {
    const r = cli([...args, "--max-memory", String(Math.ceil(budget))]);
    const need = refusalEstimate(r.err);
    if (r.code === 0 || need === null) {
      const work = Math.max(0, r.peak - base);
      const note = r.code === 0 ? "" : `exit ${r.code}: ${r.err.trim().split("\n")[0]!.slice(0, 120)}`;
      const row = {
        command,
        size,
        estimate,
        peak: r.peak,
        work,
        ratio: estimate > 0 ? work / estimate : NaN,
        refusals,
        note,
      };
      log(
        `memory: ${command} ${size}: estimate ${mib(estimate)}, peak ${mib(r.peak)} (work ${mib(work)}), ratio ${row.ratio.toFixed(2)}${note ? ` (${note})` : ""}`,
      );
      return row;
    }
    estimate = Math.max(estimate, need);
    budget = Math.max(budget * 1.01, need * 1.02);
    refusals++;
  }
  log(`memory: ${command} ${size}: still refused after ${MAX_STEPS} budgets (last estimate ${mib(estimate)})`);
  return { command, size, estimate, peak: NaN, work: NaN, ratio: NaN, refusals, note: `refused ${MAX_STEPS} times` };
}

const mib = (b: number): string => `${(b / MIB).toFixed(1)} MiB`;

/** The commands and sizes of the table (inputs made with the CLI in a temporary directory). */
export function memoryBench(log: (s: string) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "commplan-memory-bench-"));
  const f = (name: string): string => join(dir, name);
  const must = (args: readonly string[]): void => {
    const r = cli(args);
    if (r.code !== 0) throw new Error(`memory bench: commplan ${args.join(" ")} failed: ${r.err.trim()}`);
  };
  try {
    writeFileSync(
      f("tiny.json"),
      JSON.stringify({
        format: "commplan.matrix/v1",
        p: 2,
        rows: [
          [0, 1],
          [1, 0],
        ],
      }),
    );
    const base = Math.min(...[0, 1, 2].map(() => cli(["stats", f("tiny.json")]).peak));
    log(`memory: the CLI itself (stats of a 2 x 2 matrix): ${mib(base)}`);
    const rows: Row[] = [];
    for (const p of [1024, 4096]) {
      const m = f(`dense-${p}.json`),
        s = f(`shift-${p}.json`),
        prog = f(`prog-${p}.json`);
      must(["gen", "uniform", "--p", String(p), "-o", m]);
      must(["plan", m, "-a", "shift", "-o", s]);
      if (p < 4096) must(["export", s, "-f", "program", "--matrix", m, "-o", prog]);
      const size = `dense P = ${p}`;
      rows.push(measure("stats", size, ["stats", m], base, log));
      rows.push(measure("plan shift", size, ["plan", m, "-a", "shift", "-o", f("out.json")], base, log));
      rows.push(measure("verify", size, ["verify", s, "--matrix", m], base, log));
      rows.push(measure("simulate blocking", size, ["simulate", s, "--machine", "t3d-004"], base, log));
      rows.push(
        measure(
          "export -f program",
          size,
          ["export", s, "-f", "program", "--matrix", m, "-o", f("out.json")],
          base,
          log,
        ),
      );
      // a whole program of P = 4096 passes the reader's 256 MiB limit: the split row below reads it
      if (p < 4096) rows.push(measure("verify-program", size, ["verify-program", prog, "--matrix", m], base, log));
    }
    {
      const m = f("sparse.json");
      must(["gen", "halo", "--p", "80000", "--neighbours", "26", "--periodic", "1", "-o", m]);
      const size = "sparse halo P = 80000, 2.08M entries";
      rows.push(measure("stats", size, ["stats", m], base, log));
      rows.push(measure("plan coloring", size, ["plan", m, "-a", "coloring", "-o", f("col.json")], base, log));
      rows.push(
        measure(
          "export -f program",
          size,
          ["export", f("col.json"), "-f", "program", "--matrix", m, "-o", f("out.json")],
          base,
          log,
        ),
      );
    }
    {
      const p = 4096;
      const split = f("split");
      must(["export", f(`shift-${p}.json`), "-f", "program", "--matrix", f(`dense-${p}.json`), "--split", split]);
      rows.push(
        measure(
          "verify-program (split)",
          `dense P = ${p}`,
          ["verify-program", join(split, "index.json"), "--matrix", f(`dense-${p}.json`)],
          base,
          log,
        ),
      );
    }
    const json = { machine: machineInfo(), baseRss: base, goal: [1 / 1.5, 1.5], rows };
    const outside = rows.filter((r) => !(r.ratio >= 1 / 1.5 && r.ratio <= 1.5));
    const md =
      `### Memory: estimates against peak RSS\n\n` +
      `Each command runs as a child process of the built CLI under the least --max-memory it accepts (its estimate, ` +
      `found by raising the budget to what each refusal names); the peak is its maximum RSS (/usr/bin/time) less the ` +
      `CLI's own (${mib(base)}: stats of a 2 x 2 matrix). Goal: work / estimate within 1/1.5 .. 1.5. ` +
      `${outside.length} of ${rows.length} rows are outside it.\n\n` +
      mdTable(
        ["command", "input", "estimate", "peak RSS", "work (peak - CLI)", "work / estimate", "refusals met"],
        rows.map((r) => [r.command, r.size, mib(r.estimate), mib(r.peak), mib(r.work), r.ratio.toFixed(2), r.refusals]),
      ) +
      `\n${JSON.stringify(machineInfo())}\n`;
    writeResults("memory", json, md);
    return md;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
