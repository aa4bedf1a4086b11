/**
 * One vs-MPI case: a workload on a platform at P ranks with small or large messages, under one SMPI configuration.
 * Plans auto (and its finalists), lowers them to programs, runs them with the reference executor under smpirun beside
 * every SMPI MPI_Alltoallv algorithm (`--baseline`), and records commplan's prediction of each executed plan.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simgridPlatformFiles } from "../src/export/simgrid-platform.js";
import { loadTopology } from "../src/cli/commands/topologies.js";
import { defaultMemoryBudget } from "../src/host/memory.js";
import { readMatrixFile } from "../src/io/matrix-read.js";
import { readSparseMatrixFile } from "../src/io/sparse-matrix-read.js";
import {
  LIBRARY_ALLTOALLV,
  replayLibraryAlltoallvAs,
} from "../src/machines/program-replay/library-alltoallv-registry.js";
import { findMachine } from "../src/machines/presets.js";
import { findRuntimeModel, withRuntime } from "../src/machines/runtime/runtime-model.js";
import { matrixRows, type CommMatrix } from "../src/model/matrix.js";
import { findPattern, generatePattern } from "../src/patterns/registry.js";
import {
  SMPI_ALLTOALLV,
  alltoallvRuns,
  SMPI_PLAIN,
  SMPIRUN_TIMEOUT_S,
  smpirunTimeoutS,
  sharedBuffersNeeded,
  VS_MPI_PATTERN_OPTIONS,
  VS_MPI_SIZES,
  type VsMpiConfig,
  type VsMpiPlatform,
  type VsMpiSize,
} from "./vs-mpi-config.js";
import { CLI, type VsMpiCapabilities } from "./vs-mpi-discover.js";

/** A case to measure. */
export interface VsMpiCaseSpec {
  readonly workload: string;
  readonly platform: VsMpiPlatform;
  readonly p: number;
  readonly size: VsMpiSize;
  readonly config: VsMpiConfig;
}

/** One executed commplan plan. */
export interface VsMpiPlanRun {
  /** auto, auto-dataflow, or finalist:<label>. */
  readonly role: string;
  readonly algorithm: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly variant: string;
  /** SMPI's simulated time of one exchange (us), null when the run failed. */
  readonly smpiUs: number | null;
  /** commplan's prediction (us), null when none. */
  readonly predictedUs: number | null;
  /** How the prediction was made (program replay or schedule simulate). */
  readonly predictedBy: string;
  readonly problem: string;
}

/** A measured case, as cached in bench/results/vs-mpi.json. */
export interface VsMpiCaseResult {
  readonly key: string;
  readonly workload: string;
  readonly platform: string;
  readonly p: number;
  readonly size: VsMpiSize;
  readonly config: VsMpiConfig;
  readonly capabilities: string;
  readonly elementBytes: number;
  /** Mean off-diagonal non-zero message (bytes). */
  readonly meanMessageBytes: number;
  /**
   * Every smpirun of the case ran the executor with `--shared-buffers` (sharedBuffersNeeded): the same simulated
   * times, the delivered data not checked. Absent: false.
   */
  readonly sharedBuffers?: boolean;
  /** SMPI algorithm -> simulated time of one MPI_Alltoallv (us), null when its run failed. */
  readonly alltoallv: Readonly<Record<string, number | null>>;
  /**
   * SMPI algorithm -> commplan's prediction (us): its library mirror's replay (`simulate --library`), else the
   * program of the planner that mirrors it, where one exists.
   */
  readonly alltoallvPredicted: Readonly<Record<string, number | null>>;
  /** SMPI algorithm -> how alltoallvPredicted's entry was made: "library" (the mirror), else the planner's name. */
  readonly alltoallvPredictedBy?: Readonly<Record<string, string>>;
  /**
   * SMPI algorithm -> the algorithm whose time it was given: a selector that runs that algorithm's function at this P
   * (smpiSameAlgorithm), not run again. Absent or empty: every algorithm ran.
   */
  readonly alltoallvSameAs?: Readonly<Record<string, string>>;
  /** auto's program time in each alltoallv run (must not depend on the algorithm): min and max (us). */
  readonly autoSpreadUs: readonly [number, number] | null;
  readonly plans: readonly VsMpiPlanRun[];
  /**
   * auto's answer against MPI_Alltoallv's default (the header's auto.mpi.answer): with "call MPI_Alltoallv" the user
   * calls the library (libcommplan falls back), so auto's time is the default's; absent in older cases.
   */
  readonly answer?: string;
  /** auto's prediction of MPI_Alltoallv's default (the header's auto.mpi.mpiSimulated, us): the library's replay. */
  readonly defaultPredictedUs?: number | null;
  readonly problems: readonly string[];
  readonly wallS: number;
  /**
   * Wall seconds of the case's longer steps: `auto` (planning), `smpirun ALGORITHM` (each MPI_Alltoallv run, with
   * auto's program beside the first and the last), `finalist N`; absent in older cases.
   */
  readonly stepWallS?: Readonly<Record<string, number>>;
}

