/**
 * vs-MPI bench (`npm run bench vs-mpi`, or `npx tsx bench/vs-mpi.ts [flags]`): commplan's plans against every SMPI
 * MPI_Alltoallv algorithm, run side by side under smpirun with the reference executor. Flags (also as --name=value):
 * --p 16,64 --workloads moe,random --platforms flat-ib-hdr-200 --configs plain,overheads --sizes small,large --jobs 2;
 * --skip-mirrors leaves out the predictions of MPI's algorithms through their mirrors (about 60 % of a small case's
 * commplan invocations), to be added to the cached cases afterwards; --algorithms default,pair runs MPI_Alltoallv
 * under those SMPI algorithms only (default first; at P = 256 one smpirun of an algorithm that posts every message
 * at once takes minutes: such cases are left out of the check against the fastest algorithm); --finalists N runs N
 * of auto's other finalists (3); --timeout S: the seconds of wall time one smpirun may take (default 900 up to
 * P = 64, times (P / 64)^2 above). A platform runs the P it hosts (the k = 8 fat
 * tree up to 128 ranks, the k = 12 one above).
 * Each case is cached in bench/results/vs-mpi.json, so a run resumes and extends (a cached case that lacks an
 * algorithm the run asks for is measured again); bench/results/vs-mpi.md and the
 * README's vs-mpi section are rebuilt from every cached case. --summary-only rebuilds them without running a case;
 * --repredict makes the predictions of MPI's algorithms again for every cached case (no smpirun), then rebuilds them.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PATTERNS } from "../src/patterns/registry.js";
import { machineInfo, writeResults } from "./lib.js";
import {
  CASE_FORMAT,
  caseKey,
  EXECUTOR_FLAGS,
  FULL_RUN,
  repredictVsMpiCase,
  runVsMpiCase,
  type VsMpiCaseResult,
  type VsMpiCaseSpec,
  type VsMpiRunOptions,
} from "./vs-mpi-case.js";
import {
  SMPI_ALLTOALLV,
  SMPI_PLAIN,
  VS_MPI_CONFIGS,
  VS_MPI_EXCLUDED_PATTERNS,
  VS_MPI_PLATFORMS,
  VS_MPI_SIZES,
  type VsMpiConfig,
  type VsMpiSize,
} from "./vs-mpi-config.js";
import { capabilityKey, discoverCapabilities, type VsMpiCapabilities } from "./vs-mpi-discover.js";
import {
  caseFigures,
  caseTable,
  contractChecks,
  contractTable,
  headlineTable,
  headlineText,
  mirrorText,
} from "./vs-mpi-report.js";

/** The bench's options. */
export interface VsMpiOptions {
  readonly p: readonly number[];
  readonly workloads: readonly string[];
  readonly platforms: readonly string[];
  readonly configs: readonly VsMpiConfig[];
  readonly sizes: readonly VsMpiSize[];
  readonly jobs: number;
  /** What each case measures besides auto's plan. */
  readonly run: VsMpiRunOptions;
  /** --summary-only: rewrite the record from the cache, measure nothing. */
  readonly summaryOnly: boolean;
  /** --repredict: the cached cases' predictions made again, no smpirun. */
  readonly repredict: boolean;
}

/** The bench's flags that take no value. */
export const VS_MPI_BOOLEAN_FLAGS: readonly string[] = ["summary-only", "skip-mirrors", "repredict"];

/** The bench's flags that take a value (`--name value` or `--name=value`). */
const VALUE_FLAGS: readonly string[] = [
  "p",
  "workloads",
  "platforms",
  "configs",
  "sizes",
  "jobs",
  "algorithms",
  "finalists",
  "timeout",
];

/**
 * The flags of argv: a value flag's value (`--name value`, `--name=value`), a boolean flag's name (set: no value, so
 * the word after it is not swallowed); other words (bench names) are left to bench/run.ts. One-line errors.
 */
