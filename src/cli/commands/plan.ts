/** commplan plan: plan a matrix with a named algorithm and write the schedule JSON. */
import {
  freeCopiesOption,
  MACHINE_OF_RUNTIME_HELP,
  machineOfFlags,
  runtimeOfFlags,
  runtimeTargetOption,
} from "./runtime-flags.js";
import { checkMemory } from "../../model/memory-budget.js";
import { planOutputBytes } from "../plan-bytes.js";
import type { Command } from "commander";
import { MAX_SEED } from "../../model/param-spec.js";
import { writeScheduleJson } from "../../io/schedule-json-write.js";
import { refuseOutputOntoInput } from "../../io/file-output.js";
import { findMachine } from "../../machines/presets.js";
import { readMatrixFile } from "../../io/matrix-read.js";
import { PLANNERS, resolvePlanOptions } from "../../planner/registry.js";
import { AUTO_ALWAYS_FINAL, AUTO_FINALISTS, defaultItself, planAuto, type MpiVerdict } from "../../auto/index.js";
import { fail } from "../../model/errors.js";
import { machineOptionHelp, planRequestOptions } from "./lists.js";
import {
  checkNetworkFlags,
  loadNetworkFlags,
  networkInputFile,
  networkOption,
  portSharingOption,
  type NetworkFlags,
} from "./network-flags.js";
import type { CliContext } from "../context.js";
import { checkAlgorithmName } from "../algorithm-name.js";
import type { Schedule } from "../../model/schedule.js";
import { counted } from "../../internal/plural.js";
import { withProgress, withProgressAsync } from "../progress.js";
import { intOption, keyValues, matrixReadOptions, writingBar } from "../io.js";
import { JSON_SUMMARY_HELP, printJson, refuseJsonOnStdout, writtenBytes } from "./json-summary.js";
import type { JsonValue } from "../../model/schedule.js";
import { refuseArrowName } from "../output-format.js";
import { portsOption, SIMULATOR_PORTS } from "../ports-option.js";

/** The options of `plan` as commander gives them. */
interface PlanFlags extends NetworkFlags {
  algorithm: string;
  machine?: string;
  payload?: boolean;
  seed: string;
  param: string[];
  output: string;
  elementBytes?: string;
  json?: boolean;
  runtime?: string;
  freeCopies?: boolean;
  exhaustive?: boolean;
  ports?: string;
}

