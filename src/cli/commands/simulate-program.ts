/**
 * commplan simulate --program: a lowered program (a document or a split directory) replayed as SMPI runs its trace, on
 * a runtime model and the machine's flat cluster or a --network topology.
 */
import { Option } from "commander";
import { readProgramJson } from "../../io/program-json-read.js";
import {
  replayOpsBytes,
  replayOpsOn,
  type ProgramReplayOptions,
} from "../../machines/program-replay/replay-program.js";
import { replayOpsOf, type ReplayOps } from "../../machines/program-replay/replay-ops.js";
import { checkMemory } from "../../model/memory-budget.js";
import type { ProgramReplayResult } from "../../machines/program-replay/replay-engine.js";
import type { MachineModel } from "../../model/machine.js";
import type { RuntimeModel } from "../../machines/runtime/runtime-model.js";
import { smpiOverheadText } from "../../machines/runtime/overhead.js";
import { fail } from "../../model/errors.js";
import type { CliContext } from "../context.js";
import { fmt, table } from "../io.js";
import { loadTopology } from "./topologies.js";
import { networkInputFile } from "./network-flags.js";
import { checkTimelineFlags, timelineDocuments, wantsTimeline, type TimelineFlags } from "./simulate-timeline.js";
import { checkOutputTargets, refuseOutputOntoInput, writeOutputs } from "../../io/file-output.js";
import { oneLine } from "../../internal/quoted.js";
import { DEFAULT_RUNTIME, machineOfFlags, MACHINE_NEEDED, runtimeOfFlags } from "./runtime-flags.js";

/** The flags --program reads (the others are refused by `programFlagProblem`). */
export interface ProgramReplayFlags extends TimelineFlags {
  readonly machine?: string;
  readonly runtime?: string;
  readonly freeCopies?: boolean;
  readonly network?: string;
  readonly json?: boolean;
}

/** `--program <file>`. */
export const PROGRAM_OPTION = new Option(
  "--program <file>",
  "replay a lowered program (commplan.program/v1 document, index.json or split directory; no schedule argument) as SMPI runs the reference executor's trace: per-message overheads, eager and rendezvous sends, max-min link sharing (docs/simulator.md, Program replay)",
);

/** The schedule and protocol flags of simulate, as commander hands them over (refused with --program). */
export interface RefusedWithProgram {
  readonly mode?: string;
  readonly lockstep?: boolean;
  readonly ports?: string;
  readonly topology?: string;
  readonly buffers?: string;
  readonly sendWaits?: string;
  readonly recvOrder?: string;
  readonly portSharing?: string;
  readonly linkSvg?: string;
  readonly linkFactor?: boolean;
  readonly stageBarriers?: boolean;
  readonly barrier?: string;
  readonly envelope?: string;
  readonly data?: boolean;
  readonly matrix?: string;
  readonly elementBytes?: string;
  readonly protocol?: string;
  readonly realised?: string;
  readonly generateRecv?: boolean;
  readonly busyMeasure?: boolean;
  readonly earlyGoAhead?: boolean;
  readonly inquiry?: string;
  readonly seed?: string;
}

/**
 * The first flag given that does not apply to --program (a schedule replay's or a protocol's), or null; with --library
 * the same, but --element-bytes (the matrix's) applies.
 */
