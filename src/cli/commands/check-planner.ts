/** commplan check-planner: property-test a user's planner (an ES module or a command) against the verifier, printing a shrunk counterexample. */
import { Option, type Command } from "commander";
import fc from "fast-check";
import { fail } from "../../model/errors.js";
import { MAX_P, matrixToRows, type CommMatrix } from "../../model/matrix.js";
import { MAX_SEED } from "../../model/param-spec.js";
import { PATTERNS } from "../../patterns/index.js";
import { refuseOutputOntoInput } from "../../io/file-output.js";
import { writeMatrixFile } from "../../io/matrix-write.js";
import { matrixArb } from "../../testing/matrix-arbitraries.js";
import { patternArb } from "../../testing/pattern-arbitraries.js";
import { asyncPlannerProperty } from "../../testing/planner-property.js";
import { failureLine } from "../../testing/schedule-check.js";
import { ScheduleCheckError } from "../../testing/verify-or-throw.js";
import type { CliContext } from "../context.js";
import { intOption } from "../io.js";
import { commandRunner, moduleRunner } from "./check-planner-runners.js";

/** The options of check-planner as commander gives them. */
interface CheckPlannerOptions {
  command?: string;
  runs: string;
  seed: string;
  family: string;
  minP: string;
  maxP: string;
  maxEntry: string;
  ports: string;
  allowUnproven?: boolean;
  output?: string;
}

/** The largest P check-planner draws (matrices are drawn as maxP^2 cells). */
const MAX_CHECK_P = 256;

/** The matrices of --family: "any" (every shape, densities 0..1, empty rows) or a pattern of `commplan gen`. */
function matricesOf(o: CheckPlannerOptions): { arb: fc.Arbitrary<CommMatrix>; text: string } {
  const minP = intOption("min-p", o.minP, 1, MAX_CHECK_P);
  const maxP = intOption("max-p", o.maxP, 1, Math.min(MAX_P, MAX_CHECK_P));
  if (maxP < minP)
    throw fail("check-planner", "BAD_OPTION", `--max-p ${maxP} is below --min-p ${minP}`, { field: "max-p" });
  const maxEntry = intOption("max-entry", o.maxEntry, 1, 2 ** 40);
  if (o.family === "any")
    return {
      arb: matrixArb({ minP, maxP, maxEntry }),
      text: `any matrix, P ${minP}..${maxP}, entries up to ${maxEntry}`,
    };
  return { arb: patternArb(o.family, { minP, maxP }), text: `pattern ${o.family}, P ${minP}..${maxP}` };
}

/** The counterexample as text: its rows when P <= 16, else its size. */
function matrixText(m: CommMatrix): string {
  if (m.p > 16) return `  (P = ${m.p}: too wide to print; write it with -o)\n`;
  return matrixToRows(m)
    .map((r) => `  ${r.join(" ")}\n`)
    .join("");
}

/** Runs the property and reports; sets exit code 1 on a counterexample. */
async function checkPlanner(module: string | undefined, o: CheckPlannerOptions, ctx: CliContext): Promise<void> {
  if ((module === undefined) === (o.command === undefined))
    throw fail("check-planner", "BAD_OPTION", 'give either a planner module or --command "cmd {matrix} {schedule}"', {
      field: "command",
    });
  const runs = intOption("runs", o.runs, 1, 1_000_000);
  const seed = intOption("seed", o.seed, 0, MAX_SEED);
  const ports = intOption("ports", o.ports, 1, 1 << 20);
  const { arb, text } = matricesOf(o);
  await refuseOutputOntoInput("check-planner", [module], [["--output", o.output]]);
  const runner = module !== undefined ? await moduleRunner(module) : commandRunner(o.command!);
  const prop = asyncPlannerProperty(runner, { matrices: arb, ports, allowUnproven: o.allowUnproven === true });
  // fast-check's seed is a signed 32-bit integer; --seed takes 0 .. 2^32 - 1 like every other command
  const r = await fc.check(prop, { numRuns: runs, seed: seed | 0 });
  const who = module ?? `--command ${o.command}`;
  if (!r.failed) {
    ctx.io.out(`check-planner: ${who}: ${r.numRuns} run(s) pass every check (seed ${seed}; ${text})\n`);
    return;
  }
  const m = r.counterexample?.[0];
  const e = r.errorInstance;
  if (m === undefined || !(e instanceof ScheduleCheckError)) throw e instanceof Error ? e : new Error(String(e));
  ctx.exitCode = 1;
  if (o.output !== undefined) await writeMatrixFile(m, o.output, "json", { sparse: false });
  ctx.io.out(
    `check-planner: ${who}: FAIL after ${r.numRuns} run(s), shrunk ${r.numShrinks} time(s) (seed ${seed}; ${text})\n` +
      `${failureLine(e)}\n` +
      `counterexample, P = ${m.p}${o.output !== undefined ? ` (written to ${o.output})` : ""}:\n${matrixText(m)}`,
  );
}

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
    .option("--runs <n>", "matrices to try", "100")
    .option("--seed <s>", "seed of the matrices (the same seed tries the same matrices)", "1")
    .addOption(
      new Option("--family <name>", "matrices: any, or a pattern of 'commplan patterns'")
        .choices(["any", ...PATTERNS.map((p) => p.name)])
        .default("any"),
    )
    .option("--min-p <n>", "smallest P", "1")
    .option("--max-p <n>", `largest P (at most ${MAX_CHECK_P})`, "8")
    .option("--max-entry <n>", "largest entry of --family any (up to 2^40)", "100")
    .option("--ports <k>", "send and receive ports per node", "1")
    .option(
      "--allow-unproven",
      "accept a relaying plan without payload chunks whose delivery the verifier cannot decide",
    )
    .option("-o, --output <file>", "write the shrunk counterexample matrix here (JSON, atomically)")
    .action((module: string | undefined, o: CheckPlannerOptions) => checkPlanner(module, o, ctx));
}
