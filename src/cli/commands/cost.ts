/** commplan cost: the analytic flat cost of a schedule on a machine model (004 eqs 1-4, 002 eq 1). */
import { Option, type Command } from "commander";
import { readScheduleFile } from "../../io/schedule-read.js";
import { scheduleCost, type CostMode, type ScheduleCost } from "../../machines/cost-model.js";
import { findMachine } from "../../machines/presets.js";
import { fail } from "../../model/errors.js";
import { checkMemory, scheduleWorkBytes } from "../../model/memory-budget.js";
import type { CliContext } from "../context.js";
import { scheduleLoad } from "../../model/schedule-load.js";
import { counted } from "../../internal/plural.js";
import { fmt, intOption, SCHEDULE_ARGUMENT_HELP, table } from "../io.js";

/** The cost as text: total, then one line per stage. */
export function formatCost(c: ScheduleCost, width?: number): string {
  const rows = [["stage", "name", "barrier", "rearrange", "communication", "time (us)", "start-ups"]];
  for (const s of c.stages)
    rows.push([
      String(s.stage),
      s.name,
      fmt(s.barrier),
      fmt(s.rearrange),
      fmt(s.communication),
      fmt(s.time),
      fmt(s.startups),
    ]);
  return (
    `${c.mode} cost on ${c.machine}: ${fmt(c.total)} us (${fmt(c.startups)} start-ups at the busiest node)\n` +
    table(rows, width)
  );
}

/** The values of --mode. */
const COST_MODES: readonly CostMode[] = ["blocking", "nonblocking"];

/** Registers `cost`. */
export function registerCost(program: Command, ctx: CliContext): void {
  program
    .command("cost")
    .argument("<schedule>", SCHEDULE_ARGUMENT_HELP)
    .description("analytic flat-model cost of a schedule (lock-step, no contention): per stage and in total")
    .requiredOption("--machine <name>", "machine model (see 'commplan machines')")
    .addOption(new Option("--mode <mode>", "blocking or nonblocking").choices(COST_MODES).default("blocking"))
    .option(
      "--envelope <bytes>",
      "bytes added to every network message, e.g. 16 as SMPI (default 0: no machine preset adds one)",
    )
    .option("--steps", "also list the cost of every step (blocking mode)")
    .option("--json", "machine-readable output")
    .action(
      async (
        file: string,
        o: { machine: string; mode: CostMode; json?: boolean; steps?: boolean; envelope?: string },
      ) => {
        if (o.steps && o.mode !== "blocking")
          throw fail(
            "cost",
            "BAD_OPTION",
            "--steps lists the steps of the blocking mode; the nonblocking cost has no per-step times",
            { field: "steps" },
          );
        const preset = findMachine(o.machine);
        const machine =
          o.envelope !== undefined ? { ...preset, envelope: intOption("envelope", o.envelope, 0, 1 << 20) } : preset;
        const mode = o.mode;
        const s = await readScheduleFile(file, { maxMemory: ctx.maxMemory });
        // per node: six typed arrays; per step: its cost record, and its table row or JSON text
        checkMemory(
          "cost",
          scheduleWorkBytes(s, 64, o.steps ? 400 : 160, 0),
          `the cost of ${s.stepCount} steps on ${s.p} nodes`,
          ctx.maxMemory,
          { file },
        );
        const c = scheduleCost(s, machine, mode);
        // the model charges a step its slowest transfer: where a node has more messages in a step than ports, that
        // is below what the node's ports allow (docs/cost-model.md), and the user should hear it
        const atOnce = scheduleLoad(s).atOnce;
        if (atOnce > machine.ports)
          ctx.io.err(
            `cost: note: a node has ${atOnce} messages in one step on a machine with ${counted(machine.ports, "port", "ports")}: ` +
              "the flat model charges a step its slowest message, which understates such a step (node contention is " +
              "not modelled); 'commplan simulate' replays it (docs/cost-model.md)\n",
          );
        // a realised trace (AC, DRS_N, an executor's): its steps are issue times, not lock-step steps, so the model's
        // sum over them says nothing about the run; the trace's own end does
        if (s.times !== null) {
          let end = 0;
          for (let x = 0; x < s.transferCount; x++) end = Math.max(end, s.times.end[x]!);
          ctx.io.err(
            `cost: note: a realised trace (its transfers carry start and end times): the flat model costs its ` +
              `${counted(s.stepCount, "step", "steps")} (one per issue time) as lock-step steps; the trace itself ` +
              `ends at ${fmt(end)} us (docs/cost-model.md)\n`,
          );
        }
        if (o.json) return ctx.io.out(JSON.stringify(o.steps ? c : { ...c, steps: undefined }, null, 2) + "\n");
        let text = formatCost(c, ctx.io.stdoutColumns);
        if (o.steps && c.steps.length > 0)
          text += table(
            [
              ["step", "stage", "time (us)", "longest", "messages"],
              ...c.steps.map((x) => [String(x.step), String(x.stage), fmt(x.time), fmt(x.longest), fmt(x.messages)]),
            ],
            ctx.io.stdoutColumns,
          );
        ctx.io.out(text);
      },
    );
}
