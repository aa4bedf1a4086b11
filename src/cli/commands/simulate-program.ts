/**
 * commplan simulate --program: a lowered program (a document or a split directory) replayed as SMPI runs its trace, on
 * a runtime model and the machine's flat cluster or a --network topology.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { readProgramJson } from "../../io/program-json-read.js";
import { findMachine } from "../../machines/presets.js";
import { replayProgram } from "../../machines/program-replay/replay-program.js";
import { findRuntimeModel, RUNTIME_MODELS } from "../../machines/runtime/runtime-model.js";
import { smpiOverheadText } from "../../machines/runtime/overhead.js";
import { fail } from "../../model/errors.js";
import type { CliContext } from "../context.js";
import { fmt, table } from "../io.js";
import { loadTopology } from "./topologies.js";

/** The flags --program reads (the others are refused by `programFlagProblem`). */
export interface ProgramReplayFlags {
  readonly machine: string;
  readonly runtime?: string;
  readonly network?: string;
  readonly json?: boolean;
}

/** The default runtime model of --program. */
export const DEFAULT_RUNTIME = "smpi";

/** --runtime's help. */
export const RUNTIME_HELP = `with --program: the runtime model, ${RUNTIME_MODELS.map((m) => m.name).join(" or ")} (default ${DEFAULT_RUNTIME}; 'commplan machines --json' lists them with their SMPI configuration)`;

/**
 * The flags that do not apply to --program (they describe a schedule replay or a protocol run), as the first one given,
 * or null. `given` maps a flag's name to whether it was given.
 */
export function programFlagProblem(given: readonly (readonly [string, boolean])[]): string | null {
  for (const [flag, on] of given)
    if (on)
      return `${flag} does not apply to --program (a program replays as its variant says, on --network or the machine's SimGrid cluster)`;
  return null;
}

/** The program path: a split directory means its index.json. */
function programPath(path: string): string {
  if (path !== "-" && existsSync(path) && statSync(path).isDirectory()) return join(path, "index.json");
  return path;
}

/** Runs --program and prints the result. */
export function runProgramReplay(path: string, o: ProgramReplayFlags, ctx: CliContext): void {
  const machine = findMachine(o.machine);
  const runtime = findRuntimeModel(o.runtime ?? DEFAULT_RUNTIME);
  const prog = readProgramJson(programPath(path), { maxMemory: ctx.maxMemory }).program;
  const topo = o.network === undefined ? null : loadTopology(o.network, prog.p, ctx.maxMemory, machine);
  const networkName = topo === null ? `SimGrid cluster of ${machine.name}` : topo.routes.name;
  const r = replayProgram(prog, { machine, runtime, ...(topo === null ? {} : { network: topo.routes }) });
  if (o.json) {
    const doc = {
      format: "commplan.simulation/v1",
      kind: "program",
      algorithm: prog.algorithm,
      p: prog.p,
      variant: prog.variant,
      rounds: prog.rounds,
      machine: machine.name,
      network: networkName,
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
    `${prog.algorithm} program (${prog.variant}, ${prog.rounds} rounds) on ${machine.name}, P = ${prog.p}, runtime ${runtime.name}, ${networkName}: ` +
    `makespan ${fmt(r.makespanUs)} us\n` +
    `${fmt(r.messages)} messages (${fmt(r.eagerMessages)} eager), ${fmt(r.events)} events, ${fmt(r.recomputes)} rate recomputations\n`;
  if (prog.p <= 32) text += table([["rank", "finish (us)"], ...Array.from(f, (t, rank) => [String(rank), fmt(t)])]);
  else {
    let lo = Infinity,
      sum = 0;
    for (const t of f) {
      lo = Math.min(lo, t);
      sum += t;
    }
    text += table([
      ["", "finish (us)"],
      ["max", fmt(r.makespanUs)],
      ["mean", fmt(sum / prog.p)],
      ["min", fmt(lo)],
    ]);
  }
  ctx.io.out(text);
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
