/**
 * commplan compare: every applicable planner on one matrix side by side (steps, start-ups, traffic, buffer, modelled
 * and simulated time, ratio to the lower bound); charts, a size sweep and an HTML report.
 */
import { cliMessage } from "../option-flags.js";
import { Option, type Command } from "commander";
import { compareChartSvg } from "../../compare/compare-chart.js";
import { compareMatrix, compareText, fastest } from "../../compare/compare.js";
import { compareHtml, type BestPlan } from "../../compare/html-report.js";
import { sweepChartSvg } from "../../compare/sweep-chart.js";
import { parseSweep, runSweep, type SweepReport } from "../../compare/sweep.js";
import { checkOutputTargets, refuseOutputOntoInput, writeOutputs, type OutputDocument } from "../../io/file-output.js";
import { readMatrixFile } from "../../io/matrix-read.js";
import { matrixBytes } from "../../model/matrix.js";
import { findMachine } from "../../machines/presets.js";
import { simulateSchedule } from "../../machines/sim/simulate.js";
import type { SimMode } from "../../machines/sim/options.js";
import { networkOptions } from "../../machines/sim/network-options.js";
import { fail } from "../../model/errors.js";
import { checkMemory } from "../../model/memory-budget.js";
import { MAX_SEED } from "../../model/param-spec.js";
import { PLANNERS, findPlanner } from "../../planner/registry.js";
import type { Planner } from "../../planner/types.js";
import type { CliContext } from "../context.js";
import { withProgress } from "../progress.js";
import {
  checkNetworkFlags,
  loadNetworkFlags,
  networkInputFile,
  networkOption,
  portSharingOption,
  type NetworkFlags,
} from "./network-flags.js";
import { ELEMENT_BYTES_HELP, fmt, intOption, matrixReadOptions, table } from "../io.js";
import { counted } from "../../internal/plural.js";
import { refuseStdoutTarget } from "./json-summary.js";
import { portsOption, SIMULATOR_PORTS } from "../ports-option.js";
import { freeCopiesOption, runtimeOfFlags, runtimeTargetOption } from "./runtime-flags.js";
import type { RuntimeModel } from "../../machines/runtime/runtime-model.js";

interface CompareFlags extends NetworkFlags {
  machine: string;
  mode: SimMode;
  ports?: string;
  seed: string;
  algorithms?: string;
  json?: boolean;
  svg?: string;
  sweep?: string;
  html?: string;
  elementBytes?: string;
  runtime?: string;
  freeCopies?: boolean;
}

/**
 * --runtime's model (with --free-copies), or null without it; refused beside --sweep, --svg and --html, which draw the
 * simulated machine's times, and --free-copies without it (plan's check).
 */
function compareRuntime(o: CompareFlags): RuntimeModel | null {
  if (o.runtime === undefined) {
    if (o.freeCopies === true)
      throw fail("compare", "BAD_OPTION", "--free-copies goes with --runtime (a runtime model's copies)", {
        field: "freeCopies",
      });
    return null;
  }
  const runtime = runtimeOfFlags("compare", o.runtime, o.freeCopies);
  for (const [k, flag] of [
    ["sweep", "--sweep"],
    ["svg", "--svg"],
    ["html", "--html"],
  ] as const)
    if (o[k] !== undefined)
      throw fail(
        "compare",
        "BAD_OPTION",
        `--runtime does not go with ${flag}, which shows the simulated machine's times; run it without --runtime`,
        { field: k },
      );
  return runtime;
}

/**
 * The planners named by --algorithms (comma-separated), every planner without it. auto is refused with what to do
 * instead: it is no planner but a choice among them, which compare's rows already show (each planner with its default
 * parameters, the fastest marked); its pick, parameter variants included, is plan --algorithm auto's.
 */
function selectPlanners(list: string | undefined): readonly Planner[] {
  if (list === undefined) return PLANNERS;
  const names = list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0)
    throw fail("compare", "BAD_OPTION", "--algorithms needs at least one name", { field: "algorithms" });
  if (names.includes("auto"))
    throw fail(
      "compare",
      "BAD_OPTION",
      "--algorithms takes planners, and auto is not one: compare already runs every planner auto chooses from (each " +
        "with its default parameters) and marks the fastest; for auto's own pick, run plan --algorithm auto",
      { field: "algorithms" },
    );
  return [...new Set(names)].map(findPlanner);
}

