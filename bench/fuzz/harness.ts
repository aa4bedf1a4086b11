/** Fuzz harness: runs generated and mutated inputs through every reader and every command in process, and records crashes, hangs and memory per case. */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import fc from "fast-check";
import { main } from "../../src/cli/main.js";
import type { CliIo } from "../../src/cli/io.js";
import { parseMatrixText } from "../../src/io/matrix-read.js";
import { parseScheduleJsonText } from "../../src/io/schedule-json-read.js";
import { isCommplanError } from "../../src/model/errors.js";
import { parseByteSize, setMemoryBudget } from "../../src/model/memory-budget.js";
import {
  commandArb,
  EXTRA_OPTIONS,
  MATRIX_COMMANDS,
  SCHEDULE_COMMANDS,
  generatedMatrixArb,
  generatedScheduleArb,
  mutate,
  mutationArb,
  type CommandPick,
  type FuzzFile,
  type Mutation,
} from "./inputs.js";

/** Options of a fuzz run. */
export interface FuzzOptions {
  readonly cases: number;
  readonly seed: number;
  /** A case slower than this (ms) counts as a hang. */
  readonly budgetMs: number;
  /** The --max-memory every command gets (e.g. "256M"); a case whose peak memory grows past it counts as a memory failure. */
  readonly maxMemory: string;
  /** A scratch directory for the case files. */
  readonly workDir: string;
  /** Where the inputs of failing cases are saved (null: not saved). */
  readonly failuresDir: string | null;
  /** Progress callback every 1000 cases. */
  readonly progress?: (done: number, summary: FuzzSummary) => void;
}

/** What happened to a case. */
export type Outcome = "ok" | "check-failed" | "refused" | "crash" | "hang" | "memory";

/** One failing case, with what reproduces it. */
export interface FuzzFailure {
  readonly index: number;
  readonly outcome: Outcome;
  readonly argv: readonly string[];
  readonly detail: string;
  readonly ms: number;
  readonly peakBytes: number;
  readonly input: string | null;
}

/** The result of a run. */
export interface FuzzSummary {
  seed: number;
  cases: number;
  readerCalls: number;
  outcomes: Record<Outcome, number>;
  byCommand: Record<string, Record<Outcome, number>>;
  failures: FuzzFailure[];
  maxMs: number;
  maxMsArgv: readonly string[];
  /** The largest growth of the process's peak resident memory over one case (bytes). */
  maxPeakGrowth: number;
  maxPeakArgv: readonly string[];
  wallSeconds: number;
  budgetMs: number;
  maxMemory: string;
}

/** A case: where its main input comes from, its mutations, an optional second (matrix) file, and the command. */
interface FuzzCase {
  readonly source: { kind: "corpus"; index: number } | { kind: "generated"; file: FuzzFile };
  readonly mutations: readonly Mutation[];
  readonly matrixIndex: number;
  readonly matrixMutations: readonly Mutation[];
  readonly pick: CommandPick;
  readonly matched: number;
}

const caseArb = (corpusSize: number, matrixCount: number): fc.Arbitrary<FuzzCase> =>
  fc.record({
    source: fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant("corpus" as const), index: fc.nat(corpusSize - 1) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant("generated" as const), file: generatedMatrixArb }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant("generated" as const), file: generatedScheduleArb }) },
    ),
    mutations: fc.oneof(
      { weight: 2, arbitrary: fc.constant([]) },
      { weight: 3, arbitrary: fc.array(mutationArb, { minLength: 1, maxLength: 3 }) },
    ),
    matrixIndex: fc.nat(matrixCount - 1),
    matrixMutations: fc.oneof(
      { weight: 4, arbitrary: fc.constant([]) },
      { weight: 1, arbitrary: fc.array(mutationArb, { minLength: 1, maxLength: 2 }) },
    ),
    pick: commandArb,
    matched: fc.nat(9), // 0: the command is not one for the input's kind (a schedule given to stats, ...)
  });

/** Runs main in process with captured output. */
async function runMain(argv: readonly string[]): Promise<{ code: number; out: string; err: string; thrown: unknown }> {
  let out = "",
    err = "";
  let outBytes = 0;
  const io: CliIo = {
    out: (t) => {
      outBytes += t.length;
      if (out.length < 4096) out += t.slice(0, 4096);
    },
    err: (t) => void (err += t.slice(0, 4096)),
    interactive: false,
    stdinIsTerminal: false,
  };
  try {
    const code = await main(argv, io);
    return { code, out: out + (outBytes > 4096 ? "..." : ""), err, thrown: null };
  } catch (e) {
    return { code: -1, out, err, thrown: e };
  }
}

