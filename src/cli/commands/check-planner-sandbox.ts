/**
 * check-planner's module runner: the user's ES module runs in a worker thread with a heap limit and a time limit, so
 * that process.exit, a stray rejection, runaway memory or an endless loop fails one run with a line naming the module.
 */
import { spawnSync } from "node:child_process";
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { fail } from "../../model/errors.js";
import { formatBytes } from "../../model/memory-budget.js";
import type { CommMatrix } from "../../model/matrix.js";
import type { PlannerRunner } from "./check-planner-runners.js";

/**
 * The worker's code (plain JavaScript, so that it runs the same from the sources and from dist): loads the module,
 * answers each matrix with what plan returned, what it threw, or a rejection no one handled during the run. The
 * output is posted one macrotask after plan settles, so that the run's stray rejections are seen first. A load whose
 * top-level await can never settle (the worker's event loop runs dry: 'beforeExit', not process.exit) says so as the
 * worker exits; nothing listens on its port yet, so nothing else holds the loop.
 */
const WORKER_CODE = `
const { parentPort, workerData } = require("node:worker_threads");
let stray = null;
let loading = true, drained = false;
process.on("beforeExit", () => { drained = true; });
process.on("exit", () => { if (loading && drained) parentPort.postMessage({ kind: "unsettled" }); });
process.on("unhandledRejection", (e) => { stray ??= e instanceof Error ? e.name + ": " + e.message : String(e); });
const text = (e) => (e instanceof Error ? e.message : String(e));
const held = () => { const u = process.memoryUsage(); return u.heapUsed + u.arrayBuffers; };
function matrixOf(m) {
  if (m.sparse === undefined) return { p: m.p, elementBytes: m.elementBytes, data: m.data };
  let dense = null;
  return {
    p: m.p, elementBytes: m.elementBytes, sparse: m.sparse,
    get data() {
      if (dense === null) {
        const { p, rowStart, col, val } = m.sparse;
        dense = new Float64Array(p * p);
        for (let i = 0; i < p; i++) for (let k = rowStart[i]; k < rowStart[i + 1]; k++) dense[i * p + col[k]] = val[k];
      }
      return dense;
    },
  };
}
import(workerData.url).then(
  (mod) => {
    loading = false;
    const plan = typeof mod.plan === "function" ? mod.plan : mod.default && mod.default.plan;
    if (typeof plan !== "function") return parentPort.postMessage({ kind: "no-plan" });
    parentPort.on("message", async (m) => {
      stray = null;
      let answer;
      try {
        answer = { kind: "out", out: await plan(matrixOf(m)) };
      } catch (e) {
        answer = { kind: "throw", message: text(e) };
      }
      await new Promise((r) => setImmediate(r));
      if (stray !== null) answer = { kind: "rejection", message: stray };
      answer.held = held();
      try {
        parentPort.postMessage(answer);
      } catch (e) {
        parentPort.postMessage({ kind: "throw", message: "its output cannot be passed on: " + text(e) });
      }
    });
    parentPort.postMessage({ kind: "ready", held: held() });
  },
  (e) => {
    loading = false;
    parentPort.postMessage({ kind: "load", message: text(e), syntax: e instanceof SyntaxError });
  },
);
`;

/**
 * What the worker answers; after loading and after each run, with what it holds (heap and buffers, bytes). A load
 * that did not finish is a "load" answer too (`stopped`: stopped at the time limit).
 */
type Answer = (
  | { kind: "ready" }
  | { kind: "no-plan" }
  | { kind: "unsettled" }
  | { kind: "load"; message: string; syntax: boolean; stopped?: boolean }
  | { kind: "out"; out: unknown }
  | { kind: "throw"; message: string }
  | { kind: "rejection"; message: string }
) & { held?: number };

/** The line of a syntax error in `file` (node --check names it), or null (an error in a module it imports). */
export function syntaxErrorLine(file: string): number | null {
  const r = spawnSync(process.execPath, ["--check", file], { encoding: "utf8", timeout: 30_000 });
  const line = /:(\d+)$/.exec((r.stderr ?? "").split("\n")[0] ?? "")?.[1];
  return r.status !== 0 && line !== undefined ? Number(line) : null;
}

/**
 * The limits of one sandboxed planner: its memory (bytes: its heap and its buffers) and the time (ms) of its load and
 * of each run.
 */
export interface SandboxLimits {
  readonly heapBytes: number;
  readonly timeoutMs: number;
}

/**
 * How often (ms) the process's resident memory is read during a run: what a planner allocates outside its heap
 * (typed arrays' buffers), or in a heap that a process-wide --max-old-space-size has freed from the worker's limit,
 * is seen within this time.
 */
