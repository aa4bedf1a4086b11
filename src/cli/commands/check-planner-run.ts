/**
 * check-planner's run: draws matrices (fast-check), plans, verifies and prints a shrunk counterexample (loaded only
 * when the command runs).
 */
import fc from "fast-check";
import { fail, isCommplanError } from "../../model/errors.js";
import { MAX_P, isSparse, matrixToRows, type CommMatrix } from "../../model/matrix.js";
import { MAX_SEED } from "../../model/param-spec.js";
import { refuseOutputOntoInput } from "../../io/file-output.js";
import { matrixToJsonText, writeMatrixFile } from "../../io/matrix-write.js";
import { matrixFormatOfName } from "../../io/matrix-read.js";
import { outputFormat } from "../output-format.js";
import { anyMatrixArb } from "../../testing/planner-matrices.js";
import { patternArb } from "../../testing/pattern-arbitraries.js";
import { findPattern } from "../../patterns/registry.js";
import { asyncPlannerProperty, replayFailure } from "../../testing/planner-property.js";
import { DETERMINISM_CHECK } from "../../testing/determinism.js";
import { failureLine, type CheckFailure } from "../../testing/schedule-check.js";
import { ScheduleCheckError } from "../../testing/verify-or-throw.js";
import type { CliContext } from "../context.js";
import type { CommandRunner } from "./check-planner-runners.js";
import type { ModuleRunner } from "./check-planner-sandbox.js";
import { intOption } from "../io.js";
import { commandRunner } from "./check-planner-runners.js";
import { moduleRunner } from "./check-planner-sandbox.js";
import { DEFAULT_MAX_ENTRY, MAX_CHECK_P, type CheckPlannerOptions } from "./check-planner.js";
import { boundsOf, boundsText } from "./check-planner-bounds.js";
import { counted } from "../../internal/plural.js";
import { cliMessage } from "../option-flags.js";
import { inputErrorLine } from "../exit-code.js";
import { printJson, refuseJsonOnStdout } from "./json-summary.js";
import { portsOption, VERIFIER_PORTS } from "../ports-option.js";

/**
 * The matrices of --family: "any" (every shape, densities 0..1, empty rows, dense and sparse storage, and every pattern
 * family) or a pattern of `commplan gen`.
 */
function matricesOf(o: CheckPlannerOptions): { arb: fc.Arbitrary<CommMatrix>; text: string } {
  const minP = intOption("min-p", o.minP, 1, MAX_CHECK_P);
  const maxP = intOption("max-p", o.maxP, 1, Math.min(MAX_P, MAX_CHECK_P));
  if (maxP < minP)
    throw fail("check-planner", "BAD_OPTION", `--max-p ${maxP} is below --min-p ${minP}`, { field: "max-p" });
  if (o.family !== "any" && o.maxEntry !== undefined)
    throw fail(
      "check-planner",
      "BAD_OPTION",
      `--max-entry goes with --family any (pattern ${o.family}'s entries are its own)`,
      { field: "max-entry" },
    );
  const maxEntry = intOption("max-entry", o.maxEntry ?? String(DEFAULT_MAX_ENTRY), 1, 2 ** 40);
  if (o.family === "any")
    return {
      arb: anyMatrixArb({ minP, maxP, maxEntry }),
      text: `any matrix, P ${minP}..${maxP}, entries up to ${maxEntry}`,
    };
  // a fixed-size pattern (ranka-fig1) keeps its own P whatever --min-p and --max-p say: the summary says so
  const fixed = findPattern(o.family).fixedP;
  const range = fixed === undefined ? `P ${minP}..${maxP}` : `P = ${fixed} (a fixed-size pattern)`;
  return { arb: patternArb(o.family, { minP, maxP }), text: `pattern ${o.family}, ${range}` };
}

/** The counterexample as text: its rows when P <= 16, else its size. */
function matrixText(m: CommMatrix): string {
  if (m.p > 16) return `  (P = ${m.p}: too wide to print; write it with -o)\n`;
  return matrixToRows(m)
    .map((r) => `  ${r.join(" ")}\n`)
    .join("");
}

