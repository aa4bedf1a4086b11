/** Fuzz harness: runs generated and mutated inputs through every reader and every command in process, and records crashes, hangs, memory and wrong answers per case. */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import fc from "fast-check";
import { parseMatrixText } from "../../src/io/matrix-read.js";
import { parseScheduleJsonText } from "../../src/io/schedule-json-read.js";
import { readProgramJson } from "../../src/io/program-json-read.js";
import { parseTopologyJsonText } from "../../src/io/topology-json-read.js";
import { decodeScheduleArrow, readScheduleArrowHeader } from "../../src/io/schedule-arrow.js";
import { isCommplanError } from "../../src/model/errors.js";
import { parseByteSize } from "../../src/model/memory-budget.js";
import { buildCorpus, runMain, type Corpus, type MainResult } from "./corpus.js";
import {
  commandArb,
  COMMANDS_OF,
  EXTRA_OPTIONS,
  generatedMatrixArb,
  generatedScheduleArb,
  generatedTopologyArb,
  mutate,
  mutationArb,
  type CommandPick,
  type FuzzFile,
  type FuzzKind,
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
  /** A file that always holds the case being run (its phase and argv): a case that never returns is named there. */
  readonly traceFile?: string;
  /** Progress callback every 1000 cases. */
  readonly progress?: (done: number, summary: FuzzSummary) => void;
}

/** What happened to a case ("wrong": a damaged store entry served, or not named as damaged). */
export type Outcome = "ok" | "check-failed" | "refused" | "crash" | "hang" | "memory" | "wrong";

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
  /** The corpus files of each kind. */
  corpus: Record<string, number>;
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
  readonly source: { kind: "corpus"; of: FuzzKind; index: number } | { kind: "generated"; file: FuzzFile };
  readonly mutations: readonly Mutation[];
  readonly matrixIndex: number;
  readonly matrixMutations: readonly Mutation[];
  readonly pick: CommandPick;
  readonly matched: number;
}

const corpusArb = (of: FuzzKind) =>
  fc.record({ kind: fc.constant("corpus" as const), of: fc.constant(of), index: fc.nat(1 << 16) });

const caseArb = (matrixCount: number): fc.Arbitrary<FuzzCase> =>
  fc.record({
    source: fc.oneof(
      { weight: 3, arbitrary: corpusArb("matrix") },
      { weight: 3, arbitrary: corpusArb("schedule") },
      { weight: 2, arbitrary: corpusArb("program") },
      { weight: 1, arbitrary: corpusArb("topology") },
      { weight: 2, arbitrary: corpusArb("entry") },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant("generated" as const), file: generatedMatrixArb }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant("generated" as const), file: generatedScheduleArb }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("generated" as const), file: generatedTopologyArb }) },
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

function emptyOutcomes(): Record<Outcome, number> {
  return { ok: 0, "check-failed": 0, refused: 0, crash: 0, hang: 0, memory: 0, wrong: 0 };
}

/** The files of a case on disk: its input, the second matrix, the network, the store, where outputs go. */
interface CaseFiles {
  readonly base: FuzzFile;
  /** The input as a command reads it (a split program's index, a store's directory for an entry). */
  readonly input: string;
  readonly matrix: string;
  /** A valid schedule and its matrix, for the network commands of a topology case. */
  readonly pair: { schedule: string; matrix: string };
  readonly network: string;
  readonly store: string;
  readonly out: string;
  readonly outDir: string;
}

/** The machine of the network commands: mostly one on the flat topology (which --network needs). */
function netMachine(pick: CommandPick): string {
  return pick.extras.length % 3 === 2 ? pick.machine : "ib-hdr-200";
}

/** The argv of export: format, variant, layout, split, output. */
function exportArgv(pick: CommandPick, f: CaseFiles, extras: string[]): string[] {
  const where =
    pick.format === "simgrid"
      ? ["--machine", pick.machine, "--out", f.outDir]
      : pick.split
        ? ["--split", f.outDir]
        : pick.output
          ? ["-o", f.out]
          : [];
  return [
    "export",
    f.input,
    ...(pick.format === "arrow" && pick.output ? [] : ["--matrix", f.matrix]),
    "--format",
    pick.format,
    ...(pick.variant === null ? [] : ["--variant", pick.variant]),
    ...(pick.layout === null ? [] : ["--layout", pick.layout]),
    ...where,
    ...extras,
  ];
}