function flagsOf(argv: readonly string[]): { values: Map<string, string>; set: Set<string> } {
  const values = new Map<string, string>();
  const set = new Set<string>();
  const known = `known: --${[...VALUE_FLAGS, ...VS_MPI_BOOLEAN_FLAGS].join(", --")}`;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith("--")) continue;
    const eq = a.indexOf("=");
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (VS_MPI_BOOLEAN_FLAGS.includes(name)) {
      if (eq > 0) throw new Error(`vs-mpi: --${name} takes no value, got '${a}'`);
      set.add(name);
    } else if (VALUE_FLAGS.includes(name)) {
      if (eq > 0) values.set(name, a.slice(eq + 1));
      else if (i + 1 < argv.length && !argv[i + 1]!.startsWith("--")) values.set(name, argv[++i]!);
      else throw new Error(`vs-mpi: --${name} needs a value`);
    } else throw new Error(`vs-mpi: unknown flag --${name}; ${known}`);
  }
  return { values, set };
}

/** Every generator the bench runs by default: the pattern registry minus the excluded ones. */
export function defaultWorkloads(): string[] {
  return PATTERNS.filter((d) => d.fixedP === undefined && !VS_MPI_EXCLUDED_PATTERNS.includes(d.name)).map(
    (d) => d.name,
  );
}

function listOf<T extends string>(v: string, known: readonly T[], what: string): T[] {
  const xs = v.split(",").filter((x) => x !== "");
  for (const x of xs)
    if (!known.includes(x as T)) throw new Error(`vs-mpi: unknown ${what} '${x}'; known: ${known.join(", ")}`);
  return xs as T[];
}

/** Parses the bench's flags (`--name value` or `--name=value`, and the boolean ones; other words are bench names). */
export function parseVsMpiArgs(argv: readonly string[]): VsMpiOptions {
  const { values: given, set } = flagsOf(argv);
  const p = (given.get("p") ?? "16,64,256").split(",").map(Number);
  for (const x of p) if (!Number.isInteger(x) || x < 2) throw new Error(`vs-mpi: --p takes integers >= 2, got ${x}`);
  const algorithms = given.has("algorithms")
    ? listOf(given.get("algorithms")!, SMPI_ALLTOALLV, "SMPI algorithm")
    : [...SMPI_ALLTOALLV];
  if (algorithms[0] !== "default") throw new Error("vs-mpi: --algorithms must start with default");
  const finalists = Number(given.get("finalists") ?? String(FULL_RUN.finalists));
  if (!Number.isInteger(finalists) || finalists < 0) throw new Error("vs-mpi: --finalists takes an integer >= 0");
  const timeoutS = given.has("timeout") ? Number(given.get("timeout")) : FULL_RUN.timeoutS;
  if (timeoutS !== null && !(timeoutS > 0)) throw new Error("vs-mpi: --timeout takes seconds > 0");
  const jobs = Number(given.get("jobs") ?? "2");
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`vs-mpi: --jobs takes an integer >= 1`);
  const workloads = defaultWorkloads();
  return {
    p,
    workloads: given.has("workloads") ? listOf(given.get("workloads")!, workloads, "workload") : workloads,
    platforms: listOf(
      given.get("platforms") ?? VS_MPI_PLATFORMS.map((x) => x.name).join(","),
      VS_MPI_PLATFORMS.map((x) => x.name),
      "platform",
    ),
    configs: listOf(given.get("configs") ?? VS_MPI_CONFIGS.join(","), VS_MPI_CONFIGS, "configuration"),
    sizes: listOf(given.get("sizes") ?? "small,large", Object.keys(VS_MPI_SIZES) as VsMpiSize[], "size"),
    jobs,
    run: { mirrors: !set.has("skip-mirrors"), algorithms, finalists, timeoutS },
    summaryOnly: set.has("summary-only"),
    repredict: set.has("repredict"),
  };
}

