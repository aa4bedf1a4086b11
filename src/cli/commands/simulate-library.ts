/**
 * commplan simulate M.json --library NAME: what MPI_Alltoallv takes on the matrix under one of SMPI 3.32's algorithms,
 * its operations (the library mirror) replayed on a runtime model and the machine's flat cluster or a --network.
 */
import { Option } from "commander";
import { readMatrixFile } from "../../io/matrix-read.js";
import {
  LIBRARY_ALLTOALLV,
  libraryAlltoallvOps,
  libraryAlltoallvPick,
  libraryAlltoallvUnknown,
} from "../../machines/program-replay/library-alltoallv-registry.js";
import { fail } from "../../model/errors.js";
import type { CliContext } from "../context.js";
import { matrixReadOptions } from "../io.js";
import {
  checkReplayOutputs,
  programFlagProblem,
  replayChecked,
  reportReplay,
  type ProgramReplayFlags,
  type RefusedWithProgram,
} from "./simulate-program.js";
import { DEFAULT_RUNTIME, machineOfFlags, MACHINE_NEEDED, runtimeOfFlags } from "./runtime-flags.js";
import { wantsTimeline } from "./simulate-timeline.js";
import { networkInputFile } from "./network-flags.js";
import { replayCountsBytesOn } from "../../machines/program-replay/replay-program.js";
import { checkMemory } from "../../model/memory-budget.js";
import { loadTopology } from "./topologies.js";

/** `--library <name>`. */
export const LIBRARY_OPTION = new Option(
  "--library <name>",
  `replay MPI_Alltoallv of the matrix <input> as SMPI 3.32's algorithm runs it (its operations, zero-byte messages included; with --runtime, --free-copies, --network, --element-bytes): ${LIBRARY_ALLTOALLV.join(", ")} (docs/simulator.md, Library mirrors)`,
);

/** simulate's handling of --library: true when it ran the library's replay, false without --library. */
export async function runLibraryFlags(
  arg: string | undefined,
  o: RefusedWithProgram & ProgramReplayFlags & { readonly program?: string; readonly library?: string },
  ctx: CliContext,
): Promise<boolean> {
  if (o.library === undefined) return false;
  const bad = (text: string): Error => fail("simulate", "BAD_OPTION", text, { field: "library" });
  if (o.program !== undefined) throw bad("give --library (with a matrix) or --program, not both");
  if (arg === undefined) throw bad("--library needs a matrix file: commplan simulate M.json --library NAME");
  if (!LIBRARY_ALLTOALLV.includes(o.library)) throw bad(`--library: ${libraryAlltoallvUnknown(o.library)}`);
  const problem = programFlagProblem(o, "--library");
  if (problem !== null) throw bad(problem);
  await checkReplayOutputs([arg, networkInputFile(o)], o);
  const machine = machineOfFlags("simulate", o, MACHINE_NEEDED);
  const runtime = runtimeOfFlags("simulate", o.runtime ?? DEFAULT_RUNTIME, o.freeCopies);
  const m = readMatrixFile(arg, matrixReadOptions(o, ctx.maxMemory));
  const topo = o.network === undefined ? null : loadTopology(o.network, m.p, ctx.maxMemory, machine);
  // every mirror posts at least a send and a receive per pair of ranks: refused before they are made when those
  // alone pass the budget (replayChecked then checks the operations made)
  const opts = { machine, runtime, ...(topo === null ? {} : { network: topo.routes }), timeline: wantsTimeline(o) };
  const pairs = m.p * (m.p - 1);
  const least = replayCountsBytesOn({ p: m.p, ops: 2 * pairs, sends: pairs, deps: 0 }, opts);
  checkMemory("simulate", least, `replaying MPI_Alltoallv on P = ${m.p}`, ctx.maxMemory, { file: arg });
  const r = replayChecked(libraryAlltoallvOps(o.library, m), opts, ctx.maxMemory, arg);
  const runs = libraryAlltoallvPick(o.library, m.p);
  await reportReplay(
    r,
    {
      head: { kind: "library", algorithm: o.library, runs, p: m.p },
      what: `MPI_Alltoallv ${o.library}${runs === o.library ? "" : ` (runs ${runs})`}`,
      machine,
      runtime,
      network: topo === null ? `SimGrid cluster of ${machine.name}` : topo.routes.name,
    },
    o,
    ctx,
  );
  return true;
}