/** Builds the corpus of valid files (matrices in three formats, schedules of several planners, a realised trace). */
async function buildCorpus(dir: string): Promise<{ files: FuzzFile[]; matrices: string[] }> {
  mkdirSync(dir, { recursive: true });
  const files: FuzzFile[] = [];
  const matrices: string[] = [];
  const gens: string[][] = [
    ["uniform", "--p", "4"],
    ["pattern1", "--p", "5"],
    ["ranka-fig1", "--p", "8"],
    ["liu-pattern3", "--p", "9", "--lmax", "20"],
    ["wang-set1", "--p", "8", "--d", "3"],
    ["uniform", "--p", "1"],
    ["liu-pattern2", "--p", "16", "--lmax", "8"],
  ];
  for (const [k, g] of gens.entries()) {
    for (const ext of [".json", ".csv", ".mtx"]) {
      const path = join(dir, `m${k}${ext}`);
      const r = await runMain(["gen", ...g, "--seed", String(k + 1), "-o", path]);
      if (r.code !== 0) throw new Error(`corpus: gen ${g.join(" ")} failed: ${r.err}`);
      files.push({ bytes: readFileSync(path), ext, kind: "matrix" });
      matrices.push(path);
    }
    const m = join(dir, `m${k}.json`);
    for (const plan of [
      ["shift"],
      ["two-stage", "--payload"],
      ["four-stage", "--payload"],
      ["te-direct"],
      ["coloring", "--payload"],
      ["linear-permutation"],
    ]) {
      const path = join(dir, `s${k}-${plan[0]}.json`);
      const r = await runMain(["plan", m, "-a", ...plan, "-o", path]);
      if (r.code === 0) files.push({ bytes: readFileSync(path), ext: ".json", kind: "schedule" });
    }
    const realised = join(dir, `r${k}.json`);
    if (
      (await runMain(["simulate", m, "--machine", "t3d-004", "--protocol", "drs-n", "--realised", realised])).code === 0
    )
      files.push({ bytes: readFileSync(realised), ext: ".json", kind: "schedule" });
  }
  return { files, matrices };
}

function emptyOutcomes(): Record<Outcome, number> {
  return { ok: 0, "check-failed": 0, refused: 0, crash: 0, hang: 0, memory: 0 };
}

/** The formats export cases cycle through (by the picked algorithm name). */
const EXPORT_FORMATS_FUZZED = ["program", "goal", "msccl-xml", "simgrid", "program"] as const;

/** The argv of a case, given its input file and its (second) matrix file. */
function argvOf(pick: CommandPick, input: string, matrix: string, out: string): string[] {
  const extras = pick.extras.flatMap((k) => EXTRA_OPTIONS[k]!);
  const o = pick.output ? ["-o", out] : [];
  switch (pick.command) {
    case "stats":
      return ["stats", input, ...extras];
    case "plan":
      return ["plan", input, "-a", pick.algorithm, ...o, ...extras];
    case "verify":
      return ["verify", input, "-m", matrix, ...extras];
    case "cost":
      return ["cost", input, "--machine", pick.machine, ...extras];
    case "show":
      return ["show", input, ...(pick.output ? ["--svg", out] : []), ...extras];
    case "simulate":
      return ["simulate", input, "--machine", pick.machine, ...(pick.output ? ["--trace", out] : []), ...extras];
    case "simulate-protocol":
      return [
        "simulate",
        input,
        "--machine",
        pick.machine,
        "--protocol",
        pick.algorithm.length % 2 === 0 ? "drs-n" : "async",
        ...(pick.output ? ["--realised", out] : []),
        ...extras,
      ];
    case "simulate-data":
      return ["simulate", input, "--machine", pick.machine, "--data", "-m", matrix, ...extras];
    case "export": {
      const format = EXPORT_FORMATS_FUZZED[pick.algorithm.length % EXPORT_FORMATS_FUZZED.length]!;
      const where = format === "simgrid" ? ["--machine", pick.machine, "--out", out] : o;
      return ["export", input, "--matrix", matrix, "--format", format, ...where, ...extras];
    }
    case "gen":
      return [
        "gen",
        pick.algorithm === "shift" ? "uniform" : "pattern1",
        "--p",
        String(1 + ((pick.extras.length * 7) % 40)),
        ...o,
        ...extras,
      ];
  }
}