/** The cases of the options, small P first (so that a long run records the cheap cases first). */
export function vsMpiCases(o: VsMpiOptions): VsMpiCaseSpec[] {
  const out: VsMpiCaseSpec[] = [];
  for (const p of [...o.p].sort((a, b) => a - b))
    for (const workload of o.workloads)
      for (const platform of VS_MPI_PLATFORMS.filter(
        (x) => o.platforms.includes(x.name) && p >= (x.minP ?? 0) && p <= (x.maxP ?? Infinity),
      ))
        for (const size of o.sizes) for (const config of o.configs) out.push({ workload, platform, p, size, config });
  return out;
}

/** Builds the executor with smpicc; returns its path. */
export function buildSmpiExecutor(): string {
  const script = join(import.meta.dirname, "..", "runtimes", "executor", "build.sh");
  return execFileSync(script, { encoding: "utf8", env: { ...process.env, CC: "smpicc" } })
    .trim()
    .split("\n")
    .pop()!;
}

/** What a case is measured with (capabilities, executor flags, record format): a cached case with another is stale. */
export function caseCapabilities(caps: VsMpiCapabilities): string {
  return JSON.stringify([capabilityKey(caps), EXECUTOR_FLAGS, CASE_FORMAT]);
}

/** Whether a case is measured (again): not cached, cached another way, with a problem, or without an asked algorithm. */
export function needsMeasuring(c: VsMpiCaseResult | undefined, capKey: string, run: VsMpiRunOptions): boolean {
  return (
    c === undefined ||
    c.capabilities !== capKey ||
    c.problems.length > 0 ||
    run.algorithms.some((a) => c.alltoallv[a] === undefined)
  );
}

/**
 * Runs the cases not in `cache`, measured with other capabilities, with a problem or without an SMPI algorithm the run
 * asks for, `jobs` at a time; calls `done` after each.
 */
export async function measureCases(
  cases: readonly VsMpiCaseSpec[],
  cache: Record<string, VsMpiCaseResult>,
  caps: VsMpiCapabilities,
  exe: string,
  jobs: number,
  log: (s: string) => void,
  done: () => void,
  run: VsMpiRunOptions = FULL_RUN,
): Promise<void> {
  const capKey = caseCapabilities(caps);
  const todo = cases.filter((s) => needsMeasuring(cache[caseKey(s)], capKey, run));
  log(`vs-mpi: ${todo.length} of ${cases.length} cases to measure (${cases.length - todo.length} cached)`);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < todo.length) {
      const s = todo[next++]!;
      const r = await runVsMpiCase(s, caps, capKey, exe, run);
      cache[r.key] = r;
      const auto = r.plans.find((x) => x.role === "auto");
      log(
        `vs-mpi: ${r.key}: auto ${auto?.algorithm ?? "-"} ${auto?.smpiUs?.toFixed(2) ?? "-"} us, default ${r.alltoallv["default"]?.toFixed(2) ?? "-"} us (${r.wallS.toFixed(0)} s)${r.problems.length > 0 ? `; ${r.problems.length} problem(s): ${r.problems[0]}` : ""}`,
      );
      done();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, todo.length) }, worker));
}

/**
 * Makes the predictions of MPI's algorithms of every cached case again (repredictVsMpiCase: the matrix regenerated,
 * no smpirun), `jobs` at a time; calls `done` after each. A case on a platform the bench no longer lists is kept as is.
 */
