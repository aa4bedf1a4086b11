/**
 * What the vs-MPI bench can use, found at run time from the built CLI (dist/) and the planner registry, so that new
 * lowering variants, the program replay, MPI's algorithms as planners and machine presets with an SMPI configuration
 * are picked up without editing the bench.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PLANNERS } from "../src/planner/registry.js";
import type { Planner } from "../src/planner/types.js";
import { SMPI_ALLTOALLV, SMPI_OVERHEAD_FALLBACK, SMPI_PLAIN } from "./vs-mpi-config.js";

/** The CLI entry the bench spawns (needs `npx tsc -p tsconfig.build.json`). */
export const CLI = join(import.meta.dirname, "..", "bin", "commplan.js");

/** What this checkout offers the bench. */
export interface VsMpiCapabilities {
  /** `commplan export --variant dataflow` exists. */
  readonly dataflow: boolean;
  /** The `commplan simulate` option that replays a lowered program (e.g. `--program`), or null. */
  readonly programReplay: string | null;
  /**
   * SMPI algorithm name -> the commplan planner that mirrors it (the one whose `traits.mpi.smpi` lists the name), where
   * one does; the others are SMPI_UNMIRRORED's.
   */
  readonly mpiPlanners: Readonly<Record<string, string>>;
  /**
   * The per-message overhead configuration: its name, smpirun flags, and the runtime model that reproduces it
   * (`plan --runtime`, `simulate --program --runtime`), null when no preset provides one.
   */
  readonly overheads: { readonly name: string; readonly flags: readonly string[]; readonly runtime: string | null };
  /** `plan --algorithm auto --runtime` exists: auto plans for the runtime. */
  readonly autoRuntime: boolean;
}

/** Runs the CLI synchronously; returns stdout. */
export function cliSync(args: readonly string[]): string {
  return execFileSync(process.execPath, [CLI, ...args], { encoding: "utf8", maxBuffer: 1 << 26 });
}

/**
 * SMPI algorithms of the bench that no planner mirrors, and why: their SMPI time has messages no plan has, so the
 * bench measures them but predicts none of them.
 */
export const SMPI_UNMIRRORED: Readonly<Record<string, string>> = {
  impi:
    "its first call on a communicator runs SMPI's init_smp (two ring allgathers and a broadcast) before Intel MPI's " +
    "pick, and the bench times one call; mpi-impi plans the pick, every later call",
  pair_light_barrier: "mpi-pair's rounds plus a one-byte exchange with the next partner each round",
  pair_mpi_barrier: "mpi-pair's rounds plus an MPI_Barrier each round",
  pair_one_barrier: "mpi-pair's rounds after one MPI_Barrier",
  ring_light_barrier: "mpi-ring's rounds plus a one-byte exchange with the next partner each round",
  ring_mpi_barrier: "mpi-ring's rounds plus an MPI_Barrier each round",
  ring_one_barrier: "mpi-ring's rounds after one MPI_Barrier",
};

/**
 * SMPI algorithm name -> the planner whose `traits.mpi.smpi` lists it, for each of `names` some planner lists; throws
 * when two planners list the same name.
 */
export function mpiPlannersByTrait(names: readonly string[], planners: readonly Planner[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of names)
    for (const p of planners)
      if (p.traits.mpi?.smpi.includes(a)) {
        if (out[a] !== undefined) throw new Error(`vs-mpi: SMPI's ${a} is mirrored by both ${out[a]} and ${p.name}`);
        out[a] = p.name;
      }
  return out;
}

/** Arrays of `--cfg=smpi/...` strings anywhere in a JSON value that set smpi/os, smpi/or or smpi/ois. */
function smpiOverheadFlags(v: unknown): string[] | null {
  if (Array.isArray(v)) {
    if (v.length > 0 && v.every((x) => typeof x === "string" && x.startsWith("--cfg=")))
      return v.some((x: string) => /smpi\/(os|or|ois):/.test(x)) ? (v as string[]) : null;
    for (const x of v) {
      const f = smpiOverheadFlags(x);
      if (f) return f;
    }
    return null;
  }
  if (v !== null && typeof v === "object") {
    for (const x of Object.values(v)) {
      const f = smpiOverheadFlags(x);
      if (f) return f;
    }
  }
  return null;
}

/** The preset whose SMPI configuration gives the overheads: a machine named like the flat platform's interconnect. */
const OVERHEAD_PRESET = /^ib-hdr/;

/** Discovers the capabilities; throws when dist/ is not built. */
export function discoverCapabilities(): VsMpiCapabilities {
  if (!existsSync(join(import.meta.dirname, "..", "dist", "cli")))
    throw new Error("vs-mpi: dist/ is not built: run npx tsc -p tsconfig.build.json first");
  const exportHelp = cliSync(["export", "--help"]);
  const simulateHelp = cliSync(["simulate", "--help"]);
  const program = /(--program)\b/.exec(simulateHelp);
  const mpiPlanners = mpiPlannersByTrait(SMPI_ALLTOALLV, PLANNERS);
  let overheads: VsMpiCapabilities["overheads"] = SMPI_OVERHEAD_FALLBACK;
  try {
    const machines = JSON.parse(cliSync(["machines", "--json"])) as unknown;
    const list = Array.isArray(machines)
      ? machines
      : Object.values(machines as object).find((x): x is unknown[] => Array.isArray(x));
    for (const m of list ?? []) {
      const name = (m as { name?: unknown }).name;
      const flags = smpiOverheadFlags(m);
      if (typeof name === "string" && OVERHEAD_PRESET.test(name) && flags) {
        const runtimes = (m as { runtimes?: unknown }).runtimes;
        const rt = Array.isArray(runtimes) ? runtimes.find((r) => smpiOverheadFlags(r) !== null) : undefined;
        const rtName = (rt as { name?: unknown } | undefined)?.name;
        overheads = {
          name: `machine preset ${name} (its SMPI configuration)`,
          flags,
          runtime: typeof rtName === "string" ? rtName : null,
        };
        break;
      }
    }
  } catch {
    // no machine list in JSON: the fallback table stays
  }
  return {
    autoRuntime: /--runtime\b/.test(cliSync(["plan", "--help"])),
    dataflow: /\bdataflow\b/.test(exportHelp),
    programReplay: program ? program[1]! : null,
    mpiPlanners,
    overheads,
  };
}

/** A short fingerprint of the capabilities: a cached case measured with other capabilities is measured again. */
export function capabilityKey(c: VsMpiCapabilities): string {
  return JSON.stringify([
    c.dataflow,
    c.programReplay,
    Object.entries(c.mpiPlanners),
    c.overheads.flags,
    c.overheads.runtime,
    c.autoRuntime,
    SMPI_PLAIN,
  ]);
}