/** The cache key of a case. */
export function caseKey(s: VsMpiCaseSpec): string {
  return `${s.workload}|${s.platform.name}|${s.p}|${s.size}|${s.config}`;
}

interface Proc {
  readonly status: number | null;
  readonly out: string;
}

/** Spawns a command asynchronously; collects stdout and stderr together. */
function run(cmd: string, args: readonly string[], cwd: string): Promise<Proc> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", (e) => resolve({ status: -1, out: `${out}${e.message}` }));
    child.on("close", (status) => resolve({ status, out }));
  });
}

/** Runs the CLI; throws an Error with its last output line when it fails. */
async function cli(args: readonly string[], cwd: string): Promise<string> {
  const r = await run(process.execPath, [CLI, ...args], cwd);
  if (r.status !== 0) throw new Error(`commplan ${args[0]}: ${lastLines(r.out)}`);
  return r.out;
}

/** The output's error lines (the executor's and smpirun's), else its last n lines. */
function lastLines(text: string, n = 2): string {
  const lines = text.trim().split("\n");
  const errors = lines.filter((l) => /^executor: rank|error|FAIL/i.test(l));
  return (errors.length > 0 ? errors.slice(0, n) : lines.slice(-n)).join(" | ");
}

/** What one executor run under smpirun gave (times in us). */
export interface SmpiRun {
  readonly programUs: number | null;
  readonly alltoallvUs: number | null;
  readonly problem: string;
}

/**
 * Parses the executor's output under smpirun: its per-exchange lines, `Simulated time`, a deadlock, a failed check.
 * With `shared` (`--shared-buffers`) a line must say that the data was not checked; otherwise that every byte is ok.
 */
export function parseSmpiRun(
  status: number | null,
  text: string,
  baseline: boolean,
  timeoutS = SMPIRUN_TIMEOUT_S,
  program = true,
  shared = false,
): SmpiRun {
  const verdict = shared ? "data NOT checked (--shared-buffers" : "every byte ok";
  const line = (re: RegExp): { us: number; ok: boolean } | null => {
    const m = re.exec(text);
    return m === null ? null : { us: Number(m[1]) * 1e6, ok: m[2]!.startsWith(verdict) };
  };
  const prog = line(/^program \S+ \S+ P=\d+: .*?median ([0-9.eE+-]+) s,[^;]*; (.*)$/m);
  const a2a = baseline ? line(/^alltoallv P=\d+: .*?median ([0-9.eE+-]+) s,[^;]*; (.*)$/m) : null;
  let problem = "";
  if (/Deadlock detected/i.test(text)) problem = "Deadlock detected";
  else if (status === 124 || status === 137) problem = `timed out after ${timeoutS} s`;
  else if (!program && prog !== null) problem = "the program ran in a --baseline-only run";
  else if (prog !== null && !prog.ok) problem = `program: ${/^program .*$/m.exec(text)![0]}`;
  else if (a2a !== null && !a2a.ok) problem = `alltoallv: ${/^alltoallv .*$/m.exec(text)![0]}`;
  else if (status !== 0) problem = `exit ${status}: ${lastLines(text)}`;
  else if (!/Simulated time: [0-9.eE+-]+ seconds/.test(text)) problem = `no "Simulated time": ${lastLines(text)}`;
  else if ((program && prog === null) || (baseline && a2a === null))
    problem = `no executor time line: ${lastLines(text)}`;
  return {
    programUs: problem === "" && prog !== null ? prog.us : null,
    alltoallvUs: problem === "" && a2a !== null ? a2a.us : null,
    problem,
  };
}