export async function repredictCases(
  cache: Record<string, VsMpiCaseResult>,
  caps: VsMpiCapabilities,
  jobs: number,
  log: (s: string) => void,
  done: () => void,
): Promise<void> {
  const todo = Object.values(cache);
  log(`vs-mpi: predicting MPI's algorithms again in ${todo.length} cached cases`);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < todo.length) {
      const c = todo[next++]!;
      const platform = VS_MPI_PLATFORMS.find((x) => x.name === c.platform);
      if (platform === undefined) {
        log(`vs-mpi: ${c.key}: platform ${c.platform} is not the bench's: kept as is`);
        continue;
      }
      const spec: VsMpiCaseSpec = { workload: c.workload, platform, p: c.p, size: c.size, config: c.config };
      const r = await repredictVsMpiCase(c, spec, caps);
      cache[r.key] = r;
      const within = Object.entries(r.alltoallvPredicted).filter(([a, pr]) => {
        const t = r.alltoallv[a];
        return pr !== null && t !== null && t !== undefined && t > 0 && Math.abs(pr / t - 1) <= 0.1;
      }).length;
      const run = Object.keys(r.alltoallvPredicted).filter((a) => a in r.alltoallv).length;
      log(`vs-mpi: ${r.key}: ${within} of ${run} predictions of the algorithms it ran within 10 %`);
      done();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, todo.length) }, worker));
}

const RESULTS = join(import.meta.dirname, "results", "vs-mpi.json");

/** The cached cases of bench/results/vs-mpi.json. */
export function readCache(): Record<string, VsMpiCaseResult> {
  if (!existsSync(RESULTS)) return {};
  return (JSON.parse(readFileSync(RESULTS, "utf8")) as { cases?: Record<string, VsMpiCaseResult> }).cases ?? {};
}

/** The markdown of the cached cases. */
export function vsMpiMarkdown(cases: readonly VsMpiCaseResult[], caps: VsMpiCapabilities): string {
  const figs = cases.map(caseFigures);
  return (
    `### commplan against every SMPI MPI_Alltoallv algorithm (vs-mpi)\n\n` +
    `Each case: a seeded workload (\`commplan gen\`, seed 1, elementBytes scaled so the mean off-diagonal message is ` +
    `about ${VS_MPI_SIZES.small} B (small) or ${VS_MPI_SIZES.large} B (large)), auto's payload plan for the ` +
    `platform's machine (and network, port sharing fair), lowered to a program and run by the reference executor ` +
    `(built with smpicc) under smpirun beside MPI_Alltoallv (\`--baseline\`) under each of SMPI 3.32's ` +
    `${SMPI_ALLTOALLV.length} algorithms. Times are SMPI's simulated time of one exchange, every rank starting at one instant (the executor's ` +
    `\`--sync-start\`), to the latest end over ranks. ` +
    sameAsText(cases) +
    sharedText(cases) +
    `Configurations: plain (\`${SMPI_PLAIN.filter((f) => f.startsWith("--cfg")).join(" ")}\`) and overheads ` +
    `(plain plus ${caps.overheads.flags.map((f) => `\`${f}\``).join(" ")}: ${caps.overheads.name}). ` +
    `Best commplan: the fastest under SMPI of auto's plan and its simulated finalists` +
    `${caps.dataflow ? " (and auto's dataflow program)" : ""}. Predictions: ` +
    `${caps.programReplay !== null ? `\`commplan simulate ${caps.programReplay}\` of each program` : "`commplan simulate` of each schedule (nonblocking, receives in step order, 16-byte envelope; no program replay in this checkout)"}` +
    `${mirrorText(caps.mpiPlanners)}.\n\n` +
    `#### Headline\n\n${headlineTable(figs)}\n#### Contract\n\n${contractTable(contractChecks(figs))}\n` +
    `#### Cases\n\n${caseTable(figs)}`
  );
}

/**
 * The sentence on selectors not run again (smpiSameAlgorithm): how many of the cases' times are their target's, or
 * nothing when every algorithm ran.
 */
function sameAsText(cases: readonly VsMpiCaseResult[]): string {
  const copied = cases.reduce((n, c) => n + Object.keys(c.alltoallvSameAs ?? {}).length, 0);
  if (copied === 0) return "";
  const withCopies = cases.filter((c) => Object.keys(c.alltoallvSameAs ?? {}).length > 0).length;
  return (
    `In ${withCopies} cases the selectors that SMPI 3.32 resolves to another algorithm's function (mpich: bruck, ` +
    `mvapich2: ring, ompi: pair or basic linear by P)${linearText(cases)} were not run again: their ${copied} times ` +
    `are their target's (the cases that ran both gave the same time in every pair); auto's program ran beside the ` +
    `first and the last ` +
    `algorithm run, the others MPI_Alltoallv alone (\`--baseline-only\`). `
  );
}

