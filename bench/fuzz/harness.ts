/**
 * Fuzz harness: draws cases from the surfaces' generators with a seeded stream, lays each out in its own directory
 * (beside an outside tree nothing may touch), runs it on a pool of child processes, and judges it: crash, hang,
 * memory, or a wrong outcome (expectation, changed input or outside file, output re-read or grammar, half-written
 * output, a twin in another encoding or format that disagrees).
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  ftruncateSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { hostname } from "node:os";
import { performance } from "node:perf_hooks";
import type { Corpus } from "./corpus.js";
import type { FuzzCase, Setup } from "./case.js";
import type { RunResult } from "./child.js";
import { checkGoal, checkPlatform, checkTrace, checkXml } from "./grammar.js";
import { FuzzPool, type PoolResult } from "./pool.js";
import { Rng } from "./rng.js";
import * as S from "./surfaces.js";

/** What happened to a case. */
export type Outcome = "ok" | "check-failed" | "refused" | "crash" | "hang" | "memory" | "wrong";
const OUTCOMES: readonly Outcome[] = ["ok", "check-failed", "refused", "crash", "hang", "memory", "wrong"];

/** Options of a fuzz run. */
export interface FuzzOptions {
  readonly cases: number;
  /** The first case's index (cases run from it up to `cases` - 1; default 0). */
  readonly firstIndex?: number;
  readonly seed: number;
  readonly workDir: string;
  readonly corpus: Corpus;
  /** The build the children run (dist/, or a mutant's copy). */
  readonly dist: string;
  readonly budgetMs: number;
  readonly children: number;
  /** Weights of the surfaces (default SURFACE_WEIGHTS). */
  readonly weights?: Readonly<Record<string, number>>;
  /** Stop at the first failing case (the mutant test). */
  readonly stopAtFirst?: boolean;
  /** Asked before each case: true ends the run there (the record then holds the cases run). */
  readonly shouldStop?: () => boolean;
  readonly progress?: (done: number, s: FuzzSummary) => void;
}

/** One failing case, with what reproduces it. */
export interface FuzzFailure {
  readonly index: number;
  readonly surface: string;
  readonly outcome: Outcome;
  readonly argv: readonly string[];
  readonly detail: string;
}

/** The record of a run. */
export interface FuzzSummary {
  seed: number;
  cases: number;
  outcomes: Record<Outcome, number>;
  bySurface: Record<string, Record<Outcome, number>>;
  /** Milliseconds the cases of each surface took in their child (the command and its re-reads). */
  msBySurface: Record<string, number>;
  failures: FuzzFailure[];
  /** Cases refused (exit 2) before any output: their share of all cases. */
  refusedShare: number;
  outputsChecked: number;
  rereads: number;
  twins: number;
  childrenSpawned: number;
  childrenRecycled: number;
  maxMs: number;
  maxMsArgv: readonly string[];
  maxPeakGrowthBytes: number;
  maxPeakArgv: readonly string[];
  wallSeconds: number;
  budgetMs: number;
  recycleBytes: number;
}

/** How often each surface is drawn. */
export const SURFACE_WEIGHTS: Readonly<Record<string, number>> = {
  matrix: 14,
  schedule: 16,
  "export-text": 8,
  arrow: 5,
  program: 12,
  topology: 7,
  store: 22,
  onto: 6,
  cli: 4,
  planner: 0.4,
  big: 0.15,
};

function draw(r: Rng, c: Corpus, surface: string): FuzzCase {
  switch (surface) {
    case "matrix":
      return S.matrixCase(r, c);
    case "schedule":
      return S.scheduleCase(r, c);
    case "arrow":
      return S.arrowCase(r, c);
    case "export-text":
      return S.exportTextCase(r, c);
    case "program":
      return S.programCase(r, c);
    case "topology":
      return S.topologyCase(r, c);
    case "store":
      return S.storeCase(r, c);
    case "onto":
      return S.ontoInputCase(r, c);
    case "cli":
      return S.cliCase(r);
    case "planner":
      return S.plannerCase(r, c);
    default:
      return S.bigCase(r);
  }
}

/** Case `index` of a run of `seed`: every case follows from the seed and its index alone (a failure replays). */
export function caseAt(seed: number, index: number, c: Corpus, weights: Readonly<Record<string, number>>): FuzzCase {
  const r = new Rng((seed * 1_000_003 + index * 7919) >>> 0);
  return draw(r, c, r.weighted(weights));
}