/** Registers `plan`. */
export function registerPlan(program: Command, ctx: CliContext): void {
  planRequestOptions(
    program
      .command("plan")
      .argument(
        "<matrix>",
        "matrix file: JSON, CSV or Matrix Market (by the .json/.csv/.mtx extension, else the content); - for stdin",
      )
      .description("make a schedule for a matrix with a planning algorithm and write it as commplan.schedule/v1 JSON")
      .requiredOption(
        "-a, --algorithm <name>",
        `planning algorithm: ${PLANNERS.map((p) => p.name).join(", ")}; or auto: needs --machine (or a --runtime made for one machine), prices every applicable planner (and parameter variant) with the flat cost model (formulas; the planners that search are planned only when their lower bound comes near the top, and not at all when their simulated-machine lower bound exceeds a makespan already simulated), simulates ${AUTO_ALWAYS_FINAL.join(", ")} and the ${AUTO_FINALISTS} best predictions (with any equal to the last of them) on the simulated machine (blocking; a finalist whose lower bound already exceeds the best makespan found is not simulated, one whose bound is exact is not replayed) and keeps the fastest plan that fits the machine's ports; it answers "call MPI_Alltoallv" when no plan is predicted faster than MPI's default (mpi-linear, run as the library runs it) by more than 1 % (5 % with --runtime), and otherwise says what the plan gains over it (both times, the speed-up) and why; the header's "auto" block lists the candidates, their predicted and simulated times and why the winner won`,
      ),
    {
      machine: `${machineOptionHelp()}; auto needs it, or defaults to ${MACHINE_OF_RUNTIME_HELP}`,
      payload: "element-level plan: every transfer lists the chunks it carries",
      seed: "random seed for planners that make random choices (the schedule records it only then)",
    },
  )
    .addOption(
      networkOption(
        "with --algorithm auto: simulate the finalists on a network with link contention (needs a machine on the flat topology)",
      ),
    )
    .addOption(portSharingOption())
    .option(
      "--ports <k>",
      "with --algorithm auto: send and receive ports per node on the simulated machine (default: the machine's)",
    )
    .addOption(
      runtimeTargetOption(
        "with --algorithm auto: plan for",
        `each finalist is lowered and its program replayed as the runtime runs it (on --network or the machine's flat cluster; unlimited ports), unless a lower bound shows it cannot win, in the fastest variant, which the header's auto.runtime names for export --variant; the plan is written at element level (as with --payload), ready for that export`,
      ),
    )
    .addOption(freeCopiesOption())
    .option(
      "--exhaustive",
      "with --algorithm auto: simulate (on a runtime, replay) every finalist, also one whose lower bound shows it cannot win, and on a runtime both program variants: the same winner, with a time for every finalist in the header, at the cost the bounds save (docs/auto.md)",
    )
    .option("-o, --output <file>", "output file, - for stdout", "-")
    .option("--json", JSON_SUMMARY_HELP)
    .action(async (file: string, o: PlanFlags) => {
      refuseJsonOnStdout("plan", o.json, o.output);
      refuseArrowName("plan", "-o", "output", o.output);
      if (o.algorithm === "auto") return planAutoCommand(ctx, file, o);
      for (const [k, flag] of [
        ["network", "--network"],
        ["portSharing", "--port-sharing"],
        ["runtime", "--runtime"],
        ["freeCopies", "--free-copies"],
        ["exhaustive", "--exhaustive"],
        ["ports", "--ports"],
      ] as const)
        if (o[k] !== undefined)
          throw fail("plan", "BAD_OPTION", `${flag} goes with --algorithm auto (it simulates the finalists there)`, {
            field: k,
          });
      checkAlgorithmName("plan", o.algorithm);
      const planner = PLANNERS.find((x) => x.name === o.algorithm)!;
      const machine = o.machine === undefined ? null : findMachine(o.machine);
      const opts = resolvePlanOptions(planner, {
        payload: Boolean(o.payload),
        seed: intOption("seed", o.seed, 0, MAX_SEED),
        machine,
        params: keyValues("param", o.param),
        maxMemory: ctx.maxMemory,
      });
      await refuseOutputOntoInput("plan", [file], [["-o", o.output]]);
      const m = readMatrixFile(file, matrixReadOptions(o, ctx.maxMemory));
      checkMemory(
        "plan",
        planOutputBytes(m, Boolean(o.payload)),
        `planning ${planner.name} for P = ${m.p}`,
        ctx.maxMemory,
        {
          file,
        },
      );
      // the planners that can take long report their progress (in their own units: the bar shows the percentage)
      const s = withProgress(ctx.io.interactive, `plan: ${planner.name}`, null, (progress) =>
        planner.plan(m, { ...opts, progress }),
      );
      await writeSchedule(ctx, s, o.output);
      if (o.json) printJson(ctx, planSummary(s, o.output, null));
      if (o.output !== "-")
        ctx.io.err(
          `plan: ${planner.name}: ${counted(s.stages.length, "stage", "stages")}, ${counted(s.stepCount, "step", "steps")}, ${counted(s.transferCount, "transfer", "transfers")} -> ${o.output}\n`,
        );
    });
}

/**
 * auto's answer against MPI_Alltoallv's default, in one line: the answer first, then the default's predicted time (and
 * which planner stands for it), the plan's, the speed-up (default / plan) and the per cent saved, then why.
 */
export function autoAnswerLine(v: MpiVerdict): string {
  // the planner standing for the library's default, with the libraries' algorithms it is (traits.mpi.does)
  const does = PLANNERS.find((p) => p.name === v.mpiDefault)?.traits.mpi?.does;
  const name = does === undefined ? v.mpiDefault : `${v.mpiDefault}: ${does}`;
  const def = v.mpiSimulated === null ? null : `MPI_Alltoallv's default (${name}; as the library runs it)`;
  if (v.answer === "call MPI_Alltoallv")
    return `call MPI_Alltoallv${def === null ? "" : ` (its default, ${name}; predicted ${v.mpiSimulated} us)`}: ${v.effect}`;
  const times =
    def === null || v.gain === null || v.speedup === null
      ? null
      : `predicted ${v.planSimulated} us against ${v.mpiSimulated} us for ${def}, ${v.speedup}x as fast ` +
        `(${v.gain} % of its time saved)`;
  // the pick is the default's own algorithm: the words first, so the times do not read as a gain over itself
  if (times !== null && v.mpiDefault !== null && v.effect.startsWith(defaultItself(v.mpiDefault)))
    return `use the plan: ${v.effect}; ${times}`;
  return `use the plan${times === null ? "" : `: ${times}`}: ${v.effect}`;
}