/** The smpirun flags of a configuration. */
export function configFlags(config: VsMpiConfig, caps: VsMpiCapabilities): string[] {
  return config === "plain" ? [...SMPI_PLAIN] : [...SMPI_PLAIN, ...caps.overheads.flags];
}

/**
 * The executor's flags in every run: `--sync-start` starts the timed exchange on every rank at one instant of SMPI's
 * simulated clock; after a bare barrier the ranks leave microseconds apart, and that skew was charged to the exchange
 * (a direct dataflow program measured 5.12 us where the same program from a common start takes 2.40, as replayed).
 */
export const EXECUTOR_FLAGS: readonly string[] = ["--sync-start"];

/**
 * The version of a case's record (its fields, or how they are measured): a case cached with another is measured again.
 * 3: under SMPI the executor's ranks wake at the common start in rank order (runtimes/executor/main.c).
 */
export const CASE_FORMAT = 3;

/**
 * Runs the executor on a program directory under smpirun (under `timeout`): the program, and MPI_Alltoallv under
 * `alltoallv` when one is named; with `program` false MPI_Alltoallv alone (`--baseline-only`); with `shared` the data
 * buffers shared by the ranks (`--shared-buffers`).
 */
export async function smpirun(
  exe: string,
  dir: string,
  prog: string,
  p: number,
  flags: readonly string[],
  alltoallv: string | null,
  timeoutS = SMPIRUN_TIMEOUT_S,
  program = true,
  shared = false,
): Promise<SmpiRun> {
  const args = ["-k", "10", String(timeoutS), "smpirun", "-np", String(p)];
  args.push("-platform", "platform.xml", "-hostfile", "hosts", ...flags);
  if (alltoallv !== null) args.push(`--cfg=smpi/alltoallv:${alltoallv}`);
  args.push(exe, prog, "--iterations", "1", ...EXECUTOR_FLAGS);
  if (alltoallv !== null) args.push(program ? "--baseline" : "--baseline-only");
  if (shared) args.push("--shared-buffers");
  const r = await run("timeout", args, dir);
  return parseSmpiRun(r.status, r.out, alltoallv !== null, timeoutS, program || alltoallv === null, shared);
}

/** camelCase option name -> the CLI's --kebab-case flag. */
function flagOf(name: string): string {
  return "--" + name.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
}

/** A 2-D five-point Laplacian of side P in Matrix Market form: the input of generators that read a sparse matrix. */
function laplacianMtx(p: number): string {
  const g = Math.max(4, p),
    n = g * g;
  const lines: string[] = [];
  for (let y = 0; y < g; y++)
    for (let x = 0; x < g; x++) {
      const i = y * g + x + 1;
      lines.push(`${i} ${i} 4`);
      if (x > 0) lines.push(`${i} ${i - 1} -1`);
      if (x < g - 1) lines.push(`${i} ${i + 1} -1`);
      if (y > 0) lines.push(`${i} ${i - g} -1`);
      if (y < g - 1) lines.push(`${i} ${i + g} -1`);
    }
  return `%%MatrixMarket matrix coordinate real general\n${n} ${n} ${lines.length}\n${lines.join("\n")}\n`;
}