/** Lays out one setup step under `cwd`. */
function lay(cwd: string, s: Setup): void {
  const p = join(cwd, s.path);
  if (s.kind === "rm") return void rmSync(p, { recursive: true, force: true });
  mkdirSync(dirname(p), { recursive: true });
  switch (s.kind) {
    case "file":
      return writeFileSync(p, s.bytes);
    case "copy":
      return cpSync(s.from, p, { recursive: true });
    case "dir":
      return void mkdirSync(p, { recursive: true });
    case "symlink":
      return symlinkSync(s.target, p);
    case "fifo":
      return void execFileSync("mkfifo", [p]);
    case "sparse": {
      const fd = openSync(p, "w");
      ftruncateSync(fd, s.size);
      return closeSync(fd);
    }
    default:
      return chmodSync(p, 0o555);
  }
}

/** Lays out a step unless an earlier step's shape prevents it (a file where its directory would go). */
function layOrSkip(cwd: string, s: Setup): void {
  try {
    lay(cwd, s);
  } catch (e) {
    if (!["EEXIST", "ENOTDIR", "EISDIR"].includes((e as { code?: string }).code ?? "")) throw e;
  }
}

/** A digest of a file or tree as lstat sees it (links by their target, FIFOs by their kind; never opened). */
function digest(path: string): string {
  const h = createHash("sha1");
  const walk = (p: string, rel: string): void => {
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (st === undefined) return void h.update(`${rel}:missing\n`);
    if (st.isSymbolicLink()) return void h.update(`${rel}:link:${readlinkSync(p)}\n`);
    if (st.isDirectory()) {
      h.update(`${rel}:dir\n`);
      for (const n of readdirSync(p).sort()) walk(join(p, n), `${rel}/${n}`);
      return;
    }
    if (!st.isFile() || st.size > 1 << 26) return void h.update(`${rel}:${st.mode}:${st.size}\n`);
    h.update(`${rel}:file:`).update(readFileSync(p)).update("\n");
  };
  walk(path, ".");
  return h.digest("hex");
}

/** Every path under `dir` (relative), links and FIFOs included, not followed. */
function listing(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const n of readdirSync(join(dir, rel))) {
    const r = rel === "" ? n : `${rel}/${n}`;
    out.push(r);
    const st = lstatSync(join(dir, r));
    if (st.isDirectory()) out.push(...listing(dir, r));
  }
  return out;
}

/** Files an output check names (a trailing `*` in the file name: every match in its directory). */
function expand(cwd: string, pattern: string): string[] {
  if (!pattern.includes("*")) return existsSync(join(cwd, pattern)) ? [pattern] : [];
  const dir = dirname(pattern);
  const re = new RegExp(
    `^${pattern
      .slice(dir.length + 1)
      .replace(/[.]/g, "\\.")
      .replace("*", ".*")}$`,
  );
  if (!existsSync(join(cwd, dir))) return [];
  return readdirSync(join(cwd, dir))
    .filter((n) => re.test(n))
    .map((n) => `${dir}/${n}`);
}

/** Why a run's exit is a crash (not 0, 1 or 2; an escape; a stack trace; a refusal of more than one line), or null. */
function crashOf(run: RunResult): string | null {
  if (run.thrown !== null) return `main threw: ${run.thrown.split("\n")[0]}`;
  if (![0, 1, 2].includes(run.code)) return `exit ${run.code}: ${run.err.split("\n")[0]}`;
  if (/\n\s+at .+:\d+:\d+\)?\n/.test(run.err)) return `a stack trace: ${run.err.split("\n")[0]}`;
  if (run.code === 2 && !/^[^\n]+\n$/.test(run.err)) {
    const lines = run.err.split("\n").length - 1;
    return `exit 2 with ${lines} lines of message: ${JSON.stringify(run.err.slice(0, 160))}`;
  }
  if (/out of memory|heap limit/i.test(run.err)) return `out of memory: ${run.err.split("\n")[0]}`;
  return null;
}

const EXPECTED: Readonly<Record<string, readonly number[]>> = {
  any: [0, 1, 2],
  ok: [0],
  refused: [2],
  "not-ok": [1, 2],
  "not-refused": [0, 1],
};

