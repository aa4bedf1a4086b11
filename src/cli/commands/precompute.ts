/**
 * commplan precompute: plans a whole family (patterns x P x seeds x machines x algorithms) into a plan store with every
 * core, resumably, one shard of it at a time if asked.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { Option, type Command } from "commander";
import { counted } from "../../internal/plural.js";
import { fail } from "../../model/errors.js";
import { MIN_BUDGET } from "../../model/memory-budget.js";
import { cliMessage } from "../option-flags.js";
import { openPlanStore } from "../../store/index.js";
import { programsDamage } from "../../store/store-programs.js";
import type { CliContext } from "../context.js";
import { intOption, refuseDashDirectory } from "../io.js";
import { newBar } from "../progress.js";
import { printJson } from "./json-summary.js";
import { readPrecomputeSpec, runPrecomputeJob, type JobOutcome, type PrecomputeJob } from "../precompute-jobs.js";
import {
  checkCapture,
  defaultCaptureRuntime,
  precomputeCapture,
  readCaptures,
  type CaptureOutcome,
} from "../precompute-capture.js";
import { captureSummary, type CaptureResult } from "../precompute-capture-summary.js";
import { inputErrorLine } from "../exit-code.js";
import { RUNTIME_MODELS, type RuntimeModel } from "../../machines/runtime/runtime-model.js";
import type { MachineModel } from "../../model/machine.js";
import { freeCopiesOption, MACHINE_OF_RUNTIME_HELP, machineOfFlags, runtimeOfFlags } from "./runtime-flags.js";
import { checkNetworkFlags, loadNetworkFlags, networkOption, portSharingOption } from "./network-flags.js";
import { topologyGraph } from "./topologies.js";
import type { PortSharing } from "../../machines/sim/options.js";

/** Parses --shard i/n (0 <= i < n). */
export function parseShard(v: string): { i: number; n: number } {
  const m = /^(\d+)\/(\d+)$/.exec(v);
  const i = m === null ? NaN : Number(m[1]),
    n = m === null ? NaN : Number(m[2]);
  if (!(n >= 1 && i >= 0 && i < n && Number.isSafeInteger(n)))
    throw fail("precompute", "BAD_OPTION", `--shard must be i/n with 0 <= i < n, got '${v}'`, { field: "shard" });
  return { i, n };
}

/** The jobs of shard i of n: every n-th job from the i-th (a deterministic split of the job list). */
export function shardJobs<T>(jobs: readonly T[], shard: { i: number; n: number }): T[] {
  return jobs.filter((_, k) => k % shard.n === shard.i);
}

/**
 * A worker running `url`; from the TypeScript sources (tsx), the worker registers tsx's loader first (workers do not
 * inherit it).
 */