/** A matrix's mean off-diagonal message (elements; 1 when it has none) and its elements in all. */
export function messageElements(m: CommMatrix): { meanElements: number; totalElements: number } {
  const rows = matrixRows(m);
  let sum = 0,
    count = 0,
    totalElements = 0;
  for (let i = 0; i < m.p; i++)
    for (let k = rows.rowStart[i]!; k < rows.rowStart[i + 1]!; k++) {
      totalElements += rows.val[k]!;
      if (rows.col[k] !== i && rows.val[k]! > 0) {
        sum += rows.val[k]!;
        count++;
      }
    }
  return { meanElements: count === 0 ? 1 : sum / count, totalElements };
}

/** The element size (bytes, 1 .. 2^20) that makes a mean message of `meanElements` about the size's bytes. */
export function elementBytesFor(meanElements: number, size: keyof typeof VS_MPI_SIZES): number {
  return Math.min(1 << 20, Math.max(1, Math.round(VS_MPI_SIZES[size] / meanElements)));
}

/** Writes m.json for the case; returns its elementBytes, mean off-diagonal message (bytes) and elements in all. */
async function writeMatrix(
  s: VsMpiCaseSpec,
  dir: string,
): Promise<{ elementBytes: number; meanBytes: number; totalElements: number }> {
  const def = findPattern(s.workload);
  const opts = VS_MPI_PATTERN_OPTIONS[s.workload] ?? {};
  const fileArgs: string[] = [];
  let input = {};
  if (def.file !== undefined) {
    writeFileSync(join(dir, "a.mtx"), laplacianMtx(s.p));
    fileArgs.push("--file", join(dir, "a.mtx"));
    input = { sparse: readSparseMatrixFile(join(dir, "a.mtx")) };
  }
  const m = generatePattern(s.workload, s.p, opts, 1, input);
  const { meanElements, totalElements } = messageElements(m);
  const elementBytes = elementBytesFor(meanElements, s.size);
  const args = ["gen", s.workload, "--p", String(s.p), "--seed", "1", "--element-bytes", String(elementBytes)];
  for (const [k, v] of Object.entries(opts)) args.push(flagOf(k), String(v));
  await cli([...args, ...fileArgs, "-o", "m.json"], dir);
  return { elementBytes, meanBytes: meanElements * elementBytes, totalElements };
}

/** Writes platform.xml and hosts for the case's platform. */
async function writePlatform(s: VsMpiCaseSpec, dir: string): Promise<void> {
  if (s.platform.network === null) {
    for (const f of simgridPlatformFiles(s.p, findMachine(s.platform.machine)))
      writeFileSync(join(dir, f.name), [...f.pieces()].join(""));
    return;
  }
  const net = ["--network", s.platform.network, "-P", String(s.p), "--machine", s.platform.machine];
  await cli(["platform", ...net, "-o", "platform.xml", "--hostfile", "hosts"], dir);
}

/** The CLI options that put plan auto and simulate on the case's machine and network. */
function machineArgs(s: VsMpiCaseSpec): string[] {
  const a = ["--machine", s.platform.machine];
  if (s.platform.network !== null) a.push("--network", s.platform.network, "--port-sharing", "fair");
  return a;
}

/** The runtime model of a configuration (plan --runtime, simulate --program --runtime), copies free as in SMPI here. */
function runtimeArgs(s: VsMpiCaseSpec, caps: VsMpiCapabilities): string[] {
  const name = s.config === "plain" ? "smpi" : caps.overheads.runtime;
  return name === null ? [] : ["--runtime", name, "--free-copies"];
}

/** The machine and network options of a program replay (no port sharing: the replay shares host links max-min). */
function replayArgs(s: VsMpiCaseSpec): string[] {
  const a = ["--machine", s.platform.machine];
  if (s.platform.network !== null) a.push("--network", s.platform.network);
  return a;
}