/** How the witness of a counterexample that does not reproduce ends. */
const REPLAY_PASSED = "then passed twice on replay";

/**
 * The failure to print for a counterexample, after planning it twice more (unless its failure is 'deterministic'
 * already): the shrunk failure when the replay shows it again, the replay's failure when it differs (its two plans
 * disagree: 'deterministic'), and a 'deterministic' failure when the counterexample passes on replay.
 */
async function replayed(
  runner: (m: CommMatrix) => Promise<unknown>,
  m: CommMatrix,
  shrunk: CheckFailure,
  checks: Parameters<typeof replayFailure>[2],
): Promise<CheckFailure> {
  // two differing outputs were seen already: a replay that happens to agree proves nothing
  if (shrunk.check === DETERMINISM_CHECK) return shrunk;
  const again = await replayFailure(runner, m, checks);
  if (again === null)
    return {
      check: DETERMINISM_CHECK,
      title: "the same matrix planned twice gives the same schedule",
      witness: `nondeterministic planner: on the counterexample it failed (${failureLine(shrunk)}), ${REPLAY_PASSED}`,
    };
  return again.check === shrunk.check ? shrunk : again;
}

/** Runs the property and reports; sets exit code 1 on a counterexample. */
export async function checkPlanner(module: string | undefined, o: CheckPlannerOptions, ctx: CliContext): Promise<void> {
  if ((module === undefined) === (o.command === undefined))
    throw fail("check-planner", "BAD_OPTION", 'give either a planner module or --command "cmd {matrix} {schedule}"', {
      field: "command",
    });
  const runs = intOption("runs", o.runs, 1, 1_000_000);
  const seed = intOption("seed", o.seed, 0, MAX_SEED);
  const ports = portsOption(o.ports, { command: "check-planner", ...VERIFIER_PORTS });
  const { arb, text: family } = matricesOf(o);
  const bounds = boundsOf(o);
  const text = `${family}${boundsText(o)}`;
  await refuseOutputOntoInput("check-planner", [module], [["--output", o.output]]);
  if (o.output !== undefined) refuseJsonOnStdout("check-planner", o.json, o.output);
  const timeout = intOption("timeout", o.timeout, 1, 86_400);
  const command = o.command === undefined ? null : commandRunner(o.command, timeout * 1000);
  let sandboxed: ModuleRunner | null = null;
  if (command === null)
    try {
      sandboxed = await moduleRunner(module!, { heapBytes: ctx.maxMemory, timeoutMs: timeout * 1000 });
    } catch (e) {
      // refused (exit 2, the line on stderr): with --json the document says so too
      if (o.json && isCommplanError(e)) printJson(ctx, notLoaded(module!, seed, text, inputErrorLine(e, ctx.command)));
      throw e;
    }
  try {
    await report(module, o, ctx, { command, sandboxed, runs, seed, ports, arb, bounds, text, timeout });
  } finally {
    await sandboxed?.close();
  }
}

/** The --json document of a module refused before any run: verdict not-loaded, and the line (stderr's) saying why. */
function notLoaded(module: string, seed: number, matrices: string, line: string | null): object {
  return {
    format: "commplan.check-planner/v1",
    planner: { module },
    verdict: "not-loaded",
    runs: 0,
    shrinks: 0,
    seed,
    matrices,
    counterexample: null,
    failure: null,
    hungWhileShrinking: null,
    output: null,
    loadError: line,
  };
}

/** What checkPlanner read from its options, for its run and report. */
interface Checked {
  readonly command: CommandRunner | null;
  readonly sandboxed: ModuleRunner | null;
  readonly runs: number;
  readonly seed: number;
  readonly ports: number;
  readonly arb: fc.Arbitrary<CommMatrix>;
  readonly bounds: ReturnType<typeof boundsOf>;
  readonly text: string;
  readonly timeout: number;
}