/** The argv of the store commands (an entry case runs on its damaged copy of the store; others on a pristine copy, with the input as the matrix). */
function storeArgv(pick: CommandPick, f: CaseFiles, extras: string[]): string[] {
  const entry = f.base.entry ?? null;
  const matrix = f.base.kind === "entry" ? (f.base.matrix ?? f.matrix) : f.input;
  const request = entry?.request ?? ["-a", pick.algorithm];
  switch (pick.command) {
    case "store-get":
      return [
        "store",
        "get",
        f.store,
        ...(pick.output && entry !== null ? ["--id", entry.id] : [matrix, ...request]),
        "-o",
        f.out,
        ...(pick.split ? ["--format", "arrow"] : []),
        ...(entry === null ? extras : []),
      ];
    case "store-add":
      return ["store", "add", f.store, matrix, ...request, ...(entry === null ? extras : [])];
    case "store-list":
      return ["store", "list", f.store, ...(pick.output ? ["--json"] : [])];
    case "store-verify":
      return ["store", "verify", f.store];
    default:
      return ["store", "gc", f.store];
  }
}

/** The argv of the network commands: the topology case's file is the network, else the picked spec. */
function networkArgv(pick: CommandPick, f: CaseFiles, extras: string[]): string[] {
  const topo = f.base.kind === "topology";
  const schedule = topo ? f.pair.schedule : f.input;
  const matrix = topo ? f.pair.matrix : f.input;
  const net = ["--network", f.network];
  switch (pick.command) {
    case "simulate-network":
      return [
        "simulate",
        schedule,
        "--machine",
        netMachine(pick),
        ...net,
        ...(pick.output ? ["--link-svg", f.out] : []),
        ...extras,
      ];
    case "verify-network":
      return ["verify", schedule, "-m", topo ? f.pair.matrix : f.matrix, ...net, ...extras];
    case "compare":
      return [
        "compare",
        matrix,
        "--machine",
        netMachine(pick),
        ...(topo || pick.split ? net : []),
        ...(pick.output ? ["--json"] : []),
        ...extras,
      ];
    case "plan-auto":
      return [
        "plan",
        matrix,
        "-a",
        "auto",
        "--machine",
        netMachine(pick),
        ...(topo || pick.split ? net : []),
        ...(pick.output ? ["-o", f.out] : []),
        ...extras,
      ];
    default:
      return [
        "platform",
        "--topology",
        f.network,
        ...(topo && !pick.split ? [] : ["-P", String(1 + ((pick.algorithm.length * 3) % 17))]),
        ...(pick.output ? ["--machine", pick.machine] : []),
        "-o",
        f.out,
        ...(pick.split ? ["--hostfile", join(f.outDir, "hosts")] : []),
        ...extras,
      ];
  }
}

/** The argv of a case. */
function argvOf(pick: CommandPick, f: CaseFiles): string[] {
  const extras = pick.extras.flatMap((k) => EXTRA_OPTIONS[k]!);
  const o = pick.output ? ["-o", f.out] : [];
  const input = f.input;
  switch (pick.command) {
    case "stats":
      return ["stats", input, ...extras];
    case "plan":
      return ["plan", input, "-a", pick.algorithm, ...o, ...extras];
    case "verify":
      return ["verify", input, "-m", f.matrix, ...extras];
    case "cost":
      return ["cost", input, "--machine", pick.machine, ...extras];
    case "show":
      return ["show", input, ...(pick.output ? ["--svg", f.out] : []), ...extras];
    case "simulate":
      return ["simulate", input, "--machine", pick.machine, ...(pick.output ? ["--trace", f.out] : []), ...extras];
    case "simulate-protocol":
      return [
        "simulate",
        input,
        "--machine",
        pick.machine,
        "--protocol",
        pick.algorithm.length % 2 === 0 ? "drs-n" : "async",
        ...(pick.output ? ["--realised", f.out] : []),
        ...extras,
      ];
    case "simulate-data":
      return ["simulate", input, "--machine", pick.machine, "--data", "-m", f.matrix, ...extras];
    case "export":
      return exportArgv(pick, f, extras);
    case "verify-program":
      return ["verify-program", input, "--matrix", f.matrix, ...(pick.output ? ["--json"] : []), ...extras];
    case "gen":
      return [
        "gen",
        pick.algorithm === "shift" ? "uniform" : "pattern1",
        "--p",
        String(1 + ((pick.extras.length * 7) % 40)),
        ...o,
        ...extras,
      ];
    case "store-get":
    case "store-add":
    case "store-list":
    case "store-verify":
    case "store-gc":
      return storeArgv(pick, f, extras);
    default:
      return networkArgv(pick, f, extras);
  }
}