/** commplan's prediction of a plan's program (us) and how it was made. */
async function predict(
  s: VsMpiCaseSpec,
  caps: VsMpiCapabilities,
  dir: string,
  schedule: string,
  prog: string,
): Promise<{ us: number | null; by: string; problem: string }> {
  const args =
    caps.programReplay !== null
      ? ["simulate", caps.programReplay, prog, ...replayArgs(s), ...runtimeArgs(s, caps), "--json"]
      : ["simulate", schedule, ...machineArgs(s), "--mode", "nonblocking", "--recv-order", "step"];
  if (caps.programReplay === null) args.push("--envelope", "16", "--json");
  const by = caps.programReplay !== null ? `simulate ${caps.programReplay}` : "simulate (schedule, nonblocking)";
  try {
    const out = JSON.parse(await cli(args, dir)) as { makespan?: unknown };
    return typeof out.makespan === "number"
      ? { us: out.makespan, by, problem: "" }
      : { us: null, by, problem: "no makespan" };
  } catch (e) {
    return { us: null, by, problem: (e as Error).message };
  }
}

interface AutoCandidateJson {
  readonly algorithm: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly simulated: number | null;
}

/** `plan -a NAME --param k=v ...` arguments of a candidate. */
function planArgs(algorithm: string, params: Readonly<Record<string, unknown>>): string[] {
  const a = ["-a", algorithm];
  for (const [k, v] of Object.entries(params)) a.push("--param", `${k}=${String(v)}`);
  return a;
}

/** A case being measured: its spec, directory, flags and what it has gathered so far. */
interface CaseRun {
  readonly s: VsMpiCaseSpec;
  readonly caps: VsMpiCapabilities;
  readonly exe: string;
  readonly dir: string;
  readonly flags: readonly string[];
  /** What the case measures, and each smpirun's time limit. */
  readonly run: VsMpiRunOptions;
  readonly problems: string[];
  readonly plans: VsMpiPlanRun[];
  readonly alltoallv: Record<string, number | null>;
  readonly alltoallvPredicted: Record<string, number | null>;
  readonly alltoallvPredictedBy: Record<string, string>;
  readonly alltoallvSameAs: Record<string, string>;
  /** Every smpirun with the executor's `--shared-buffers` (set once the matrix is written). */
  sharedBuffers: boolean;
  /** VsMpiCaseResult.stepWallS, as the steps end. */
  readonly stepWallS: Record<string, number>;
}

interface ScheduleJson {
  readonly algorithm: string;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly auto?: {
    readonly candidates?: readonly AutoCandidateJson[];
    readonly runtime?: { readonly variant: string };
    readonly mpi?: { readonly answer: string; readonly mpiSimulated?: number | null };
  };
}

/**
 * Times MPI_Alltoallv under every SMPI algorithm (alltoallvRuns: a selector whose target runs is given its time) and
 * auto's program (in the variant auto names, else nonblocking) beside the first and the last run; records auto's run;
 * returns its time's spread.
 */
async function measureAuto(
  c: CaseRun,
  winner: ScheduleJson,
  algorithms: readonly string[],
): Promise<[number, number] | null> {
  const { s, dir } = c;
  const variant = winner.auto?.runtime?.variant ?? "nonblocking";
  await cli(
    ["export", "auto.json", "--matrix", "m.json", "--format", "program", "--split", "prog-nb", "--variant", variant],
    dir,
  );
  const autoTimes: number[] = [];
  const { runs, sameAs } = alltoallvRuns(algorithms, s.p);
  for (const { algorithm: a, withProgram } of runs) {
    const t0 = performance.now();
    const r = await smpirun(c.exe, dir, "prog-nb", s.p, c.flags, a, timeoutOf(c), withProgram, c.sharedBuffers);
    c.stepWallS[`smpirun ${a}`] = seconds(t0);
    c.alltoallv[a] = r.alltoallvUs;
    if (r.programUs !== null) autoTimes.push(r.programUs);
    if (r.problem !== "") c.problems.push(`alltoallv ${a}: ${r.problem}`);
  }
  for (const [a, same] of sameAs) {
    c.alltoallv[a] = c.alltoallv[same] ?? null;
    c.alltoallvSameAs[a] = same;
  }
  const pred = await predict(s, c.caps, dir, "auto.json", "prog-nb");
  if (pred.problem !== "") c.problems.push(`prediction of auto: ${pred.problem}`);
  c.plans.push({
    role: "auto",
    algorithm: winner.algorithm,
    params: winner.params ?? {},
    variant,
    smpiUs: autoTimes.length > 0 ? autoTimes[0]! : null,
    predictedUs: pred.us,
    predictedBy: pred.by,
    problem: autoTimes.length > 0 ? "" : "no alltoallv run gave the program's time",
  });
  return autoTimes.length > 0 ? [Math.min(...autoTimes), Math.max(...autoTimes)] : null;
}