/**
 * The sweep as a text table after a blank line (none without a sweep): simulated time per planner (columns) per factor
 * (rows), then the crossovers; fitted to a terminal's `width` (table).
 */
function sweepText(sw: SweepReport | null, width: number | undefined): string {
  if (sw === null) return "";
  const rows = [["factor", "mean msg B", ...sw.algorithms, "bound", "fastest"]];
  for (const p of sw.points)
    rows.push([fmt(p.factor), fmt(p.meanMessageBytes), ...p.times.map((t) => fmt(t)), fmt(p.bound), p.best ?? "-"]);
  let text = `\nsweep: simulated ${sw.mode} time (us) against message size\n` + table(rows, width);
  for (const c of sw.crossovers.filter((x) => x.leaderChange))
    text += `crossover: ${c.after} becomes the fastest (over ${c.before}) at about ${fmt(c.meanMessageBytes)} bytes per message\n`;
  const others = sw.crossovers.filter((x) => !x.leaderChange).length;
  if (others > 0)
    text += `${counted(others, "other crossover", "other crossovers")} between slower planners (--json lists them)\n`;
  return text;
}

/**
 * The HTML report, made as the writer takes it: the fastest plan is simulated again for its timeline only then (an
 * error there leaves no output: writeOutputs).
 */
function* htmlPieces(
  report: Parameters<typeof compareHtml>[0],
  sweep: Parameters<typeof compareHtml>[1],
  candidates: Parameters<typeof fastest>[0],
  simulate: (s: BestPlan["schedule"]) => BestPlan["sim"],
  routes: BestPlan["routes"] | null,
): Generator<string> {
  // the report's fastest (none when no plan moves anything)
  const k = report.best === null ? -1 : candidates.findIndex((c) => c.algorithm === report.best);
  let best: BestPlan | null = null;
  if (k >= 0) {
    const s = candidates[k]!.schedule;
    best = { schedule: s, sim: simulate(s), ...(routes ? { routes } : {}) };
  }
  yield compareHtml(report, sweep, best);
}

/** Refuses an --svg or --html target that is stdout ("-", /dev/stdout...): stdout carries the comparison. */
function refuseStdoutTargets(targets: readonly (readonly [string, string | undefined])[]): void {
  for (const [flag, target] of targets)
    refuseStdoutTarget(
      "compare",
      flag,
      target,
      `stdout carries the comparison; write ${flag} to a file`,
      flag.slice(2),
    );
}

/** How --runtime times the plans (runtimeTargetOption's `how`). */
const RUNTIME_HELP =
  "each plan is lowered and its program replayed as the runtime runs it (on --network or the machine's flat cluster; unlimited ports), in the faster of its dataflow and nonblocking variants, as plan --algorithm auto --runtime predicts its finalists: a column of the table and the JSON's runtime, which rank the plans; also MPI_Alltoallv's default there as the library runs it; not with --sweep, --svg or --html";