/**
 * Calls the readers of the input's kind directly, under `maxMemory` bytes: any error but a
 * CommplanError, or a message of more than one line, is returned as a crash detail.
 */
function readDirect(
  bytes: Buffer,
  ext: string,
  kind: FuzzKind,
  path: string,
  maxMemory: number,
): { detail: string | null; calls: number } {
  const text = bytes.toString("utf8");
  const readers: (() => unknown)[] =
    kind === "topology"
      ? [() => parseTopologyJsonText(text, "x.json")]
      : kind === "program"
        ? [() => readProgramJson(path, { maxMemory })]
        : kind === "entry"
          ? [() => readScheduleArrowHeader(bytes), () => decodeScheduleArrow(bytes)]
          : [
              () => parseMatrixText(text, { file: `x${ext}`, maxMemory }),
              () => parseMatrixText(text, { maxMemory }),
              () => parseScheduleJsonText(text, "x.json"),
            ];
  for (const f of readers) {
    try {
      f();
    } catch (e) {
      if (!isCommplanError(e))
        return {
          detail: `reader threw ${(e as Error)?.name}: ${(e as Error)?.message}`.slice(0, 300),
          calls: readers.length,
        };
      if ((e as Error).message.includes("\n"))
        return {
          detail: `reader message is not one line: ${(e as Error).message.slice(0, 200)}`,
          calls: readers.length,
        };
    }
  }
  return { detail: null, calls: readers.length };
}

/** Writes a case's files: the (mutated) input, alone or inside its copied directory, the second matrix, a fresh store and output directory. */
function prepareCase(
  c: FuzzCase,
  corpus: Corpus,
  byKind: Record<FuzzKind, FuzzFile[]>,
  workDir: string,
): { f: CaseFiles; bytes: Buffer; changed: boolean } {
  const pool = c.source.kind === "corpus" ? byKind[c.source.of] : [];
  const base = c.source.kind === "corpus" ? pool[c.source.index % pool.length]! : c.source.file;
  const bytes = c.mutations.reduce<Buffer>((b, m) => mutate(b, m), base.bytes);
  const store = join(workDir, "store");
  const outDir = join(workDir, "outdir");
  rmSync(outDir, { recursive: true, force: true });
  const isStore = c.pick.command.startsWith("store-") || base.kind === "entry";
  if (isStore) {
    rmSync(store, { recursive: true, force: true });
    cpSync(corpus.store, store, { recursive: true });
  }
  let input: string;
  if (base.within !== undefined) {
    const copy = base.kind === "entry" ? store : join(workDir, "dir");
    if (base.kind !== "entry") {
      rmSync(copy, { recursive: true, force: true });
      cpSync(base.within.dir, copy, { recursive: true });
    }
    writeFileSync(join(copy, base.within.rel), bytes);
    input = base.kind === "entry" ? store : join(copy, base.within.main);
  } else {
    input = join(workDir, `in${base.ext}`);
    writeFileSync(input, bytes);
  }
  const mbase = base.matrix !== undefined && c.matrixIndex % 3 !== 0 ? base.matrix : corpus.matrices[c.matrixIndex]!;
  const matrix = join(workDir, `matrix${mbase.slice(mbase.lastIndexOf("."))}`);
  writeFileSync(
    matrix,
    c.matrixMutations.reduce<Buffer>((b, m) => mutate(b, m), readFileSync(mbase)),
  );
  const network =
    base.kind === "topology"
      ? input
      : c.pick.network === "@file"
        ? corpus.topologies[c.matrixIndex % corpus.topologies.length]!
        : c.pick.network;
  const pair = corpus.pairs[c.matrixIndex % corpus.pairs.length]!;
  const f: CaseFiles = { base, input, matrix, pair, network, store, out: join(workDir, "out.json"), outDir };
  return { f, bytes, changed: !bytes.equals(base.bytes) };
}