export function programFlagProblem(
  o: RefusedWithProgram,
  mode: "--program" | "--library" = "--program",
): string | null {
  const given: [string, boolean][] = [
    ["--mode", o.mode !== undefined],
    ["--lockstep", o.lockstep !== undefined],
    ["--ports", o.ports !== undefined],
    ["--topology", o.topology !== undefined],
    ["--buffers", o.buffers !== undefined],
    ["--send-waits", o.sendWaits !== undefined],
    ["--recv-order", o.recvOrder !== undefined],
    ["--port-sharing", o.portSharing !== undefined],
    ["--link-svg", o.linkSvg !== undefined],
    // commander's negatable options are true unless given
    ["--no-link-factor", o.linkFactor === false],
    ["--no-stage-barriers", o.stageBarriers === false],
    ["--barrier", o.barrier !== undefined],
    ["--envelope", o.envelope !== undefined],
    ["--data", o.data !== undefined],
    ["--matrix", o.matrix !== undefined],
    ["--element-bytes", o.elementBytes !== undefined && mode === "--program"],
    ["--protocol", o.protocol !== undefined],
    ["--realised", o.realised !== undefined],
    ["--generate-recv", o.generateRecv !== undefined],
    ["--busy-measure", o.busyMeasure !== undefined],
    ["--early-go-ahead", o.earlyGoAhead !== undefined],
    ["--inquiry", o.inquiry !== undefined],
    // no random choice in a program's or the library's replay
    ["--seed", o.seed !== undefined],
  ];
  const flag = given.find(([, on]) => on)?.[0];
  return flag === undefined
    ? null
    : mode === "--program"
      ? `${flag} does not apply to --program (a program replays as its variant says, on --network or the machine's SimGrid cluster)`
      : `${flag} does not apply to --library (the library's operations replay on --network or the machine's SimGrid cluster)`;
}

/** Runs --program and prints the result. */
export async function runProgramReplay(path: string, o: ProgramReplayFlags, ctx: CliContext): Promise<void> {
  await checkReplayOutputs([path, networkInputFile(o)], o);
  const machine = machineOfFlags("simulate", o, MACHINE_NEEDED);
  const runtime = runtimeOfFlags("simulate", o.runtime ?? DEFAULT_RUNTIME, o.freeCopies);
  const prog = readProgramJson(path, { maxMemory: ctx.maxMemory }).program;
  const topo = o.network === undefined ? null : loadTopology(o.network, prog.p, ctx.maxMemory, machine);
  const r = replayChecked(
    replayOpsOf(prog),
    { machine, runtime, ...(topo === null ? {} : { network: topo.routes }), timeline: wantsTimeline(o) },
    ctx.maxMemory,
    path,
  );
  await reportReplay(
    r,
    {
      head: { kind: "program", algorithm: prog.algorithm, p: prog.p, variant: prog.variant, rounds: prog.rounds },
      what: `${oneLine(prog.algorithm)} program (${prog.variant}, ${prog.rounds} rounds)`,
      machine,
      runtime,
      network: topo === null ? `SimGrid cluster of ${machine.name}` : topo.routes.name,
    },
    o,
    ctx,
  );
}

/** Replays `ops` after checking that its estimated memory is within the budget (one line naming `file` if not). */
export function replayChecked(
  ops: ReplayOps,
  opts: ProgramReplayOptions,
  maxMemory: number,
  file: string,
): ProgramReplayResult {
  const what = `replaying ${ops.kind.length} operations on P = ${ops.p}${opts.timeline === true ? " with its timeline" : ""}`;
  checkMemory("simulate", replayOpsBytes(ops, opts), what, maxMemory, { file });
  return replayOpsOn(ops, opts);
}

/**
 * Before any input is read: the timeline outputs of a replay (--svg, --trace) obey checkTimelineFlags, none goes onto
 * an input, and each goes into a directory that takes a new file.
 */
export async function checkReplayOutputs(inputs: readonly (string | undefined)[], o: TimelineFlags): Promise<void> {
  const outputs = [
    ["--trace", o.trace],
    ["--svg", o.svg],
  ] as const;
  checkTimelineFlags(o);
  await refuseOutputOntoInput("simulate", inputs, outputs);
  await checkOutputTargets("simulate", outputs);
}

/** Writes a replay's timeline outputs (all or none) and prints its result. */
export async function reportReplay(
  r: ProgramReplayResult,
  h: ReplayReportHead,
  o: ProgramReplayFlags,
  ctx: CliContext,
): Promise<void> {
  const title = `commplan simulate: ${h.what} on ${h.machine.name}, runtime ${h.runtime.name}`;
  const docs = r.timeline === undefined ? [] : timelineDocuments(o, r.timeline, r.makespanUs, h.machine.name, title);
  await writeOutputs("simulate", docs, { stdout: ctx.stdout });
  printReplay(r, h, o.json === true, ctx);
}