const MEMORY_POLL_MS = 5;

/**
 * A module planner in a sandbox; `hung` is the matrix a run was stopped on for its time (check-planner stops there),
 * `hungRun` that run's number (1-based), `close` ends the worker.
 */
export interface ModuleRunner extends PlannerRunner {
  hung: CommMatrix | null;
  hungRun: number;
  close(): Promise<void>;
}

/** The matrix as the worker receives it (a structured clone): its storage, not a sparse matrix's dense copy. */
function portable(m: CommMatrix): object {
  return m.sparse === undefined
    ? { p: m.p, elementBytes: m.elementBytes, data: m.data }
    : { p: m.p, elementBytes: m.elementBytes, sparse: { ...m.sparse } };
}

/** A live worker and the handler of the run it is on. */
interface Live {
  readonly worker: Worker;
  /** What the worker held after its last answer (bytes): a run may add the budget less this. */
  held: number;
  /** The worker was stopped for the memory its run took. */
  overMemory: boolean;
  settle: ((a: Answer | { kind: "died"; why: string }) => void) | null;
}

/** What a worker is started with: the module's URL and name, its heap limit (MiB), the time limit of its load. */
interface WorkerSpec {
  readonly url: string;
  readonly name: string;
  readonly heapMb: number;
  readonly timeoutMs: number;
  /** The line of a worker stopped for its memory. */
  readonly outOfMemory: string;
}

/**
 * Starts a worker on the module: the live worker once it has loaded, else the answer that says why not (a load past
 * the time limit is stopped: a "load" answer with `stopped`); `lost` is told when a live worker dies.
 */
function startWorker(w: WorkerSpec, lost: (live: Live) => void): Promise<Live | Answer> {
  const { url, name, heapMb, timeoutMs, outOfMemory } = w;
  return new Promise((settle) => {
    const worker = new Worker(WORKER_CODE, {
      eval: true,
      workerData: { url },
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
      stdout: false,
      stderr: false,
    });
    // the worker does not hold the process; during the load this timer does (else a process with nothing else to
    // do would end on its own unsettled await, exit 13, before the worker's exit or message arrives)
    worker.unref();
    const limit = setTimeout(() => {
      done({
        kind: "load",
        message: `${name} did not finish loading within --timeout ${timeoutMs / 1000} s and was stopped`,
        syntax: false,
        stopped: true,
      });
      void worker.terminate();
    }, timeoutMs);
    const done = (x: Live | Answer): void => {
      clearTimeout(limit);
      settle(x);
    };
    const live: Live = { worker, held: 0, overMemory: false, settle: null };
    let ready = false;
    const died = (why: string): void => {
      lost(live);
      if (!ready) return done({ kind: "load", message: why, syntax: false });
      const s = live.settle;
      live.settle = null;
      s?.({ kind: "died", why });
    };
    worker.on("message", (a: Answer) => {
      if (!ready) {
        if (a.kind === "ready") {
          ready = true;
          live.held = a.held ?? 0;
          return done(live);
        }
        void worker.terminate();
        return done(
          a.kind === "unsettled"
            ? {
                kind: "load",
                message: `${name} did not finish loading: its top-level await never settles`,
                syntax: false,
              }
            : a,
        );
      }
      live.held = a.held ?? live.held;
      const s = live.settle;
      live.settle = null;
      s?.(a);
    });
    worker.on("error", (e: Error & { code?: string }) =>
      died(
        e.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? outOfMemory
          : `${name} threw outside plan: ${e.name}: ${e.message.split("\n")[0]}`,
      ),
    );
    worker.on("exit", (code) =>
      died(
        live.overMemory ? outOfMemory : `${name} called process.exit(${code}) while ${ready ? "planning" : "loading"}`,
      ),
    );
  });
}

/**
 * Loads `file` in a worker (limits: heap `heapBytes`, `timeoutMs` for the load and per run) and returns its runner; a
 * module that does not load (within the time limit: its top-level code, a top-level await included), exits while
 * loading or exports no `plan` is refused with a one-line CommplanError (the place of a syntax error named). A run
 * that exits the worker (process.exit), leaves a rejection unhandled or passes the heap limit fails with a line naming
 * the module, and the next run gets a fresh worker; a run past the time limit is stopped and every later run fails
 * at once (`hung`).
 */