/** Why the case's outcome is wrong, or null. */
function wrongOf(
  fc: FuzzCase,
  cwd: string,
  res: { run: RunResult; then: readonly RunResult[] },
  before: Map<string, string>,
  beforeUnlessOk: Map<string, string>,
  listed: Set<string>,
): string | null {
  const { run, then } = res;
  if (!EXPECTED[fc.expect]!.includes(run.code))
    return `exit ${run.code} where ${fc.expect} was due: ${JSON.stringify(run.err.slice(0, 200))}`;
  if (fc.message !== undefined && run.code !== 0 && !fc.message.test(run.err + run.out))
    return `the message does not say ${fc.message}: ${JSON.stringify(run.err.slice(0, 200))}`;
  if (fc.expect === "not-ok" && run.code !== 0 && run.err.trim() === "" && run.out.trim() === "")
    return "failed silently";
  for (const [p, d] of before) if (digest(join(cwd, p)) !== d) return `${p} was changed`;
  if (run.code !== 0)
    for (const [p, d] of beforeUnlessOk)
      if (digest(join(cwd, p)) !== d) return `${p} was changed by a command that failed`;
  if (fc.thenAgree === true && then.length === 2) {
    const [a, b] = then as [RunResult, RunResult];
    const bad = crashOf(a) ?? crashOf(b);
    if (bad !== null) return `re-reading: ${bad}`;
    if (a.code !== b.code)
      return `'${fc.then![0]!.join(" ")}' exits ${a.code} (${a.err.split("\n")[0]}), its input's ${b.code}: ${b.err.split("\n")[0]}`;
  } else
    for (const [k, t] of then.entries()) {
      // a re-read may refuse for its size alone (the verifier's element limit, the memory budget): not a wrong output
      const limit = t.code === 2 && /maxElements|--max-memory/.test(t.err);
      const bad = crashOf(t) ?? (t.code !== 0 && !limit ? `exit ${t.code}: ${t.err.split("\n")[0]}` : null);
      if (bad !== null) return `re-reading with '${fc.then![k]!.join(" ")}': ${bad}`;
    }
  if (run.code === 0) {
    for (const o of fc.outputs ?? []) {
      for (const f of expand(cwd, o.path)) {
        if (o.grammar === "none") continue;
        const text = readFileSync(join(cwd, f), "utf8");
        const rank = /rank-(\d+)\.txt$/.exec(f);
        const bad =
          o.grammar === "goal"
            ? checkGoal(text)
            : o.grammar === "xml"
              ? checkXml(text)
              : o.grammar === "platform"
                ? checkPlatform(text)
                : checkTrace(text, rank === null ? null : Number(rank[1]));
        if (bad !== null) return `${f}: ${bad}`;
      }
    }
  } else {
    // nothing written half-way: a command that did not succeed leaves no new file but what it was asked to keep
    const fresh = listing(cwd).filter(
      (p) => !listed.has(p) && !p.startsWith("S/") && p !== "S" && !lstatSync(join(cwd, p)).isDirectory(),
    );
    const left = fresh.filter((p) => /\.tmp$|\.partial$|~$/.test(p) || run.code === 2);
    if (left.length > 0 && !(fc.surface.startsWith("store") || fc.surface === "matrix"))
      return `a failed command left ${left.slice(0, 3).join(", ")}`;
  }
  return null;
}

function emptyOutcomes(): Record<Outcome, number> {
  return Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
}

/** The memory slack of a case over its budget: the child's own heap and code (a case's peak is over its start). */
const MEMORY_FACTOR = 1.5;