/** What a replay's report names: the JSON fields before the machine's, the text's subject, the machine and runtime. */
export interface ReplayReportHead {
  readonly head: { readonly kind: string; readonly algorithm: string; readonly p: number } & Readonly<
    Record<string, unknown>
  >;
  readonly what: string;
  readonly machine: MachineModel;
  readonly runtime: RuntimeModel;
  readonly network: string;
}

/** Prints a replay's result (commplan.simulation/v1 JSON, or text with a per-rank table up to P = 32). */
export function printReplay(r: ProgramReplayResult, h: ReplayReportHead, json: boolean, ctx: CliContext): void {
  const { machine, runtime } = h;
  const p = h.head.p;
  if (json) {
    const doc = {
      format: "commplan.simulation/v1",
      ...h.head,
      machine: machine.name,
      network: h.network,
      runtime: {
        name: runtime.name,
        os: smpiOverheadText(runtime.sendOverhead),
        ois: smpiOverheadText(runtime.isendOverhead),
        or: smpiOverheadText(runtime.recvOverhead),
        eagerBytes: runtime.eagerBytes,
        envelopeBytes: runtime.envelopeBytes,
        maxInFlight: Number.isFinite(runtime.maxInFlight) ? runtime.maxInFlight : null,
        copies: runtime.copies,
      },
      makespan: r.makespanUs,
      rankFinish: Array.from(r.rankFinishUs),
      messages: r.messages,
      eagerMessages: r.eagerMessages,
      events: r.events,
      recomputes: r.recomputes,
    };
    ctx.io.out(JSON.stringify(doc, null, 2) + "\n");
    return;
  }
  const f = r.rankFinishUs;
  let text =
    `${h.what} on ${machine.name}, P = ${p}, runtime ${runtime.name}, ${oneLine(h.network)}: ` +
    `makespan ${fmt(r.makespanUs)} us\n` +
    `${fmt(r.messages)} messages (${fmt(r.eagerMessages)} eager), ${fmt(r.events)} events, ${fmt(r.recomputes)} rate recomputations\n`;
  if (p <= 32)
    text += table(
      [["rank", "finish (us)"], ...Array.from(f, (t, rank) => [String(rank), fmt(t)])],
      ctx.io.stdoutColumns,
    );
  else {
    let lo = Infinity,
      sum = 0;
    for (const t of f) {
      lo = Math.min(lo, t);
      sum += t;
    }
    text += table(
      [
        ["", "finish (us)"],
        ["max", fmt(r.makespanUs)],
        ["mean", fmt(sum / p)],
        ["min", fmt(lo)],
      ],
      ctx.io.stdoutColumns,
    );
  }
  ctx.io.out(text);
}

/**
 * simulate's handling of --program: true when it ran the program replay (the schedule argument must be absent, the
 * schedule flags too), false when the call is a schedule replay or a protocol run (which must not give --runtime).
 */
export async function runProgramFlags(
  arg: string | undefined,
  o: RefusedWithProgram & ProgramReplayFlags & { readonly program?: string },
  ctx: CliContext,
): Promise<boolean> {
  const missing = inputProblem(arg, o.program);
  if (missing !== null) throw missing;
  if (o.program === undefined) {
    if (o.runtime !== undefined)
      throw fail("simulate", "BAD_OPTION", "--runtime goes with --program (a lowered program to replay)", {
        field: "runtime",
      });
    if (o.freeCopies === true)
      throw fail("simulate", "BAD_OPTION", "--free-copies goes with --program (a lowered program to replay)", {
        field: "freeCopies",
      });
    return false;
  }
  const problem = programFlagProblem(o);
  if (problem !== null) throw fail("simulate", "BAD_OPTION", problem, { field: "program" });
  await runProgramReplay(o.program, o, ctx);
  return true;
}

/** The one-line error of a simulate call that gives both a schedule and --program, or neither. */
export function inputProblem(input: string | undefined, program: string | undefined): Error | null {
  if (input !== undefined && program !== undefined)
    return fail("simulate", "BAD_OPTION", "give a schedule file or --program <file>, not both", { field: "program" });
  if (input === undefined && program === undefined)
    return fail("simulate", "BAD_OPTION", "give a schedule file (or a matrix with --protocol), or --program <file>", {
      field: "input",
    });
  return null;
}