/** The seconds one smpirun of the case may take: the run's --timeout, else smpirunTimeoutS of its P. */
function timeoutOf(c: CaseRun): number {
  return c.run.timeoutS ?? smpirunTimeoutS(c.s.p);
}

/** Exports a schedule's program in a variant, runs it under smpirun (no baseline) and predicts it. */
async function measurePlan(c: CaseRun, role: string, schedule: string, prog: string, variant: string): Promise<void> {
  const { dir } = c;
  const sj = JSON.parse(readFileSync(join(dir, schedule), "utf8")) as ScheduleJson;
  const base = { role, algorithm: sj.algorithm, params: sj.params ?? {}, variant };
  try {
    await cli(
      ["export", schedule, "--matrix", "m.json", "--format", "program", "--split", prog, "--variant", variant],
      dir,
    );
  } catch (e) {
    c.plans.push({ ...base, smpiUs: null, predictedUs: null, predictedBy: "", problem: (e as Error).message });
    c.problems.push(`${role}: ${(e as Error).message}`);
    return;
  }
  const r = await smpirun(c.exe, dir, prog, c.s.p, c.flags, null, timeoutOf(c), true, c.sharedBuffers);
  const pr = await predict(c.s, c.caps, dir, schedule, prog);
  if (r.problem !== "") c.problems.push(`${role}: ${r.problem}`);
  c.plans.push({ ...base, smpiUs: r.programUs, predictedUs: pr.us, predictedBy: pr.by, problem: r.problem });
}

/**
 * auto's other finalists (its simulated candidates, the best `count` by its prediction), planned again and run: the
 * best commplan candidate is among them.
 */
async function measureFinalists(c: CaseRun, winner: ScheduleJson, count: number): Promise<void> {
  const wp = winner.params ?? {};
  // the best `count` others by auto's own prediction (on a runtime every variant is a finalist)
  const finalists = (winner.auto?.candidates ?? [])
    .filter(
      (x) =>
        x.simulated !== null &&
        !(x.algorithm === winner.algorithm && Object.entries(x.params).every(([k, v]) => wp[k] === v)),
    )
    .sort((a, b) => a.simulated! - b.simulated!)
    .slice(0, count);
  const variant = c.caps.dataflow ? "dataflow" : "nonblocking";
  for (const [i, x] of finalists.entries()) {
    const file = `cand-${i}.json`;
    const args = ["plan", "m.json", ...planArgs(x.algorithm, x.params), "--payload"];
    try {
      await cli([...args, "--machine", c.s.platform.machine, "-o", file], c.dir);
    } catch (e) {
      c.problems.push(`finalist ${x.algorithm}: ${(e as Error).message}`);
      continue;
    }
    const t0 = performance.now();
    await measurePlan(c, "finalist", file, `prog-c${i}`, variant);
    c.stepWallS[`finalist ${i}`] = seconds(t0);
  }
}