/** Registers `compare`. */
export function registerCompare(program: Command, ctx: CliContext): void {
  program
    .command("compare")
    .argument("<matrix>", "matrix file: JSON, CSV or Matrix Market; - for stdin")
    .description(
      "plan a matrix with every applicable planner and compare the plans: steps, start-ups, longest message, traffic, peak relay (relayed elements held at once), modelled time (blocking, nonblocking), simulated makespan, ratio to the lower bound (docs/bounds.md)",
    )
    .requiredOption("--machine <name>", "machine model (see 'commplan machines')")
    .addOption(
      new Option("--mode <mode>", "mode of the simulated machine")
        .choices(["blocking", "nonblocking"])
        .default("blocking"),
    )
    .option("--ports <k>", "send and receive ports per node on the simulated machine (default: the machine's)")
    .option("--seed <n>", "seed of the planners and the simulator", "1")
    .option("--algorithms <list>", "comma-separated planners to compare, not auto (default: every planner)")
    .option("--json", "print the comparison as commplan.compare/v1 JSON")
    .option("--svg <file>", "write a chart: the bars per planner, or with --sweep time against message size (log-log)")
    .option(
      "--sweep <factors>",
      "also run the matrix scaled by factors: a range a..b (a, 2a, 4a, ... up to b; e.g. 1/16..16) or a list (0.5,1,4)",
    )
    .option(
      "--html <file>",
      "write a self-contained HTML report (table, charts, the best plan's step grid, timeline and per-node load)",
    )
    .option("--element-bytes <n>", ELEMENT_BYTES_HELP)
    .addOption(
      networkOption(
        "simulate every plan on a network with link contention, and bound by its links (needs a machine on the flat topology)",
      ),
    )
    .addOption(portSharingOption())
    .addOption(runtimeTargetOption("also time every plan on", RUNTIME_HELP))
    .addOption(freeCopiesOption())
    .action(async (file: string, o: CompareFlags) => {
      const machine = findMachine(o.machine);
      checkNetworkFlags("compare", o, machine);
      const runtime = compareRuntime(o);
      const seed = intOption("seed", o.seed, 0, MAX_SEED);
      const ports =
        o.ports === undefined ? machine.ports : portsOption(o.ports, { command: "compare", ...SIMULATOR_PORTS });
      const planners = selectPlanners(o.algorithms);
      const factors = o.sweep === undefined ? null : parseSweep(o.sweep);
      const targets = [
        ["--svg", o.svg],
        ["--html", o.html],
      ] as const;
      refuseStdoutTargets(targets);
      await refuseOutputOntoInput("compare", [file, networkInputFile(o)], targets);
      // both directories take a new file before any planner runs: a bad one fails now, with nothing written
      await checkOutputTargets("compare", targets);
      const m = readMatrixFile(file, matrixReadOptions(o, ctx.maxMemory));
      // every planner's plan and simulation is held at once: a few copies of the matrix each
      checkMemory(
        "compare",
        matrixBytes(m) * 8 * planners.length,
        `comparing ${planners.length} planners at P = ${m.p}`,
        ctx.maxMemory,
        {
          file,
        },
      );
      const network = loadNetworkFlags(o, m.p, ctx.maxMemory, machine);
      const req = { machine, seed, mode: o.mode, ports, planners, ...network, maxMemory: ctx.maxMemory };
      const onRuntime = runtime === null ? {} : { runtime };
      // one count for the comparison and the sweep after it (the sweep runs the same planners once per
      // factor), so the bar never starts over
      const sweeps = factors === null ? 0 : factors.length;
      let first = 0;
      const { result, sweep } = withProgress(ctx.io.interactive, "compare", "plans", (progress) => ({
        result: compareMatrix(m, {
          ...req,
          ...onRuntime,
          progress: (done, total) => {
            first = total;
            progress(done, total * (1 + sweeps));
          },
        }),
        sweep:
          factors === null ? null : runSweep(m, factors, req, (done, total) => progress(first + done, first + total)),
      }));
      const { run } = result;
      // a planner's refusal names the option maxMemory; the command line says --max-memory
      const skipped = result.report.skipped.map((x) => ({ ...x, reason: cliMessage(x.reason) }));
      const report = { ...result.report, skipped };
      const docs: OutputDocument[] = [];
      if (o.svg !== undefined)
        docs.push({
          target: o.svg,
          pieces: (function* () {
            yield sweep === null
              ? compareChartSvg(report)
              : sweepChartSvg(
                  sweep,
                  `commplan compare --sweep: ${report.machine}, P = ${report.p}, simulated ${report.mode}`,
                );
          })(),
        });
      if (o.html !== undefined)
        docs.push({
          target: o.html,
          pieces: htmlPieces(
            report,
            sweep,
            run.candidates,
            (sch) =>
              simulateSchedule(sch, machine, { mode: o.mode, ports, seed, timeline: true, ...networkOptions(req) }),
            req.network ?? null,
          ),
        });
      // all or none: each is filled as a temporary file, then both are renamed into place (writeOutputs)
      await writeOutputs("compare", docs, { stdout: ctx.stdout });
      if (o.json) ctx.io.out(JSON.stringify(sweep === null ? report : { ...report, sweep }, null, 2) + "\n");
      else ctx.io.out(compareText(report, ctx.io.stdoutColumns) + sweepText(sweep, ctx.io.stdoutColumns));
    });
}