/** Runs the property on the planner and prints the verdict. */
async function report(module: string | undefined, o: CheckPlannerOptions, ctx: CliContext, c: Checked): Promise<void> {
  const { command, sandboxed, runs, seed, ports, arb, bounds, text, timeout } = c;
  const runner = (command ?? sandboxed)!;
  const checks = { ports, allowUnproven: o.allowUnproven === true, ...bounds };
  const prop = asyncPlannerProperty(runner, { matrices: arb, ...checks });
  // fast-check's seed is a signed 32-bit integer; --seed takes 0 .. 2^32 - 1 like every other command
  const r = await fc.check(prop, { numRuns: runs, seed: seed | 0 });
  const who = module ?? `--command ${o.command}`;
  // with -o -, stdout carries the counterexample alone: the report goes to stderr
  const say = (text: string): void => (o.output === "-" ? ctx.io.err(text) : ctx.io.out(text));
  const summary = (verdict: string, rest: object): void =>
    printJson(ctx, {
      format: "commplan.check-planner/v1",
      planner: module === undefined ? { command: o.command! } : { module },
      verdict,
      runs: r.numRuns,
      shrinks: r.numShrinks,
      seed,
      matrices: text,
      ...rest,
      loadError: null,
    });
  if (!r.failed) {
    if (o.json) return summary("pass", { counterexample: null, failure: null, hungWhileShrinking: null, output: null });
    say(
      `check-planner: ${who}: ${counted(r.numRuns, "run passes", "runs pass")} every check (seed ${seed}; ${text})\n`,
    );
    return;
  }
  const hung = runner.hung;
  const it = command === null ? "the planner" : "the command";
  const m = hung ?? r.counterexample?.[0];
  const e = r.errorInstance;
  if (m === undefined || !(e instanceof ScheduleCheckError)) throw e instanceof Error ? e : new Error(String(e));
  ctx.exitCode = 1;
  const f = hung === null ? await replayed(runner, m, e, checks) : e;
  // in the storage a module was given (a failure only on sparse matrices reproduces from the written entries); a
  // command always reads rows
  const sparse = command === null && isSparse(m);
  // the file's format by its extension (.csv, .mtx: what readMatrixFile reads it as), else JSON, as gen writes
  if (o.output !== undefined) {
    const format = outputFormat("check-planner", undefined, o.output, matrixFormatOfName, "json");
    await writeMatrixFile(m, o.output, format, { sparse, stdout: ctx.stdout });
  }
  // a hang after the run that failed first came while shrinking that failure: both are said
  const whileShrinking = hung !== null && runner.hungRun > r.numRuns;
  if (o.json)
    return summary(hung === null ? "fail" : "timeout", {
      counterexample: JSON.parse(matrixToJsonText(m, { sparse })) as object,
      failure: { check: f.check, title: f.title, witness: cliMessage(f.witness) },
      hungWhileShrinking: hung === null ? null : whileShrinking,
      output: o.output ?? null,
    });
  const head =
    hung === null
      ? `FAIL after ${counted(r.numRuns, "run", "runs")}, shrunk ${counted(r.numShrinks, "time", "times")} (seed ${seed}; ${text})\n${cliMessage(failureLine(f))}`
      : whileShrinking
        ? `FAIL after ${counted(r.numRuns, "run", "runs")} (seed ${seed}; ${text}); while that failure was shrunk, ${it} ran past --timeout ${timeout} s on a smaller matrix and was killed; no further run`
        : `FAIL: ${it} ran past --timeout ${timeout} s and was killed; no further run (seed ${seed}; ${text})`;
  const written = o.output === undefined ? "" : ` (written to ${o.output === "-" ? "stdout" : o.output})`;
  say(
    `check-planner: ${who}: ${head}\n` +
      `${hung === null ? "counterexample" : "the matrix it was on"}, P = ${m.p}${sparse ? ", stored sparse" : ""}${written}:\n${matrixText(m)}`,
  );
}