/**
 * commplan's prediction (us) of MPI_Alltoallv under SMPI's `algorithm` through its library mirror, replayed on the
 * case's network and runtime (copies free) as `commplan simulate m.json --library` does; null when no mirror runs it
 * here (a pair algorithm off a power-of-two P, which SMPI refuses too) or no runtime reproduces the
 * configuration.
 */
function libraryPrediction(c: CaseRun, algorithm: string): number | null {
  const { s, caps } = c;
  const name = s.config === "plain" ? "smpi" : caps.overheads.runtime;
  if (name === null || !LIBRARY_ALLTOALLV.includes(algorithm)) return null;
  const machine = findMachine(s.platform.machine);
  const maxMemory = defaultMemoryBudget();
  const m = readMatrixFile(join(c.dir, "m.json"), { maxMemory });
  const network = s.platform.network === null ? null : loadTopology(s.platform.network, s.p, maxMemory, machine).routes;
  const runtime = withRuntime(findRuntimeModel(name), { copies: false });
  try {
    return replayLibraryAlltoallvAs(algorithm, m, { machine, runtime, ...(network === null ? {} : { network }) })
      .makespanUs;
  } catch {
    return null;
  }
}

/**
 * commplan's predictions of MPI's algorithms beside SMPI's times: through the library mirror where one runs the
 * algorithm, else through the planner that mirrors it (when the registry has one).
 */
async function predictMpiAlgorithms(c: CaseRun): Promise<void> {
  for (const a of SMPI_ALLTOALLV) {
    const us = libraryPrediction(c, a);
    if (us !== null) {
      c.alltoallvPredicted[a] = us;
      c.alltoallvPredictedBy[a] = "library";
      continue;
    }
    const planner = c.caps.mpiPlanners[a];
    if (planner === undefined) continue;
    const file = `mpi-${a}.json`;
    c.alltoallvPredictedBy[a] = planner;
    try {
      await cli(["plan", "m.json", "-a", planner, "--payload", "--machine", c.s.platform.machine, "-o", file], c.dir);
      await cli(["export", file, "--matrix", "m.json", "--format", "program", "--split", `prog-${a}`], c.dir);
      c.alltoallvPredicted[a] = (await predict(c.s, c.caps, c.dir, file, `prog-${a}`)).us;
    } catch (e) {
      c.alltoallvPredicted[a] = null;
      c.problems.push(`prediction of ${planner}: ${(e as Error).message}`);
    }
  }
}

/** What a run measures beyond auto's plan (the bench's flags; all by default). */
export interface VsMpiRunOptions {
  /** Predict MPI's algorithms through their mirrors. */
  readonly mirrors: boolean;
  /** The SMPI algorithms MPI_Alltoallv runs under (default first): all of SMPI_ALLTOALLV, or fewer at large P. */
  readonly algorithms: readonly string[];
  /** How many of auto's other finalists run under smpirun. */
  readonly finalists: number;
  /** Seconds of wall time one smpirun may take; null: smpirunTimeoutS of the case's P. */
  readonly timeoutS: number | null;
}

/** Every measurement: mirrors, all SMPI algorithms, FINALISTS_RUN finalists. */
export const FULL_RUN: VsMpiRunOptions = {
  mirrors: true,
  algorithms: SMPI_ALLTOALLV,
  finalists: 3,
  timeoutS: null,
};

/**
 * A cached case with its predictions of MPI's algorithms made again (its matrix regenerated as writeMatrix writes it,
 * no smpirun): alltoallvPredicted and alltoallvPredictedBy replaced, the rest kept; the problems of the old
 * predictions dropped, new ones added.
 */