/**
 * Without --runtime, what the answer's times are: the simulated machine's (the node-port model, or a network), not an
 * MPI runtime's; the vs-MPI bench measures SMPI against the runtime models.
 */
export function modelNote(machine: string, ports: number, network: string | null): string {
  const on = network === null ? "" : ` on network ${network}`;
  return (
    `these times are the ${machine} model's (${counted(ports, "port", "ports")} per node${on}), not an MPI runtime's: ` +
    `--runtime NAME (commplan machines --json lists them) predicts what MPI_Alltoallv takes there`
  );
}

/** `plan --algorithm auto`: planAuto on the named machine (required; no --param). */
async function planAutoCommand(ctx: CliContext, file: string, o: PlanFlags): Promise<void> {
  if (o.param.length > 0)
    throw fail("plan", "BAD_OPTION", "--algorithm auto chooses the parameters itself; drop --param", {
      field: "param",
    });
  const named = machineOfFlags(
    "plan",
    o,
    "--algorithm auto needs --machine (the machine it chooses for), or a --runtime made for one machine",
  );
  if (o.ports !== undefined && o.runtime !== undefined)
    throw fail(
      "plan",
      "BAD_OPTION",
      "--ports goes with the simulated machine: a --runtime replays with unlimited ports",
      {
        field: "ports",
      },
    );
  // the machine with the ports asked for: auto's screen, simulation and port check all read machine.ports
  const machine =
    o.ports === undefined ? named : { ...named, ports: portsOption(o.ports, { command: "plan", ...SIMULATOR_PORTS }) };
  const seed = intOption("seed", o.seed, 0, MAX_SEED);
  if (o.freeCopies === true && o.runtime === undefined)
    throw fail("plan", "BAD_OPTION", "--free-copies goes with --runtime (a runtime model's copies)", {
      field: "freeCopies",
    });
  const runtime = o.runtime === undefined ? null : runtimeOfFlags("plan", o.runtime, o.freeCopies);
  checkNetworkFlags("plan", o, machine);
  await refuseOutputOntoInput("plan", [file, networkInputFile(o)], [["-o", o.output]]);
  const m = readMatrixFile(file, matrixReadOptions(o, ctx.maxMemory));
  const network = loadNetworkFlags(o, m.p, ctx.maxMemory, machine);
  const { schedule: s, report } = withProgress(ctx.io.interactive, "plan", null, (progress) =>
    planAuto(m, machine, {
      // a plan for a runtime is for export as a program, which a relaying plan can only be at element level
      payload: Boolean(o.payload) || runtime !== null,
      seed,
      progress,
      ...network,
      maxMemory: ctx.maxMemory,
      runtime,
      exhaustive: o.exhaustive === true,
    }),
  );
  await writeSchedule(ctx, s, o.output);
  if (o.json)
    printJson(ctx, planSummary(s, o.output, { ...report.winner, reason: report.reason, mpi: { ...report.mpi } }));
  ctx.io.err(`plan: auto chose ${report.winner.algorithm} ${JSON.stringify(report.winner.params)}: ${report.reason}\n`);
  ctx.io.err(`plan: ${autoAnswerLine(report.mpi)}\n`);
  if (!report.runtime) ctx.io.err(`plan: ${modelNote(machine.name, machine.ports, report.network?.name ?? null)}\n`);
  if (report.runtime)
    ctx.io.err(
      `plan: on runtime ${report.runtime.name}, ${report.mpi.answer === "use the plan" ? "" : "where MPI_Alltoallv is the answer: should you run the plan anyway, "}run it as the ${report.runtime.variant} program (export --variant ${report.runtime.variant})\n`,
    );
}

/** Writes the schedule JSON with a bar over the transfers written (not when the document goes to the terminal). */
async function writeSchedule(ctx: CliContext, s: Schedule, output: string): Promise<void> {
  await withProgressAsync(writingBar(ctx.io, output), "plan: writing", "transfers", (progress) =>
    writeScheduleJson(s, output, { progress, stdout: ctx.stdout }),
  );
}

/** plan --json: the commplan.plan/v1 summary of the schedule written to `output` (with auto's pick, if auto). */
function planSummary(s: Schedule, output: string, auto: { [k: string]: JsonValue } | null): object {
  return {
    format: "commplan.plan/v1",
    algorithm: s.algorithm,
    params: s.params,
    seed: s.seed,
    p: s.p,
    elementBytes: s.elementBytes,
    payload: s.chunks !== null,
    stages: s.stages.length,
    steps: s.stepCount,
    transfers: s.transferCount,
    output,
    bytes: writtenBytes(output),
    auto,
  };
}