/** Calls the readers directly on the bytes: any error but a CommplanError is returned as a crash detail. */
function readDirect(bytes: Buffer, ext: string): string | null {
  const text = bytes.toString("utf8");
  for (const f of [
    () => parseMatrixText(text, { file: `x${ext}` }),
    () => parseMatrixText(text),
    () => parseScheduleJsonText(text, "x.json"),
  ]) {
    try {
      f();
    } catch (e) {
      if (!isCommplanError(e)) return `reader threw ${(e as Error)?.name}: ${(e as Error)?.message}`.slice(0, 300);
      if ((e as Error).message.includes("\n"))
        return `reader message is not one line: ${(e as Error).message.slice(0, 200)}`;
    }
  }
  return null;
}

/** Runs the fuzzer; returns the summary (also on failures: they are recorded, not thrown). */
export async function runFuzz(opts: FuzzOptions): Promise<FuzzSummary> {
  const t0 = performance.now();
  mkdirSync(opts.workDir, { recursive: true });
  const budgetBytes = parseByteSize(opts.maxMemory) ?? 256 << 20;
  const { files, matrices } = await buildCorpus(join(opts.workDir, "corpus"));
  const summary: FuzzSummary = {
    seed: opts.seed,
    cases: 0,
    readerCalls: 0,
    outcomes: emptyOutcomes(),
    byCommand: {},
    failures: [],
    maxMs: 0,
    maxMsArgv: [],
    maxPeakGrowth: 0,
    maxPeakArgv: [],
    wallSeconds: 0,
    budgetMs: opts.budgetMs,
    maxMemory: opts.maxMemory,
  };
  const arb = caseArb(files.length, matrices.length);
  const gc = (globalThis as { gc?: () => void }).gc;
  const BATCH = 500;
  for (let done = 0; done < opts.cases;) {
    const n = Math.min(BATCH, opts.cases - done);
    const batch = fc.sample(arb, { seed: opts.seed + done, numRuns: n });
    for (const c of batch) {
      const index = done++;
      const base = c.source.kind === "corpus" ? files[c.source.index]! : c.source.file;
      const bytes = c.mutations.reduce<Buffer>((b, m) => mutate(b, m), base.bytes);
      const input = join(opts.workDir, `in${base.ext}`);
      writeFileSync(input, bytes);
      const mbase = matrices[c.matrixIndex]!;
      const matrix = join(opts.workDir, `matrix${mbase.slice(mbase.lastIndexOf("."))}`);
      writeFileSync(
        matrix,
        c.matrixMutations.reduce<Buffer>((b, m) => mutate(b, m), readFileSync(mbase)),
      );
      const fitting = base.kind === "matrix" ? MATRIX_COMMANDS : SCHEDULE_COMMANDS;
      const pick =
        c.matched === 0 || (fitting as readonly string[]).includes(c.pick.command)
          ? c.pick
          : { ...c.pick, command: fitting[c.pick.extras.length % fitting.length]! };
      const argv = [
        ...argvOf(pick, input, matrix, join(opts.workDir, "out.json")),
        ...(pick.command === "gen" ? [] : ["--max-memory", opts.maxMemory]),
      ];
      if (gc && index % 50 === 0) gc();
      const rss0 = process.memoryUsage().rss;
      const peak0 = process.resourceUsage().maxRSS * 1024;
      const start = performance.now();
      let outcome: Outcome;
      let detail = "";
      setMemoryBudget(budgetBytes); // the direct reader calls run under the same budget as the commands
      const direct = readDirect(bytes, base.ext);
      summary.readerCalls += 3;
      const r = await runMain(argv);
      const ms = performance.now() - start;
      const peak1 = process.resourceUsage().maxRSS * 1024;
      const growth = peak1 > peak0 ? peak1 - rss0 : 0;
      if (direct !== null) [outcome, detail] = ["crash", direct];
      else if (r.thrown !== null)
        [outcome, detail] = ["crash", `main threw: ${String((r.thrown as Error)?.stack ?? r.thrown).slice(0, 400)}`];
      else if (/out of memory/.test(r.err)) [outcome, detail] = ["memory", r.err.slice(0, 300)];
      else if (r.code === 0) outcome = "ok";
      else if (r.code === 1) outcome = "check-failed";
      else if (r.code === 2) {
        outcome = "refused";
        if (r.err.trimEnd().includes("\n") || r.err.length > 1000)
          [outcome, detail] = ["crash", `exit 2 without a one-line error: ${r.err.slice(0, 300)}`];
      } else [outcome, detail] = ["crash", `exit ${r.code}: ${r.err.slice(0, 300)}`];
      if (outcome !== "crash" && outcome !== "memory" && ms > opts.budgetMs)
        [outcome, detail] = ["hang", `${ms.toFixed(0)} ms > ${opts.budgetMs} ms`];
      if (outcome !== "crash" && growth > budgetBytes)
        [outcome, detail] = [
          "memory",
          `peak resident memory grew by ${(growth / 2 ** 20).toFixed(0)} MiB, past --max-memory ${opts.maxMemory}`,
        ];
      summary.outcomes[outcome]++;
      const byCmd = (summary.byCommand[pick.command] ??= emptyOutcomes());
      byCmd[outcome]++;
      if (ms > summary.maxMs) [summary.maxMs, summary.maxMsArgv] = [ms, argv];
      if (growth > summary.maxPeakGrowth) [summary.maxPeakGrowth, summary.maxPeakArgv] = [growth, argv];
      if (outcome === "crash" || outcome === "hang" || outcome === "memory") {
        let saved: string | null = null;
        if (opts.failuresDir !== null && summary.failures.length < 50) {
          mkdirSync(opts.failuresDir, { recursive: true });
          saved = join(opts.failuresDir, `case-${index}${base.ext}`);
          writeFileSync(saved, bytes);
        }
        if (summary.failures.length < 200)
          summary.failures.push({ index, outcome, argv, detail, ms, peakBytes: growth, input: saved });
      }
      summary.cases++;
      if (opts.progress && summary.cases % 1000 === 0) opts.progress(summary.cases, summary);
    }
  }
  setMemoryBudget(null);
  summary.wallSeconds = (performance.now() - t0) / 1000;
  return summary;
}