/** The sentence on cases run with the executor's --shared-buffers, or nothing when none was. */
function sharedText(cases: readonly VsMpiCaseResult[]): string {
  const n = cases.filter((c) => c.sharedBuffers === true).length;
  if (n === 0) return "";
  return (
    `In ${n} case${n === 1 ? "" : "s"} whose send and receive buffers exceed 1 GiB summed over ranks the executor ran ` +
    `with \`--shared-buffers\` (SMPI_SHARED_MALLOC: the same simulated times as private buffers, ` +
    `runtimes/test/executor-shared.sh; the delivered data not checked). `
  );
}

/** The clause on ompi_basic_linear timed by default's run (smpiSameAlgorithm), or nothing when no case did. */
function linearText(cases: readonly VsMpiCaseResult[]): string {
  const n = cases.filter((c) => c.alltoallvSameAs?.["ompi_basic_linear"] !== undefined).length;
  return n === 0 ? "" : `, and in ${n} of them ompi_basic_linear (default's posts, in the same order),`;
}

/** Rewrites the README's section between the vs-mpi markers with the headline table. */
function writeReadme(cases: readonly VsMpiCaseResult[]): void {
  const path = join(import.meta.dirname, "..", "README.md");
  const readme = readFileSync(path, "utf8");
  const start = "<!-- vs-mpi:start -->",
    end = "<!-- vs-mpi:end -->";
  const a = readme.indexOf(start),
    b = readme.indexOf(end);
  if (a < 0 || b < a) return;
  const figs = cases.map(caseFigures);
  const body = `\n${headlineText(figs)}\n\n${headlineTable(figs)}`;
  writeFileSync(path, readme.slice(0, a + start.length) + body + readme.slice(b));
}

/** Runs the bench with the process's flags; returns the markdown (one line when smpirun is absent). */
export async function vsMpiBench(log: (s: string) => void, argv = process.argv.slice(2)): Promise<string> {
  const o = parseVsMpiArgs(argv);
  const repredict = o.repredict;
  if (!repredict && spawnSync("smpirun", ["-version"], { encoding: "utf8" }).error !== undefined) {
    const md = "### vs-mpi\n\nSkipped: smpirun (SimGrid's SMPI) is not installed.\n";
    log("vs-mpi: skipped: smpirun is not installed");
    return md;
  }
  const caps = discoverCapabilities();
  log(
    `vs-mpi: dataflow ${caps.dataflow}, program replay ${caps.programReplay ?? "none"}, MPI planners ${Object.values(caps.mpiPlanners).join(",") || "none"}, overheads: ${caps.overheads.name}`,
  );
  const cache = readCache();
  // cases measured another way (other capabilities, executor flags or record format) are measured again or dropped
  const current = caseCapabilities(caps);
  for (const [k, c] of Object.entries(cache)) if (c.capabilities !== current) delete cache[k];
  const save = (): string => {
    const cases = Object.values(cache).sort((x, y) => (x.key < y.key ? -1 : 1));
    const md = vsMpiMarkdown(cases, caps);
    writeResults(
      "vs-mpi",
      { machine: machineInfo(), capabilities: caps, cases: Object.fromEntries(cases.map((c) => [c.key, c])) },
      md,
    );
    writeReadme(cases);
    return md;
  };
  if (repredict) await repredictCases(cache, caps, o.jobs, log, save);
  else if (!o.summaryOnly) {
    const exe = buildSmpiExecutor();
    await measureCases(vsMpiCases(o), cache, caps, exe, o.jobs, log, save, o.run);
  }
  return save();
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    await vsMpiBench((s) => void process.stderr.write(s + "\n"));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exitCode = 2;
  }
}