export async function repredictVsMpiCase(
  r: VsMpiCaseResult,
  s: VsMpiCaseSpec,
  caps: VsMpiCapabilities,
): Promise<VsMpiCaseResult> {
  const dir = mkdtempSync(join(tmpdir(), "commplan-vs-mpi-"));
  const c: CaseRun = {
    s,
    caps,
    exe: "",
    dir,
    run: FULL_RUN,
    flags: [],
    problems: r.problems.filter((x) => !x.startsWith("prediction of mpi-")),
    plans: [],
    alltoallv: {},
    alltoallvPredicted: {},
    alltoallvPredictedBy: {},
    alltoallvSameAs: {},
    sharedBuffers: false,
    stepWallS: {},
  };
  try {
    await writeMatrix(s, dir);
    await predictMpiAlgorithms(c);
  } catch (e) {
    c.problems.push(`repredict: ${(e as Error).message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    ...r,
    alltoallvPredicted: c.alltoallvPredicted,
    alltoallvPredictedBy: c.alltoallvPredictedBy,
    problems: c.problems,
  };
}

/** Measures one case (in a temporary directory it removes). */
export async function runVsMpiCase(
  s: VsMpiCaseSpec,
  caps: VsMpiCapabilities,
  capKey: string,
  exe: string,
  run: VsMpiRunOptions = FULL_RUN,
): Promise<VsMpiCaseResult> {
  const t0 = performance.now();
  const dir = mkdtempSync(join(tmpdir(), "commplan-vs-mpi-"));
  const c: CaseRun = {
    s,
    caps,
    exe,
    dir,
    run,
    flags: configFlags(s.config, caps),
    problems: [],
    plans: [],
    alltoallv: {},
    alltoallvPredicted: {},
    alltoallvPredictedBy: {},
    alltoallvSameAs: {},
    sharedBuffers: false,
    stepWallS: {},
  };
  let elementBytes = 0,
    meanMessageBytes = 0,
    autoSpreadUs: [number, number] | null = null,
    answer: string | undefined,
    defaultPredictedUs: number | null = null;
  try {
    let totalElements: number;
    ({ elementBytes, meanBytes: meanMessageBytes, totalElements } = await writeMatrix(s, dir));
    c.sharedBuffers = sharedBuffersNeeded(totalElements, elementBytes);
    await writePlatform(s, dir);
    const rt = caps.autoRuntime ? runtimeArgs(s, caps) : [];
    const t1 = performance.now();
    await cli(["plan", "m.json", "-a", "auto", "--payload", ...machineArgs(s), ...rt, "-o", "auto.json"], dir);
    c.stepWallS["auto"] = seconds(t1);
    const winner = JSON.parse(readFileSync(join(dir, "auto.json"), "utf8")) as ScheduleJson;
    answer = winner.auto?.mpi?.answer;
    defaultPredictedUs = winner.auto?.mpi?.mpiSimulated ?? null;
    autoSpreadUs = await measureAuto(c, winner, run.algorithms);
    if (caps.dataflow && rt.length === 0) await measurePlan(c, "auto-dataflow", "auto.json", "prog-df", "dataflow");
    await measureFinalists(c, winner, run.finalists);
    if (run.mirrors) await predictMpiAlgorithms(c);
  } catch (e) {
    c.problems.push((e as Error).message);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    key: caseKey(s),
    workload: s.workload,
    platform: s.platform.name,
    p: s.p,
    size: s.size,
    config: s.config,
    capabilities: capKey,
    elementBytes,
    meanMessageBytes,
    ...(c.sharedBuffers ? { sharedBuffers: true } : {}),
    alltoallv: c.alltoallv,
    alltoallvPredicted: c.alltoallvPredicted,
    alltoallvPredictedBy: c.alltoallvPredictedBy,
    ...(Object.keys(c.alltoallvSameAs).length === 0 ? {} : { alltoallvSameAs: c.alltoallvSameAs }),
    autoSpreadUs,
    plans: c.plans,
    ...(answer === undefined ? {} : { answer }),
    defaultPredictedUs,
    problems: c.problems,
    wallS: seconds(t0),
    stepWallS: c.stepWallS,
  };
}

/** Seconds since `t0` (performance.now()), to the millisecond. */
function seconds(t0: number): number {
  return Math.round(performance.now() - t0) / 1000;
}