/** A wrong answer of a store command on a damaged entry (served, or not named as damaged), or null. */
function storeWrong(command: string, f: CaseFiles, argv: readonly string[], r: MainResult): string | null {
  const e = f.base.entry;
  if (e === undefined || f.base.within === undefined) return null;
  const id = e.id;
  if (command === "store-get" && r.code === 0 && (argv.includes(id) || !argv.includes("--id")))
    return `store get served the damaged entry ${id}`;
  if (command === "store-add" && r.code === 0) return `store add took the damaged entry ${id} as present`;
  if (command === "store-verify" && (r.code !== 1 || !r.err.includes(id)))
    return `store verify did not name the damaged entry ${id} (exit ${r.code})`;
  if (command === "store-gc" && r.code === 0 && existsSync(join(f.store, f.base.within.rel)))
    return `store gc left the damaged entry ${id}`;
  if (command === "store-list" && r.code === 0 && r.out.startsWith("{")) {
    const doc = JSON.parse(r.out) as { entries: { id: string; problem: string | null }[] };
    if (typeof doc.entries.find((x) => x.id === id)?.problem !== "string")
      return `store list did not mark the damaged entry ${id}`;
  } else if (command === "store-list" && r.code === 0) {
    const line = r.out.split("\n").find((l) => l.startsWith(id.slice(0, 16)));
    if (line === undefined || !line.includes("DAMAGED")) return `store list did not mark the damaged entry ${id}`;
  }
  return null;
}

/** The outcome of a case from its direct reads and its command's result. */
function classify(direct: string | null, r: MainResult, wrong: string | null): [Outcome, string] {
  if (direct !== null) return ["crash", direct];
  if (r.thrown !== null)
    return ["crash", `main threw: ${String((r.thrown as Error)?.stack ?? r.thrown).slice(0, 400)}`];
  if (/out of memory/.test(r.err)) return ["memory", r.err.slice(0, 300)];
  if (r.code === 2 && (r.err.trimEnd().includes("\n") || r.err.length > 1000))
    return ["crash", `exit 2 without a one-line error: ${r.err.slice(0, 300)}`];
  if (r.code !== 0 && r.code !== 1 && r.code !== 2) return ["crash", `exit ${r.code}: ${r.err.slice(0, 300)}`];
  if (wrong !== null) return ["wrong", wrong];
  return [r.code === 0 ? "ok" : r.code === 1 ? "check-failed" : "refused", ""];
}

/** Runs the fuzzer; returns the summary (also on failures: they are recorded, not thrown). */
export async function runFuzz(opts: FuzzOptions): Promise<FuzzSummary> {
  const t0 = performance.now();
  mkdirSync(opts.workDir, { recursive: true });
  const budgetBytes = parseByteSize(opts.maxMemory) ?? 256 << 20;
  const corpus = await buildCorpus(join(opts.workDir, "corpus"));
  const byKind: Record<FuzzKind, FuzzFile[]> = { matrix: [], schedule: [], program: [], topology: [], entry: [] };
  for (const file of corpus.files) byKind[file.kind].push(file);
  const summary: FuzzSummary = {
    seed: opts.seed,
    cases: 0,
    readerCalls: 0,
    corpus: Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, v.length])),
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
  const arb = caseArb(corpus.matrices.length);
  const trace = (line: string): void => {
    if (opts.traceFile !== undefined) writeFileSync(opts.traceFile, line + "\n");
  };
  const gc = (globalThis as { gc?: () => void }).gc;
  const BATCH = 500;
  for (let done = 0; done < opts.cases;) {
    const n = Math.min(BATCH, opts.cases - done);
    const batch = fc.sample(arb, { seed: opts.seed + done, numRuns: n });
    for (const c of batch) {
      const index = done++;
      trace(`${index} preparing`);
      const { f, bytes, changed } = prepareCase(c, corpus, byKind, opts.workDir);
      const fitting = COMMANDS_OF[f.base.kind];
      const pick =
        c.matched === 0 || fitting.includes(c.pick.command)
          ? c.pick
          : { ...c.pick, command: fitting[c.pick.extras.length % fitting.length]! };
      const storeCmd = pick.command.startsWith("store-");
      const argv = [
        ...argvOf(pick, f),
        ...(pick.command === "gen" || storeCmd || pick.command === "platform" ? [] : ["--max-memory", opts.maxMemory]),
      ];
      if (gc && index % 50 === 0) gc();
      const rss0 = process.memoryUsage().rss;
      const peak0 = process.resourceUsage().maxRSS * 1024;
      const start = performance.now();
      trace(`${index} reading ${f.base.kind} ${f.input}`);
      // the direct reader calls run under the same budget as the commands
      const direct = readDirect(bytes, f.base.ext, f.base.kind, f.input, budgetBytes);
      summary.readerCalls += direct.calls;
      trace(`${index} ${JSON.stringify(argv)}`);
      const r = await runMain(argv);
      const ms = performance.now() - start;
      const peak1 = process.resourceUsage().maxRSS * 1024;
      const growth = peak1 > peak0 ? peak1 - rss0 : 0;
      let [outcome, detail] = classify(direct.detail, r, changed ? storeWrong(pick.command, f, argv, r) : null);
      if (outcome !== "crash" && outcome !== "memory" && outcome !== "wrong" && ms > opts.budgetMs)
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
      if (outcome === "crash" || outcome === "hang" || outcome === "memory" || outcome === "wrong") {
        let saved: string | null = null;
        if (opts.failuresDir !== null && summary.failures.length < 50) {
          mkdirSync(opts.failuresDir, { recursive: true });
          saved = join(opts.failuresDir, `case-${index}${f.base.ext || ".bin"}`);
          writeFileSync(saved, bytes);
        }
        if (summary.failures.length < 200)
          summary.failures.push({ index, outcome, argv, detail, ms, peakBytes: growth, input: saved });
      }
      summary.cases++;
      if (opts.progress && summary.cases % 1000 === 0) opts.progress(summary.cases, summary);
    }
  }
  summary.wallSeconds = (performance.now() - t0) / 1000;
  return summary;
}

