/**
 * Auto on a runtime: `planAuto` with `runtime` (every finalist's lowered programs replayed as the MPI runtime runs
 * them), as it runs (finalists whose lower bound cannot win are not replayed: runtime-bound.ts) against `exhaustive`
 * (every finalist and program variant replayed), on the same matrices in one process: the time each takes, the
 * finalists each replays, and that both pick the same plan.
 */
import { planAuto } from "../src/auto/index.js";
import { findMachine } from "../src/machines/presets.js";
import { withElementBytes, type CommMatrix } from "../src/model/matrix.js";
import { generatePattern } from "../src/patterns/index.js";
import { machineInfo, mdTable, writeResults } from "./lib.js";
import { elementBytesFor, messageElements } from "./vs-mpi-case.js";
import { VS_MPI_PATTERN_OPTIONS } from "./vs-mpi-config.js";

/** The cases: workloads of the vs-MPI bench at its small message size (about 1 KiB), on two runtimes. */
const CASES: readonly { workload: string; p: number; runtime: string }[] = [
  ...["moe", "uniform", "h-relation"].flatMap((workload) =>
    [64, 256].map((p) => ({ workload, p, runtime: "ib-hdr-200-mpi" })),
  ),
  { workload: "moe", p: 256, runtime: "smpi" },
];

interface Row {
  workload: string;
  p: number;
  runtime: string;
  finalists: number;
  /** Finalists replayed (a time in the report) as auto runs, and with exhaustive. */
  replayed: number;
  replayedExhaustive: number;
  wallMs: number;
  cpuMs: number;
  exhaustiveWallMs: number;
  exhaustiveCpuMs: number;
  winner: string;
  sameWinner: boolean;
}

/** The workload's matrix (seed 1, the vs-MPI bench's options) with elements sized for a mean message of about 1 KiB. */
function smallMatrix(workload: string, p: number): CommMatrix {
  const m = generatePattern(workload, p, VS_MPI_PATTERN_OPTIONS[workload] ?? {}, 1);
  return withElementBytes(m, elementBytesFor(messageElements(m).meanElements, "small"));
}

/** One timed planAuto run: its wall and CPU time (user + system) and its report. */
function timed(f: () => ReturnType<typeof planAuto>): {
  wallMs: number;
  cpuMs: number;
  result: ReturnType<typeof planAuto>;
} {
  const t0 = performance.now(),
    c0 = process.cpuUsage();
  const result = f();
  const c = process.cpuUsage(c0);
  return { wallMs: performance.now() - t0, cpuMs: (c.user + c.system) / 1000, result };
}

/** Runs the cases (one run each way, the pruned one first) and writes bench/results/auto-runtime.{json,md}. */
export function autoRuntimeBench(log: (s: string) => void): string {
  const machine = findMachine("ib-hdr-200");
  const load0 = machineInfo().loadavg;
  const rows: Row[] = [];
  // one small run first: the modules' code compiled before the first timed case
  planAuto(smallMatrix("moe", 16), machine, { runtime: "ib-hdr-200-mpi" });
  for (const c of CASES) {
    const m = smallMatrix(c.workload, c.p);
    const pruned = timed(() => planAuto(m, machine, { runtime: c.runtime }));
    const all = timed(() => planAuto(m, machine, { runtime: c.runtime, exhaustive: true }));
    const finalists = pruned.result.report.candidates.filter(
      (x) => x.note.startsWith("finalist") || x.note === "winner",
    );
    const replayed = (r: typeof pruned): number =>
      r.result.report.candidates.filter((x) => x.simulated !== null).length;
    const winnerOf = (r: typeof pruned): string => {
      const w = r.result.report.candidates.find((x) => x.note === "winner")!;
      return Object.keys(w.params).length === 0 ? w.algorithm : `${w.algorithm} ${JSON.stringify(w.params)}`;
    };
    const row: Row = {
      ...c,
      finalists: finalists.length,
      replayed: replayed(pruned),
      replayedExhaustive: replayed(all),
      wallMs: pruned.wallMs,
      cpuMs: pruned.cpuMs,
      exhaustiveWallMs: all.wallMs,
      exhaustiveCpuMs: all.cpuMs,
      winner: winnerOf(pruned),
      sameWinner: winnerOf(pruned) === winnerOf(all),
    };
    rows.push(row);
    log(
      `auto-runtime: ${c.workload} P=${c.p} ${c.runtime}: ${row.winner}, ${row.replayed} of ${row.finalists} replayed in ` +
        `${(row.cpuMs / 1000).toFixed(1)} s of CPU, exhaustive ${row.replayedExhaustive} in ${(row.exhaustiveCpuMs / 1000).toFixed(1)} s`,
    );
  }
  const info = machineInfo();
  const s = (ms: number): string => (ms / 1000).toFixed(1);
  const md =
    `### Auto on a runtime: the finalists' bounds against replaying every one\n\n` +
    `\`planAuto(m, ib-hdr-200, { runtime })\` as it runs (a finalist whose lower bound, runtime-bound.ts, exceeds the best time replayed so far is not replayed, nor a nonblocking program whose rounds' bound exceeds its dataflow time) against \`exhaustive: true\` (every finalist and both program variants replayed), on the same matrix, one run each in one process, the pruned run first. Matrices: the vs-MPI bench's workloads (seed 1, its options) with elements sized for a mean message of about 1 KiB (its "small"); runtime ib-hdr-200-mpi (per-message overheads) or smpi (none). Replayed = finalists with a time in the report. CPU = user + system of the process. Load average at the start: ${load0.map((x) => x.toFixed(1)).join(", ")}; at the end: ${info.loadavg.map((x) => x.toFixed(1)).join(", ")} (${info.cpus} cores, shared).\n\n` +
    mdTable(
      [
        "workload",
        "P",
        "runtime",
        "winner",
        "finalists",
        "replayed",
        "CPU s",
        "wall s",
        "exhaustive: replayed",
        "CPU s",
        "wall s",
        "CPU saved",
        "same winner",
      ],
      rows.map((r) => [
        r.workload,
        r.p,
        r.runtime,
        r.winner,
        r.finalists,
        r.replayed,
        s(r.cpuMs),
        s(r.wallMs),
        r.replayedExhaustive,
        s(r.exhaustiveCpuMs),
        s(r.exhaustiveWallMs),
        `${(r.exhaustiveCpuMs / r.cpuMs).toFixed(1)} x`,
        r.sameWinner ? "yes" : "**no**",
      ]),
    ) +
    `\n\nThe same winner in ${rows.filter((r) => r.sameWinner).length} of ${rows.length} cases; the bounds saved ` +
    `${Math.min(...rows.map((r) => r.exhaustiveCpuMs / r.cpuMs)).toFixed(1)} to ` +
    `${Math.max(...rows.map((r) => r.exhaustiveCpuMs / r.cpuMs)).toFixed(1)} x of the CPU time.\n`;
  writeResults("auto-runtime", { machine: info, rows }, md);
  return md;
}