function newWorker(url: URL, dir: string, budget: number): Worker {
  const workerData = { dir, budget };
  if (!url.pathname.endsWith(".ts")) return new Worker(url, { workerData });
  const api = import.meta.resolve("tsx/esm/api");
  const code = `import(${JSON.stringify(api)}).then((t) => { t.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(code, { eval: true, workerData });
}

type Done = (k: number, outcome: JobOutcome) => void;

/** Runs the jobs on `threads` worker threads, each pulling the next job when it finishes one. */
async function runOnWorkers(
  dir: string,
  jobs: readonly PrecomputeJob[],
  threads: number,
  maxMemory: number,
  done: Done,
): Promise<void> {
  const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  const url = new URL(`../precompute-worker${ext}`, import.meta.url);
  // the workers plan at once: each gets its share of this run's memory budget (--max-memory)
  const workers = Math.min(threads, jobs.length);
  const budget = Math.max(MIN_BUDGET, Math.floor(maxMemory / workers));
  let next = 0;
  let failure: string | null = null;
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const w = newWorker(url, dir, budget);
      const feed = (): void => {
        if (next < jobs.length && failure === null) {
          const k = next++;
          w.postMessage({ k, job: jobs[k] });
        } else w.postMessage(null);
      };
      w.on("message", (msg: { k: number; outcome?: JobOutcome; error?: string }) => {
        if (msg.error !== undefined) failure ??= msg.error;
        else done(msg.k, msg.outcome!);
        feed();
      });
      w.on("error", (e) => {
        failure ??= e.message; // the other workers stop taking jobs
        reject(e);
      });
      w.on("exit", () => resolve());
      feed();
    });
  await Promise.all(Array.from({ length: workers }, one));
  const failed = failure as string | null; // set by the message handlers
  if (failed !== null) throw fail("precompute", "BAD_INPUT", failed.replace(/^[a-z-]+: /, ""));
}

function describeJob(j: PrecomputeJob): string {
  return `${j.pattern} P=${j.p} seed=${j.seed}${j.machine === null ? "" : ` machine=${j.machine}`} ${j.algorithm}`;
}

interface PrecomputeFlags {
  store: string;
  jobs: string;
  shard?: string;
  json?: boolean;
  fromCapture?: string;
  machine?: string;
  runtime?: string;
  freeCopies?: boolean;
  network?: string;
  portSharing?: PortSharing;
}

/** --runtime's value that plans on the papers' one-port model of the machine. */
const ONE_PORT = "none";

/** The runtime model --runtime and --free-copies name (the machine's default without --runtime), or null for none. */
function captureRuntime(o: PrecomputeFlags, machine: MachineModel): RuntimeModel | null {
  const known = [...RUNTIME_MODELS.map((r) => r.name), ONE_PORT];
  if (o.runtime !== undefined && !known.includes(o.runtime))
    throw fail("precompute", "BAD_OPTION", `unknown runtime '${o.runtime}'; known: ${known.join(", ")}`, {
      field: "runtime",
    });
  if (o.runtime === ONE_PORT) {
    if (o.freeCopies === true)
      throw fail("precompute", "BAD_OPTION", "--free-copies goes with a runtime model, not --runtime none", {
        field: "freeCopies",
      });
    return null;
  }
  return runtimeOfFlags("precompute", o.runtime ?? defaultCaptureRuntime(machine).name, o.freeCopies);
}

/** The line precompute --from-capture prints (on stdout, without --json) of what it did with a captured pattern. */
function captureLine(out: CaptureOutcome): string {
  const pat = out.pattern;
  const was = out.was === undefined ? "" : ` (was planned for ${out.was})`;
  const verdict = `${out.replay ? "replay" : "fall back"} (${out.reason})`;
  return `${pat.key} ${pat.kinds.join(" and ")} ${counted(pat.calls, "call", "calls")} at ${pat.sites.join(", ")}: ${out.status}${was}, ${out.algorithm} (${out.variant}), ${verdict}\n`;
}

/**
 * precompute --from-capture: every captured pattern checked (its matrix read, its key, P and element size compared with
 * its record), then planned, stored and lowered for libcommplan, one at a time. With --json the patterns' lines give
 * way to one commplan.precompute-capture/v1 document, printed also when a pattern fails (before its one-line error).
 */
async function fromCapture(specFile: string | undefined, o: PrecomputeFlags, ctx: CliContext): Promise<void> {
  if (specFile !== undefined) throw fail("precompute", "BAD_OPTION", "give a spec file or --from-capture, not both");
  if (o.shard !== undefined)
    throw fail("precompute", "BAD_OPTION", "--from-capture takes no --shard", { field: "fromCapture" });
  const needs = "--from-capture needs --machine (auto plans for it), or a --runtime made for one machine";
  const machine = machineOfFlags("precompute", o, needs, [ONE_PORT]);
  const runtime = captureRuntime(o, machine);
  checkNetworkFlags("precompute", o, machine);
  if (o.network !== undefined && runtime === null)
    throw fail(
      "precompute",
      "BAD_OPTION",
      "--network goes with a runtime model (--runtime none plans on the one-port model, which has no network)",
      { field: "network" },
    );
  const patterns = readCaptures(o.fromCapture!);
  // every record and matrix checked before any is planned: a damaged capture leaves the store as it was
  for (const pat of patterns) checkCapture(pat, ctx.maxMemory);
  // and the network built for each P: one too small for a pattern is refused before any is planned, not after some
  if (o.network !== undefined)
    for (const p of [...new Set(patterns.map((x) => x.p))].sort((a, b) => b - a))
      topologyGraph(o.network, p, ctx.maxMemory, machine);
  // a file or a link at programs/ is a damaged part: written through, a link would put the programs outside the store
  const damagedPrograms = programsDamage(openPlanStore(o.store, true));
  if (damagedPrograms !== null)
    throw fail("store", "BAD_INPUT", `${damagedPrograms.file}: ${damagedPrograms.problem}: run 'commplan store gc'`);
  const counts = { added: 0, present: 0, replaced: 0, replayed: 0 };
  const spec = o.network;
  const network =
    spec === undefined
      ? undefined
      : {
          spec,
          portSharing: o.portSharing ?? "serial",
          routes: (p: number) => loadNetworkFlags(o, p, ctx.maxMemory, machine),
        };
  const target = { machine, runtime, maxMemory: ctx.maxMemory, network };
  const results: CaptureResult[] = [];
  for (const pat of patterns) {
    let out: CaptureOutcome;
    try {
      out = await precomputeCapture(o.store, pat, target);
    } catch (e) {
      const line = o.json === true ? inputErrorLine(e, "precompute") : null;
      if (line !== null) {
        results.push({ pattern: pat, failed: line });
        for (const rest of patterns.slice(results.length)) results.push({ pattern: rest, skipped: true });
        printJson(ctx, captureSummary(o.fromCapture!, o.store, target, results));
      }
      throw e;
    }
    results.push({ pattern: pat, outcome: out });
    counts[out.status]++;
    if (out.replay) counts.replayed++;
    if (o.json !== true) ctx.io.out(captureLine(out));
  }
  const on =
    (runtime === null ? `${machine.name}, one-port model` : `${machine.name}, runtime ${runtime.name}`) +
    (spec === undefined ? "" : `, network ${spec}`);
  ctx.io.err(
    `precompute: ${counted(patterns.length, "captured pattern", "captured patterns")} (${on}): ${counts.added} added, ${counts.present} present, ${counts.replaced} replaced, ${counts.replayed} to replay\n`,
  );
  if (o.json === true) printJson(ctx, captureSummary(o.fromCapture!, o.store, target, results));
}

/** Registers `precompute`. */
export function registerPrecompute(program: Command, ctx: CliContext): void {
  program
    .command("precompute")
    .description(
      "plan every pattern x P x seed x machine x algorithm of a spec (schemas/precompute-spec.v1.schema.json) into a plan store on every core; entries present and sound are skipped, so a rerun resumes",
    )
    .argument("[spec]", "the spec file (JSON), - for stdin; none with --from-capture")
    .requiredOption("--store <dir>", "the plan store (created when missing)")
    .addOption(
      new Option(
        "--jobs <n>",
        "worker threads for a spec's jobs (1: plan in this thread; --from-capture plans one pattern at a time)",
      ).default(String(availableParallelism()), `every core, ${availableParallelism()} here`),
    )
    .option("--shard <i/n>", "plan only shard i of n (jobs k with k mod n = i), e.g. $SLURM_ARRAY_TASK_ID/16")
    .option(
      "--json",
      "print every job with its outcome, and the totals, as commplan.precompute/v1 JSON; with --from-capture every captured pattern with its verdict and program, and the totals, as commplan.precompute-capture/v1 instead of one line per pattern",
    )
    .option(
      "--from-capture <dir>",
      "instead of a spec: plan (auto, for --machine and --runtime), store and lower every count matrix libcommplan captured in DIR (COMMPLAN_CAPTURE=DIR) into STORE/programs/<key>/ for its replay (docs/runtimes.md); a key planned for the same target is left as it is, one planned for another machine, runtime, network or port sharing is replaced",
    )
    .option(
      "--machine <name>",
      `with --from-capture: the machine auto plans for ('commplan machines' lists them); default: ${MACHINE_OF_RUNTIME_HELP}`,
    )
    .option(
      "--runtime <name>",
      `with --from-capture: the MPI runtime auto plans for (plan -a auto --runtime), ${RUNTIME_MODELS.map((r) => r.name).join(" or ")} ('commplan machines --json' lists them): its verdict against MPI_Alltoallv's default decides the replay and the program is lowered in the variant it names (dataflow or nonblocking); ${ONE_PORT}: the papers' one-port model, the nonblocking program (default: the runtime model made for --machine, else smpi)`,
    )
    .addOption(freeCopiesOption())
    .addOption(
      networkOption(
        "with --from-capture: auto plans on this network (each finalist's program replayed there, as plan -a auto --runtime --network does; needs a machine on the flat topology)",
      ),
    )
    .addOption(portSharingOption())
    .action(async (specFile: string | undefined, o: PrecomputeFlags, cmd: Command) => {
      refuseDashDirectory("precompute", "--store", o.store, "store");
      if (o.fromCapture !== undefined) {
        // --jobs has a default: given, it would be ignored (a capture's patterns are planned one at a time)
        if (cmd.getOptionValueSource("jobs") === "cli")
          throw fail("precompute", "BAD_OPTION", "--from-capture plans one pattern at a time: it takes no --jobs", {
            field: "jobs",
          });
        return fromCapture(specFile, o, ctx);
      }
      for (const [k, flag, what] of [
        ["runtime", "--runtime", "runtime"],
        ["freeCopies", "--free-copies", "runtime"],
        ["network", "--network", "network"],
        ["portSharing", "--port-sharing", "network"],
      ] as const)
        if (o[k] !== undefined)
          throw fail("precompute", "BAD_OPTION", `${flag} goes with --from-capture (a spec plans no ${what})`, {
            field: k,
          });
      if (specFile === undefined) throw fail("precompute", "BAD_OPTION", "give a spec file or --from-capture DIR");
      if (o.machine !== undefined)
        throw fail("precompute", "BAD_OPTION", "--machine goes with --from-capture (a spec lists its machines)", {
          field: "machine",
        });
      const threads = intOption("jobs", o.jobs, 1, 1024);
      const shard = o.shard === undefined ? { i: 0, n: 1 } : parseShard(o.shard);
      const jobs = shardJobs(readPrecomputeSpec(specFile), shard);
      openPlanStore(o.store, true);
      const counts = { added: 0, present: 0, unchecked: 0, unplannable: 0, damaged: 0 };
      const bar = ctx.io.interactive
        ? newBar(process.stderr, "precompute [{bar}] {percentage}% | {value}/{total} plans | eta {eta}s", jobs.length)
        : null;
      bar?.start(jobs.length, 0);
      const outcomes: (JobOutcome | null)[] = jobs.map(() => null);
      // while the bar is drawn, a line written beside it would join the bar's line, and the bar's end (which puts the
      // cursor back where the bar started) would write over it: the lines wait for the bar to end
      const held: string[] = [];
      const done: Done = (k, out) => {
        outcomes[k] = out;
        counts[out.status]++;
        bar?.increment();
        if (out.status !== "added" && out.status !== "present") {
          const line = `precompute: ${out.status}: ${describeJob(jobs[k]!)}: ${cliMessage(out.message ?? "")}\n`;
          if (bar === null) ctx.io.err(line);
          else held.push(line);
        }
      };
      try {
        if (threads === 1 || jobs.length <= 1)
          jobs.forEach((j, k) => done(k, runPrecomputeJob(o.store, j, ctx.maxMemory)));
        else await runOnWorkers(o.store, jobs, threads, ctx.maxMemory, done);
      } finally {
        bar?.stop();
        for (const line of held) ctx.io.err(line);
      }
      const sh = o.shard === undefined ? "" : ` (shard ${shard.i}/${shard.n})`;
      // shown when there are any, as store verify shows programs not checked
      const unchecked = counts.unchecked > 0 ? `${counts.unchecked} present but not checked, ` : "";
      ctx.io.err(
        `precompute: ${counted(jobs.length, "job", "jobs")}${sh}: ${counts.added} added, ${counts.present} present, ${unchecked}${counts.unplannable} unplannable, ${counts.damaged} damaged\n`,
      );
      if (counts.damaged > 0) ctx.exitCode = 1;
      if (o.json)
        printJson(ctx, {
          format: "commplan.precompute/v1",
          shard,
          jobs: jobs.map((j, k) => ({
            ...j,
            ...outcomes[k]!,
            message: cliMessage(outcomes[k]!.message ?? "") || null,
          })),
          totals: { jobs: jobs.length, ...counts },
        });
    });
}