/** The summary as Markdown for bench/results/fuzz.md. */
export function fuzzMarkdown(s: FuzzSummary): string {
  const o = s.outcomes;
  const rows = Object.entries(s.byCommand)
    .sort()
    .map(
      ([cmd, c]) =>
        `| ${cmd} | ${c.ok} | ${c["check-failed"]} | ${c.refused} | ${c.crash} | ${c.hang} | ${c.memory} | ${c.wrong} |`,
    );
  const fails = s.failures
    .slice(0, 20)
    .map((f) => `- case ${f.index} (${f.outcome}): \`${f.argv.join(" ")}\`: ${f.detail.replace(/\n/g, " ")}`);
  const k = s.corpus;
  return [
    "### Fuzz run: every reader and command on mutated and generated inputs",
    "",
    `Command: \`npm run fuzz -- --cases ${s.cases} --seed ${s.seed}\` (bench/fuzz/run.ts; inputs in bench/fuzz/inputs.ts and corpus.ts).`,
    `The corpus, made by the CLI in process: ${k["matrix"]} matrices (three formats), ${k["schedule"]} schedules (six planners and realised traces),`,
    `${k["program"]} program files (\`export --format program\`, both variants and layouts, and every file of two \`--split\` programs),`,
    `${k["topology"]} topology JSON files, and ${k["entry"]} files of a plan store (four sealed Arrow entries, the marker, the log).`,
    "Every case takes a corpus file or a generated matrix, schedule or topology, mutates it (truncations, bit flips, hostile numbers,",
    "deep nesting, UTF-16 / Latin-1 / BOM / NUL bytes, repeats), runs it through the readers of its kind directly (matrix and",
    "schedule text readers; topology reader; program reader, split index included; Arrow header and decoder of a store entry) and",
    "one command in process (`main` with a captured CliIo): the older cost, gen, plan, show, simulate, stats, verify, and export",
    "(program, goal, msccl-xml, simgrid, arrow; `--variant`, `--layout`, `--split`), verify-program, simulate / verify / compare /",
    "`plan --algorithm auto` with `--network` (a topology file, or a generator spec valid or hostile: fat-tree, torus, dragonfly, rail,",
    "flat, cm5-fat-tree past their limits, broken syntax), compare `--sweep` / `--json`, platform, and store add / get / list / verify /",
    `gc on a copy of the store with the case's entry file written in. Commands that take it get \`--max-memory ${s.maxMemory}\`.`,
    "A crash is any error but a CommplanError, an exit code other than 0, 1 or 2, or an exit 2 without a one-line message; a hang",
    `is a case over ${s.budgetMs} ms; a memory failure is a case whose peak resident memory grew past the budget`,
    "(process.resourceUsage().maxRSS against the resident size before the case) or an out-of-memory error; a wrong answer is a",
    "damaged store entry served by get or add, or not named by verify, list or gc.",
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
    `| wrong answer | ${o.wrong} |`,
    "",
    "| command | ok | check failed | refused | crash | hang | memory | wrong |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `Slowest case: ${s.maxMs.toFixed(0)} ms (\`${s.maxMsArgv.join(" ")}\`).`,
    `Largest growth of peak resident memory in one case: ${(s.maxPeakGrowth / 2 ** 20).toFixed(1)} MiB (\`${s.maxPeakArgv.join(" ")}\`).`,
    "",
    fails.length === 0 ? "No failing case." : "Failing cases (first 20):\n\n" + fails.join("\n"),
    "",
  ].join("\n");
}
