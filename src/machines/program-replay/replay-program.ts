/** replayProgram: a lowered program replayed as SMPI runs the reference executor's trace (docs/simulator.md). */
import { fail } from "../../model/errors.js";
import { programArgProblem } from "../../model/program-check.js";
import { checkMachine, type MachineModel } from "../../model/machine.js";
import { checkBooleanOption, checkOptionKeys, checkOptionsObject, describeValue } from "../../model/option-checks.js";
import type { NetworkRoutes } from "../../model/network.js";
import type { Program } from "../../model/program.js";
import { findRuntimeModel, type RuntimeModel } from "../runtime/runtime-model.js";
import { flatClusterNetwork } from "./cluster-network.js";
import { replayProgramOps, type ProgramReplayResult } from "./replay-engine.js";
import { replayCounts, replayCountsBytes, type ReplayCounts } from "./replay-bytes.js";
import { replayOpsOf, type ReplayOps } from "./replay-ops.js";

/** Options of a program replay. */
export interface ProgramReplayOptions {
  /** The machine: its links when no network is given, and its copy cost t_m. */
  readonly machine: MachineModel;
  /** The runtime model or a preset name. Default "smpi" (SMPI's plain configuration). */
  readonly runtime?: RuntimeModel | string;
  /** The network (rank r on host r). Default: the machine's flat SimGrid cluster. */
  readonly network?: NetworkRoutes;
  /** Reproduce SimGrid's selective update of the max-min system (default true); false: exact max-min. */
  readonly selectiveUpdate?: boolean;
  /** Record what each rank did and when (the result's timeline; default false). */
  readonly timeline?: boolean;
}

/** Replays `prog` (any variant) as SMPI runs its trace on the network; times in microseconds. */
export function replayProgram(prog: Program, opts: ProgramReplayOptions): ProgramReplayResult {
  const w = programArgProblem(prog);
  if (w !== null) throw fail("machines", "BAD_INPUT", `program replay: ${w}`, { field: "program" });
  return replayOpsOn(replayOpsOf(prog), opts);
}

/** Replays operations (ReplayOps) on the options' runtime and network (the machine's flat cluster by default). */
export function replayOpsOn(ops: ReplayOps, opts: ProgramReplayOptions): ProgramReplayResult {
  checkReplayOptions(opts);
  const runtime =
    typeof opts.runtime === "string" ? findRuntimeModel(opts.runtime) : (opts.runtime ?? findRuntimeModel("smpi"));
  if (
    typeof runtime !== "object" ||
    !(runtime.eagerBytes >= 0) ||
    !(runtime.envelopeBytes >= 0) ||
    !(runtime.maxInFlight >= 1)
  )
    throw fail(
      "machines",
      "BAD_OPTION",
      typeof runtime === "object"
        ? `program replay: runtime ${runtime.name} has a negative threshold or envelope, or maxInFlight < 1`
        : `program replay: runtime must be a runtime model or its name, got ${describeValue(runtime)}`,
      { field: "runtime" },
    );
  const cluster = opts.network === undefined ? flatClusterNetwork(ops.p, opts.machine) : null;
  return replayProgramOps(ops, {
    network: cluster?.routes ?? opts.network!,
    ...(cluster ? { fatpipe: cluster.fatpipe } : {}),
    runtime,
    copyUsPerByte: opts.machine.tm,
    ...(opts.selectiveUpdate === undefined ? {} : { selectiveUpdate: opts.selectiveUpdate }),
    ...(opts.timeline === true ? { timeline: true } : {}),
  });
}

/**
 * Checks a replay's options up front (one-line BAD_OPTION errors naming the option): an options object, its machine
 * (checkMachine), selectiveUpdate and timeline booleans; the runtime is checked where it is resolved.
 */
function checkReplayOptions(opts: ProgramReplayOptions): void {
  checkOptionsObject("machines", "options", opts);
  if (opts === undefined)
    throw fail("machines", "BAD_OPTION", "program replay: the options need a machine: { machine, ... }", {
      field: "options",
    });
  checkOptionKeys("machines", opts, ["machine", "runtime", "network", "selectiveUpdate", "timeline"], "program replay");
  checkMachine(opts.machine, "machines");
  checkBooleanOption("machines", "selectiveUpdate", opts.selectiveUpdate);
  checkBooleanOption("machines", "timeline", opts.timeline);
}

/**
 * An upper estimate of the bytes a replay of `ops` allocates on the options' network (the machine's flat cluster by
 * default), with the timeline when asked (replayWorkBytes): for a refusal before it runs.
 */
export function replayOpsBytes(ops: ReplayOps, opts: ProgramReplayOptions): number {
  return replayCountsBytes(replayCounts(ops), replayNetwork(ops.p, opts), opts.timeline === true);
}

/** replayOpsBytes from the counts alone, before the operations are made. */
export function replayCountsBytesOn(c: ReplayCounts, opts: ProgramReplayOptions): number {
  return replayCountsBytes(c, replayNetwork(c.p, opts), opts.timeline === true);
}

/** The network a replay of p ranks runs on: the options' or the machine's flat cluster. */
const replayNetwork = (p: number, opts: ProgramReplayOptions): NetworkRoutes =>
  opts.network ?? flatClusterNetwork(p, opts.machine).routes;