/** The summary as Markdown for bench/results/fuzz.md. */
export function fuzzMarkdown(s: FuzzSummary): string {
  const o = s.outcomes;
  const rows = Object.entries(s.byCommand)
    .sort()
    .map(
      ([cmd, c]) => `| ${cmd} | ${c.ok} | ${c["check-failed"]} | ${c.refused} | ${c.crash} | ${c.hang} | ${c.memory} |`,
    );
  const fails = s.failures
    .slice(0, 20)
    .map((f) => `- case ${f.index} (${f.outcome}): \`${f.argv.join(" ")}\`: ${f.detail.replace(/\n/g, " ")}`);
  return [
    "### Fuzz run: every reader and command on mutated and generated inputs",
    "",
    `Command: \`npm run fuzz -- --cases ${s.cases} --seed ${s.seed}\` (bench/fuzz/run.ts). Every case writes a generated or mutated matrix or schedule`,
    "(three matrix formats, schedules of six planners and a realised trace; truncations, bit flips, hostile numbers, deep nesting,",
    "UTF-16 / Latin-1 / BOM / NUL bytes, repeats) and runs it through the three readers directly and one command in process",
    `(\`main\` with a captured CliIo), with \`--max-memory ${s.maxMemory}\`. A crash is any error but a CommplanError, an exit code other than`,
    `0, 1 or 2, or an exit 2 without a one-line message; a hang is a case over ${s.budgetMs} ms; a memory failure is a case whose peak`,
    "resident memory grew past the budget (process.resourceUsage().maxRSS against the resident size before the case) or an out-of-memory error.",
    "",
    `Seed ${s.seed}, ${s.cases} cases (${s.readerCalls} direct reader calls), wall ${s.wallSeconds.toFixed(0)} s.`,
    "",
    `| outcome | cases |`,
    `|---|---|`,
    `| ok (exit 0) | ${o.ok} |`,
    `| check failed (exit 1) | ${o["check-failed"]} |`,
    `| refused (exit 2, one line) | ${o.refused} |`,
    `| crash | ${o.crash} |`,
    `| hang (> ${s.budgetMs} ms) | ${o.hang} |`,
    `| memory | ${o.memory} |`,
    "",
    "| command | ok | check failed | refused | crash | hang | memory |",
    "|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `Slowest case: ${s.maxMs.toFixed(0)} ms (\`${s.maxMsArgv.join(" ")}\`).`,
    `Largest growth of peak resident memory in one case: ${(s.maxPeakGrowth / 2 ** 20).toFixed(1)} MiB (\`${s.maxPeakArgv.join(" ")}\`).`,
    "",
    fails.length === 0 ? "No failing case." : "Failing cases (first 20):\n\n" + fails.join("\n"),
    "",
  ].join("\n");
}