/** Runs a fuzz campaign. */
export async function runFuzz(o: FuzzOptions): Promise<FuzzSummary> {
  const t0 = performance.now();
  const recycleBytes = 512 * 2 ** 20;
  const pool = new FuzzPool({ size: o.children, dist: o.dist, budgetMs: o.budgetMs, recycleBytes, heapMiB: 2048 });
  const s: FuzzSummary = {
    seed: o.seed,
    cases: 0,
    outcomes: emptyOutcomes(),
    bySurface: {},
    msBySurface: {},
    failures: [],
    refusedShare: 0,
    outputsChecked: 0,
    rereads: 0,
    twins: 0,
    childrenSpawned: 0,
    childrenRecycled: 0,
    maxMs: 0,
    maxMsArgv: [],
    maxPeakGrowthBytes: 0,
    maxPeakArgv: [],
    wallSeconds: 0,
    budgetMs: o.budgetMs,
    recycleBytes,
  };
  const weights = o.weights ?? SURFACE_WEIGHTS;
  const outside = (base: string): void => {
    mkdirSync(join(base, "outside", "tree"), { recursive: true });
    writeFileSync(join(base, "outside", "victim.txt"), "keep me\n");
    // what a store's tmp directory holds when a link leads there: a dead writer's temporary file, a directory
    mkdirSync(join(base, "outside", "tree", "sub"), { recursive: true });
    writeFileSync(join(base, "outside", "tree", `${hostname()}.4194300.0abc.tmp`), "keep me too\n");
    writeFileSync(join(base, "outside", "tree", "sub", "keep.txt"), "keep me too\n");
  };
  let stop = false;
  const one = async (index: number): Promise<void> => {
    const fc = caseAt(o.seed, index, o.corpus, weights);
    const base = join(o.workDir, `c${index}`);
    const cwd = join(base, "w");
    mkdirSync(cwd, { recursive: true });
    outside(base);
    for (const st of fc.setup) layOrSkip(cwd, st);
    const guard = [...(fc.unchanged ?? []), S.OUTSIDE];
    const before = new Map(guard.map((p) => [p, digest(join(cwd, p))]));
    const beforeUnlessOk = new Map((fc.unchangedUnlessOk ?? []).map((p) => [p, digest(join(cwd, p))]));
    const listed = new Set(listing(cwd));
    const res: PoolResult = await pool.run(cwd, fc.argv, fc.then ?? [], fc.budget !== undefined);
    let outcome: Outcome;
    let detail: string;
    if (res.kind === "hang") [outcome, detail] = ["hang", `over ${o.budgetMs} ms`];
    else if (res.kind === "died") [outcome, detail] = ["crash", `the child ${res.detail}: ${res.stderr.slice(-300)}`];
    else {
      const { run, then } = res.reply;
      const growth = res.reply.maxRssAfter - res.reply.rssBefore;
      if (run.ms > s.maxMs) [s.maxMs, s.maxMsArgv] = [run.ms, fc.argv];
      s.msBySurface[fc.surface] = (s.msBySurface[fc.surface] ?? 0) + run.ms + then.reduce((t, x) => t + x.ms, 0);
      if (growth > s.maxPeakGrowthBytes) [s.maxPeakGrowthBytes, s.maxPeakArgv] = [growth, fc.argv];
      const crash = crashOf(run);
      s.rereads += then.length;
      if (run.code === 0) for (const out of fc.outputs ?? []) s.outputsChecked += expand(cwd, out.path).length;
      if (crash !== null) [outcome, detail] = [/out of memory/.test(crash) ? "memory" : "crash", crash];
      else if (fc.budget !== undefined && growth > fc.budget * MEMORY_FACTOR)
        [outcome, detail] = [
          "memory",
          `peak grew ${(growth / 2 ** 20).toFixed(0)} MiB under a ${(fc.budget / 2 ** 20).toFixed(0)} MiB budget`,
        ];
      else {
        const wrong = wrongOf(fc, cwd, { run, then }, before, beforeUnlessOk, listed);
        outcome = wrong !== null ? "wrong" : run.code === 0 ? "ok" : run.code === 1 ? "check-failed" : "refused";
        detail = wrong ?? "";
        if (wrong === null && fc.twin !== undefined) {
          for (const st of fc.twin.setup) layOrSkip(cwd, st);
          const tw = await pool.run(cwd, fc.twin.argv, []);
          s.twins++;
          const tc = tw.kind === "reply" ? tw.reply.run.code : tw.kind;
          if (tc !== run.code)
            [outcome, detail] = [
              "wrong",
              `exit ${run.code}, but ${tc} for '${fc.twin.argv.join(" ")}' (the same document): ${JSON.stringify((tw.kind === "reply" ? tw.reply.run.err : "").slice(0, 200))} / ${JSON.stringify(run.err.slice(0, 200))}`,
            ];
        }
      }
    }
    s.cases++;
    s.outcomes[outcome]++;
    (s.bySurface[fc.surface] ??= emptyOutcomes())[outcome]++;
    if (!["ok", "check-failed", "refused"].includes(outcome)) {
      s.failures.push({ index, surface: fc.surface, outcome, argv: fc.argv, detail });
      if (o.stopAtFirst) stop = true;
    } else {
      try {
        chmodSync(join(cwd, "S"), 0o755);
      } catch {
        // no store in this case
      }
      rmSync(base, { recursive: true, force: true });
    }
    if (o.progress && s.cases % 1000 === 0) o.progress(s.cases, s);
  };
  let next = o.firstIndex ?? 0;
  const lane = async (): Promise<void> => {
    while (!stop && next < o.cases && o.shouldStop?.() !== true) await one(next++);
  };
  try {
    await Promise.all(Array.from({ length: o.children }, lane));
  } finally {
    pool.close();
  }
  s.childrenSpawned = pool.spawned;
  s.childrenRecycled = pool.recycled;
  s.refusedShare = s.cases === 0 ? 0 : s.outcomes.refused / s.cases;
  s.wallSeconds = (performance.now() - t0) / 1000;
  return s;
}
