/**
 * Program replay bench: commplan's prediction of a lowered program (`replayProgram`) against SMPI's trace replay of
 * the same export, P = 16, 64, 256, on the flat SimGrid cluster of ib-hdr-200, a fat tree at 4:1 and a dragonfly
 * (`commplan platform`), in SMPI's plain configuration and with ib-hdr-200-mpi's per-message overheads: the ratio
 * prediction / SMPI and the wall time of both (the replay's best of three runs, smpirun's one run), and SMPI's start-up
 * per P and network (smpirun with every trace empty) to split its wall time per event. This process runs every smpirun
 * first; the replays are timed after, in one child process that spawns nothing (bench/program-replay-child.ts): Node
 * forks to spawn, and a replay right after a fork faults on every page it writes (docs/simulator.md).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { lowerSchedule } from "../src/lower/index.js";
import { findMachine } from "../src/machines/presets.js";
import { findRuntimeModel, smpiConfigOf } from "../src/machines/runtime/runtime-model.js";
import type { MachineModel } from "../src/model/machine.js";
import type { Program } from "../src/model/program.js";
import {
  FIDELITY_RUNTIMES,
  fidelityMatrix,
  scheduleOf,
  smpiCase,
  smpiReplay,
  writeCase,
  type FidelityRow,
  type ReplayTiming,
  type SmpiCaseResult,
} from "../runtimes/test/program-replay.js";
import {
  caseProgram,
  networksOf,
  plannersOf,
  PS,
  VARIANTS,
  WARM_UP_REPLAYS,
  type ReplayCase,
} from "./program-replay-cases.js";
import { machineInfo, mdTable, writeResults } from "./lib.js";

/** The agreement the contract asks for. */
const TARGET = 0.1;
/** The environment variable that runs a subset of the cases and records nothing, e.g. "16 64@dragonfly". */
const SUBSET_VARIABLE = "PROGRAM_REPLAY_SUBSET";

interface Row extends FidelityRow {
  readonly p: number;
  readonly network: string;
  readonly runtime: string;
  readonly schedule: string;
  readonly variant: string;
  /** prediction / SMPI. */
  readonly ratio: number;
  /** SMPI's wall time / the replay's. */
  readonly speedup: number;
  /** smpirun's wall time on the same platform with every rank's trace empty (ms). */
  readonly smpiStartupMs: number;
}

/**
 * SMPI's start-up on `network` for `prog.p` ranks: smpirun's wall time (least of two) on the platform of `prog` with
 * every rank's trace reduced to init and finalize (parsing the platform, routing, starting the actors).
 */
