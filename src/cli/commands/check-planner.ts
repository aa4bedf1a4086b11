/**
 * commplan check-planner: property-test a user's planner (an ES module or a command) against the verifier, printing a
 * shrunk counterexample.
 */
import { Option, type Command } from "commander";
import { PATTERNS } from "../../patterns/index.js";
import { COST_MODES } from "../../machines/cost-model.js";
import { DEFAULT_MODE } from "./check-planner-bounds.js";
import type { CliContext } from "../context.js";

/** The options of check-planner as commander gives them. */
export interface CheckPlannerOptions {
  command?: string;
  runs: string;
  seed: string;
  family: string;
  minP: string;
  maxP: string;
  maxEntry?: string;
  ports: string;
  allowUnproven?: boolean;
  output?: string;
  timeout: string;
  maxSteps?: string;
  maxBuffer?: string;
  timeFactor?: string;
  machine?: string;
  mode?: string;
  json?: boolean;
}

/** The largest entry of --family any without --max-entry. */
export const DEFAULT_MAX_ENTRY = 100;

/** The largest P check-planner draws (matrices are drawn as maxP^2 cells). */
export const MAX_CHECK_P = 256;

/** Registers `check-planner`. */
export function registerCheckPlanner(program: Command, ctx: CliContext): void {
  program
    .command("check-planner")
    .argument(
      "[module]",
      "an ES module exporting plan(matrix) that returns a schedule (commplan.schedule/v1 object or JSON text)",
    )
    .description(
      "property-test a planner: plan random matrices, verify every schedule, shrink a failure to a small counterexample; exit 1 when one is found",
    )
    .option(
      "--command <cmd>",
      "run a planner in any language instead: a command line with {matrix} (matrix JSON in) and {schedule} (schedule JSON out)",
    )
    .option(
      "--timeout <s>",
      "seconds one run of the planner may take; past it the planner (its worker, or the command) is stopped and the matrix it was on is the counterexample; a module's load has the same limit (past it the module is refused, exit 2)",
      "60",
    )
    .option("--runs <n>", "matrices to try", "100")
    .option("--seed <s>", "seed of the matrices (the same seed tries the same matrices)", "1")
    .addOption(
      new Option(
        "--family <name>",
        "matrices: any (random, dense and sparse, and every pattern), or a pattern of 'commplan patterns' that reads no file",
      )
        .choices(["any", ...PATTERNS.filter((p) => p.file === undefined).map((p) => p.name)])
        .default("any"),
    )
    .option("--min-p <n>", "smallest P", "1")
    .option("--max-p <n>", `largest P (at most ${MAX_CHECK_P})`, "8")
    .option("--max-entry <n>", `largest entry of --family any (up to 2^40; default ${DEFAULT_MAX_ENTRY})`)
    .option(
      "--ports <k>",
      "send and receive ports per node, or 'unlimited' (a plan posting many messages at once)",
      "1",
    )
    .option("--max-steps <n>", "bound: at most this many steps (an integer or a linear function of P: P, 2P, P-1)")
    .option(
      "--max-buffer <n>",
      "bound: no node holds more than this many elements at a step boundary (an integer or a function of P)",
    )
    .option(
      "--time-factor <x>",
      "bound: modelled time on --machine at most x times the kit's traffic lower bound (docs/testing-kit.md)",
    )
    .option("--machine <name>", "with --time-factor: the machine of the time bound (see 'commplan machines')")
    .addOption(
      new Option(
        "--mode <mode>",
        `with --time-factor: the cost mode of the time bound (default ${DEFAULT_MODE})`,
      ).choices(COST_MODES),
    )
    .option(
      "--allow-unproven",
      "accept a relaying plan without payload chunks whose delivery the verifier cannot decide",
    )
    .option(
      "-o, --output <file>",
      "write the shrunk counterexample matrix here, atomically: CSV or Matrix Market by the extension (.csv, .mtx), else JSON; - for stdout, the report then on stderr",
    )
    .option(
      "--json",
      "print the verdict, the counterexample (commplan.matrix/v1) and the failing check as commplan.check-planner/v1 JSON (not with -o -)",
    )
    .action(async (module: string | undefined, o: CheckPlannerOptions) =>
      // fast-check and the testing kit load only when this command runs, not at every CLI start
      (await import("./check-planner-run.js")).checkPlanner(module, o, ctx),
    );
}