export async function moduleRunner(file: string, limits: SandboxLimits): Promise<ModuleRunner> {
  const url = pathToFileURL(resolve(file)).href;
  const name = basename(file);
  const heapMb = Math.max(16, Math.floor(limits.heapBytes / 2 ** 20));
  // one line whichever limit stopped it (V8's on the heap, or the watch on resident memory): which comes first varies
  const outOfMemory = `${name} ran out of memory: its heap and buffers passed the limit of ${formatBytes(heapMb * 2 ** 20)} (--max-memory)`;
  const seconds = limits.timeoutMs / 1000;
  const start = (): Promise<Live | Answer> =>
    startWorker({ url, name, heapMb, timeoutMs: limits.timeoutMs, outOfMemory }, (live) => {
      if (live === current) current = null;
    });
  let current: Live | null = null;
  const first = await start();
  if (!("worker" in first)) throw loadFailure(file, first);
  current = first;
  let calls = 0;
  const runner = async (m: CommMatrix): Promise<unknown> => {
    if (runner.hung !== null) throw new Error("the planner was stopped for its time");
    const call = ++calls;
    if (current === null) {
      const w = await start();
      if (!("worker" in w)) {
        // a reload stopped at the time limit is a hang like a run's: no further run waits it out again
        if (w.kind === "load" && w.stopped === true) {
          runner.hung = m;
          runner.hungRun = call;
        }
        throw new Error(`${name} no longer loads: ${loadFailure(file, w).message}`);
      }
      current = w;
    }
    const live = current;
    const a = await new Promise<Answer | { kind: "died"; why: string } | { kind: "hung" }>((done) => {
      // the parent waits during the run: what the process's resident memory gains is the worker's
      const ceiling = process.memoryUsage.rss() + heapMb * 2 ** 20 - live.held;
      const watch = setInterval(() => {
        if (live.overMemory || process.memoryUsage.rss() <= ceiling) return;
        live.overMemory = true;
        void live.worker.terminate();
      }, MEMORY_POLL_MS);
      const timer = setTimeout(() => {
        clearInterval(watch);
        live.settle = null;
        done({ kind: "hung" });
      }, limits.timeoutMs);
      live.settle = (x) => {
        clearTimeout(timer);
        clearInterval(watch);
        done(x);
      };
      live.worker.postMessage(portable(m));
    });
    switch (a.kind) {
      case "out":
        return a.out;
      case "throw":
        throw new Error(a.message);
      case "rejection":
        throw new Error(`${name} left a promise rejected with no handler: ${a.message}`);
      case "died":
        throw new Error(a.why);
      case "hung":
        runner.hung = m;
        runner.hungRun = call;
        current = null;
        await live.worker.terminate();
        throw new Error(`${name} ran past --timeout ${seconds} s and was stopped`);
      default:
        throw new Error(`${name}: unexpected answer from its worker`);
    }
  };
  runner.hung = null as CommMatrix | null;
  runner.hungRun = 0;
  runner.close = async (): Promise<void> => {
    const w = current;
    current = null;
    if (w !== null) {
      w.worker.removeAllListeners("exit");
      await w.worker.terminate();
    }
  };
  return runner;
}

/** The refusal of a module that does not load (exit 2): what went wrong, and where for a syntax error. */
function loadFailure(file: string, a: Answer): Error {
  if (a.kind === "no-plan")
    return fail(
      "check-planner",
      "BAD_INPUT",
      "the module exports no function 'plan' (export function plan(matrix) { ... })",
      { file },
    );
  // Node names the importer, here the sandbox's own worker ("imported from /dir/[worker eval]"), no file of the user's
  const message =
    a.kind === "load"
      ? a.message.split("\n")[0]!.replace(/ imported from .*\[worker eval\]$/, "")
      : `unexpected answer '${a.kind}'`;
  const line = a.kind === "load" && a.syntax ? syntaxErrorLine(file) : null;
  return fail(
    "check-planner",
    "BAD_INPUT",
    `cannot load the planner module: ${line === null ? "" : `syntax error at line ${line}: `}${message}${loadHint(message)}`,
    { file },
  );
}

/**
 * What to do about the two load failures a new user meets first, Node's own words saying neither: a TypeScript file
 * (Node 20 runs JavaScript only) and a package the module imports that is not installed where the module is (Node
 * resolves its imports from its own folder, not from commplan's).
 */
function loadHint(message: string): string {
  if (/^Unknown file extension "\.[cm]?tsx?"/.test(message))
    return (
      ": check-planner runs JavaScript; compile the planner (tsc) and give its .js or .mjs, or test the TypeScript " +
      "with the kit commplan/testing (docs/testing-kit.md)"
    );
  const pkg = /^Cannot find package '([^']+)'/.exec(message)?.[1];
  // a bare package name only: Node says the same of a package's missing main file, by its absolute path
  if (pkg !== undefined && !/^(?:[./]|file:)/.test(pkg))
    return ` (the module's imports are resolved from its own folder: install ${pkg} there, npm install ${pkg})`;
  return "";
}