function smpiStartupMs(root: string, prog: Program, machine: MachineModel, network: string): number {
  const dir = mkdtempSync(join(root, "startup-"));
  try {
    writeCase(prog, machine, network, dir);
    for (let r = 0; r < prog.p; r++) writeFileSync(join(dir, `rank-${r}.txt`), `${r} init\n${r} finalize\n`);
    const cfg = smpiConfigOf(findRuntimeModel("smpi"), machine).cfg;
    return Math.min(smpiReplay(dir, prog.p, cfg).wallMs, smpiReplay(dir, prog.p, cfg).wallMs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The (P, network) pairs to run: every one of the bench, or those `subset` names ("16 64@dragonfly"). */
export function casePairs(subset: string | undefined): { p: number; network: string }[] | string {
  const all = PS.flatMap((p) => networksOf(p).map((network) => ({ p, network })));
  if (subset === undefined || subset.trim() === "") return all;
  const picked: { p: number; network: string }[] = [];
  for (const item of subset.trim().split(/\s+/)) {
    const [p, network] = item.split("@") as [string, string | undefined];
    const match = all.filter((x) => String(x.p) === p && (network === undefined || x.network.startsWith(network)));
    if (match.length === 0)
      return `${SUBSET_VARIABLE}: '${item}' names no case (P of ${PS.join(", ")}, optionally @network: ${networksOf(PS[0]!).join(", ")})`;
    picked.push(...match.filter((x) => !picked.includes(x)));
  }
  return picked;
}

/** Every case of the (P, network) pairs, in the bench's order. */
function casesOf(pairs: readonly { p: number; network: string }[]): ReplayCase[] {
  return pairs.flatMap(({ p, network }) =>
    plannersOf(p).flatMap((schedule) =>
      VARIANTS.flatMap((variant) =>
        FIDELITY_RUNTIMES.map((runtime) => ({
          label: `P=${p} ${network} ${runtime} ${schedule} ${variant}`,
          p,
          network,
          runtime,
          schedule,
          variant,
        })),
      ),
    ),
  );
}

/**
 * Times every case's replays in one child process that spawns nothing (bench/program-replay-child.ts): this process
 * ran smpirun, and a replay after a fork faults on every page it writes.
 */
function timeInChild(cases: readonly ReplayCase[]): ReplayTiming[] | string {
  // the child times the build's replay (dist/, what commplan simulate runs): built now, so that it is this checkout's
  const build = spawnSync("npm", ["run", "build"], { cwd: join(import.meta.dirname, ".."), encoding: "utf8" });
  if (build.status !== 0) return `npm run build failed (exit ${build.status}): ${(build.stderr ?? "").trim()}`;
  const child = join(import.meta.dirname, "program-replay-child.ts");
  const r = spawnSync(process.execPath, ["--import", "tsx", child], {
    input: JSON.stringify(cases),
    encoding: "utf8",
    maxBuffer: 1 << 26,
    stdio: ["pipe", "pipe", "inherit"],
  });
  if (r.error !== undefined) return `cannot run the replay process: ${r.error.message}`;
  if (r.status !== 0) return `the replay process exited with ${r.status}`;
  const out = JSON.parse(r.stdout.trim().split("\n").pop()!) as ReplayTiming[];
  return out.length === cases.length ? out : `the replay process timed ${out.length} of ${cases.length} cases`;
}

/**
 * Runs the cases: every smpirun (and SMPI's start-up per P and network) in this process first, then the replays in one
 * child process; a one-line skip when smpirun is not installed (the recorded results are then kept). With
 * PROGRAM_REPLAY_SUBSET set (e.g. "16 64@dragonfly"), only those P and networks, and nothing is recorded.
 */
export function programReplayBench(log: (s: string) => void): string {
  if (spawnSync("sh", ["-c", "command -v smpirun"]).status !== 0) {
    const skip = "program-replay: skipped: smpirun is not installed (Debian: libsimgrid-dev); results not rewritten\n";
    log(skip.trimEnd());
    return skip;
  }
  const subset = process.env[SUBSET_VARIABLE];
  const pairs = casePairs(subset);
  if (typeof pairs === "string") {
    log(`program-replay: ${pairs}`);
    return `program-replay: ${pairs}\n`;
  }
  const machine = findMachine("ib-hdr-200");
  const root = mkdtempSync(join(tmpdir(), "commplan-bench-replay-"));
  const cases = casesOf(pairs);
  const smpi: (SmpiCaseResult & { startupMs: number })[] = [];
  const t0 = Date.now(),
    load0 = loadavg()[0]!;
  try {
    for (const { p, network } of pairs) {
      const m = fidelityMatrix(p, 256);
      const startupMs = smpiStartupMs(root, lowerSchedule(m, scheduleOf(m, "linear")).program, machine, network);
      for (const c of cases.filter((x) => x.p === p && x.network === network)) {
        const { routes: _, ...s } = smpiCase(
          root,
          caseProgram(p, c.schedule, c.variant),
          machine,
          network,
          findRuntimeModel(c.runtime),
        );
        smpi.push({ ...s, startupMs });
        log(
          `program-replay: ${c.label}: ${s.problem || `SMPI ${s.smpiUs.toFixed(2)} us`} (wall ${s.smpiWallMs.toFixed(0)} ms)`,
        );
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const timed = timeInChild(cases);
  if (typeof timed === "string") {
    log(`program-replay: ${timed}; results not rewritten`);
    return `program-replay: ${timed}\n`;
  }
  const rows = cases.map((c, i): Row => {
    const s = smpi[i]!,
      r = timed[i]!;
    const row: Row = {
      label: c.label,
      smpiUs: s.smpiUs,
      smpiWallMs: s.smpiWallMs,
      problem: s.problem,
      ...r,
      p: c.p,
      network: c.network,
      runtime: c.runtime,
      schedule: c.schedule,
      variant: c.variant,
      ratio: r.predictedUs / s.smpiUs,
      speedup: s.smpiWallMs / r.replayWallMs,
      smpiStartupMs: s.startupMs,
    };
    log(
      `program-replay: ${c.label}: ${s.problem || `SMPI ${s.smpiUs.toFixed(2)} us, predicted ${r.predictedUs.toFixed(2)} us`} ` +
        `(ratio ${row.ratio.toFixed(5)}; wall ${s.smpiWallMs.toFixed(0)} ms / ${r.replayWallMs.toFixed(1)} ms)`,
    );
    return row;
  });
  return report(rows, (Date.now() - t0) / 1000, [load0, loadavg()[0]!], subset === undefined || subset.trim() === "");
}

function report(rows: readonly Row[], seconds: number, load: readonly number[], record: boolean): string {
  const ok = rows.filter((r) => r.problem === "");
  const dev = ok.map((r) => Math.abs(r.ratio - 1)).sort((a, b) => a - b);
  const within = (x: number): number => dev.filter((d) => d <= x).length;
  const speed = ok.map((r) => r.speedup).sort((a, b) => a - b);
  const median = (xs: readonly number[]): number =>
    xs.length === 0 ? NaN : xs.length % 2 ? xs[xs.length >> 1]! : (xs[(xs.length >> 1) - 1]! + xs[xs.length >> 1]!) / 2;
  const groups = new Map<string, Row[]>();
  for (const r of ok) {
    const k = `${r.p}|${r.network}|${r.runtime}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const table = mdTable(
    ["P", "network", "runtime", "cases", "largest deviation", "mean deviation", "speed-up min", "speed-up median"],
    [...groups.values()].map((g) => {
      const d = g.map((r) => Math.abs(r.ratio - 1));
      const s = g.map((r) => r.speedup).sort((a, b) => a - b);
      return [
        g[0]!.p,
        g[0]!.network,
        g[0]!.runtime,
        g.length,
        `${(100 * Math.max(...d)).toFixed(3)} %`,
        `${((100 * d.reduce((a, b) => a + b, 0)) / d.length).toFixed(3)} %`,
        `${s[0]!.toFixed(1)}x`,
        `${median(s).toFixed(1)}x`,
      ];
    }),
  );
  const slowest = [...ok].sort((a, b) => a.speedup - b.speedup).slice(0, 5);
  const md =
    `## program-replay\n\n` +
    `commplan's program replay (\`simulate --program\`, \`replayProgram\`) against SMPI 3.32's trace replay of the same ` +
    `\`export --format simgrid\` (CM02 flags of docs/runtimes.md), machine ib-hdr-200; programs of the "linear" schedule ` +
    `(every message in one round) and of planners, both variants, on 003's test set 2 with 256-byte elements; runtime ` +
    `smpi (no overheads) and ib-hdr-200-mpi (smpi/os, smpi/ois, smpi/or = 0.3 us). Wall time: smpirun's one run ` +
    `against the replay's best of three (its CPU time, user + system, the least of the same three): the replay of the ` +
    `build (dist/, which \`commplan simulate\` runs, built by the bench first), timed in one Node ` +
    `process that spawns nothing, after ${WARM_UP_REPLAYS} warm-up replays of each P = ${PS[0]} program on each network ` +
    `and runtime: every smpirun runs first, in the bench's own process, since Node forks to spawn and a replay right ` +
    `after a fork faults on every page it writes (copy-on-write; docs/simulator.md). Run on a 2-core machine shared with ` +
    `other jobs (load average ` +
    `${load.map((x) => x.toFixed(1)).join(" at the start, ")} at the end). ${rows.length} cases in ` +
    `${seconds.toFixed(0)} s.\n\n` +
    `- ${ok.length} of ${rows.length} SMPI runs completed; within 10 %: ${within(TARGET)}, within 2 %: ${within(0.02)}, ` +
    `within 0.1 %: ${within(0.001)}; largest deviation ${(100 * (dev[dev.length - 1] ?? NaN)).toFixed(3)} %.\n` +
    `- Speed-up (SMPI wall / replay wall): min ${(speed[0] ?? NaN).toFixed(1)}x, median ${median(speed).toFixed(1)}x; ` +
    `at least 10x in ${speed.filter((x) => x >= 10).length} of ${speed.length} cases.\n\n` +
    table +
    `\nSlowest replays relative to SMPI; SMPI's start-up is smpirun on the same platform with every rank's trace ` +
    `empty, its cost per event what its wall time adds to that, per replay event (a message's start or end, a CPU ` +
    `job):\n\n` +
    mdTable(
      [
        "case",
        "SMPI wall (ms)",
        "SMPI start-up (ms)",
        "replay wall (ms)",
        "replay CPU (ms)",
        "speed-up",
        "events",
        "SMPI us/event",
        "replay us/event",
      ],
      slowest.map((r) => [
        r.label,
        r.smpiWallMs.toFixed(0),
        r.smpiStartupMs.toFixed(0),
        r.replayWallMs.toFixed(1),
        r.replayCpuMs.toFixed(1),
        `${r.speedup.toFixed(1)}x`,
        r.replayEvents,
        ((1000 * (r.smpiWallMs - r.smpiStartupMs)) / r.replayEvents).toFixed(2),
        ((1000 * r.replayWallMs) / r.replayEvents).toFixed(2),
      ]),
    );
  if (record) writeResults("program-replay", { machine: machineInfo(), seconds, rows }, md);
  return md;
}
