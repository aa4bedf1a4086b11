/**
 * A pool of long-lived fuzz children (child.ts, forked): a case is sent to an idle child; a child that dies during a
 * case (signal, V8 abort, process.exit, out of memory) makes that case a crash and is respawned; a case over its wall
 * budget is a hang when the child is blocked or has spent the budget in CPU (a child starved of CPU by a loaded
 * machine gets up to ten budgets of wall time; the child is killed); a child whose peak resident memory rose past the recycle threshold is
 * replaced, so that one large case never hides the peak of a later one.
 */
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ChildReply, ChildRequest } from "./child.js";

/** How a case ended from the pool's side. */
export type PoolResult =
  | { readonly kind: "reply"; readonly reply: ChildReply }
  | { readonly kind: "died"; readonly detail: string; readonly stderr: string }
  | { readonly kind: "hang"; readonly ms: number };

/** Options of a pool. */
export interface PoolOptions {
  readonly size: number;
  /** The build the children run (a dist/ directory). */
  readonly dist: string;
  /** A case slower than this (ms, wall) is a hang. */
  readonly budgetMs: number;
  /** A child whose peak resident memory exceeds this (bytes) is replaced after its case. */
  readonly recycleBytes: number;
  /** The children's V8 heap limit (MiB): a runaway allocation dies here instead of taking the machine. */
  readonly heapMiB: number;
}

/** A case whose child used less CPU than this share of its wall time is blocked (a FIFO, a lock). */
const BLOCKED_SHARE = 0.02;
/** A case is a hang after this many wall budgets whatever its CPU. */
const HARD_FACTOR = 10;

/** The CPU time (ms) process `pid` has used, from /proc (0 where there is none). */
function cpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) * 10; // utime and stime, in ticks of 10 ms
  } catch {
    return 0;
  }
}

interface Worker {
  proc: ChildProcess;
  ready: Promise<void>;
  stderr: string;
  /** Cases it has run. */
  runs: number;
}

/** A pool of fuzz children. */
export class FuzzPool {
  private readonly idle: Worker[] = [];
  private readonly waiting: ((w: Worker) => void)[] = [];
  private next = 0;
  /** Children started (the first ones included), and those replaced for memory. */
  spawned = 0;
  recycled = 0;

  constructor(private readonly o: PoolOptions) {
    for (let k = 0; k < o.size; k++) this.idle.push(this.spawn());
  }

  private spawn(): Worker {
    this.spawned++;
    const proc = fork(join(import.meta.dirname, "child.ts"), [], {
      execArgv: ["--import", "tsx", `--max-old-space-size=${this.o.heapMiB}`],
      env: { ...process.env, COMMPLAN_FUZZ_DIST: this.o.dist, COMMPLAN_DEBUG: "" },
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      detached: false,
    });
    const w: Worker = { proc, stderr: "", ready: Promise.resolve(), runs: 0 };
    proc.stderr!.on("data", (d: Buffer) => void (w.stderr = (w.stderr + d.toString()).slice(-4096)));
    w.ready = new Promise((resolve, reject) => {
      proc.once("message", () => resolve());
      proc.once("exit", (code) => reject(new Error(`fuzz child exited ${code} before it was ready: ${w.stderr}`)));
    });
    w.ready.catch(() => undefined);
    return w;
  }

  private take(): Promise<Worker> {
    const w = this.idle.pop();
    return w !== undefined ? Promise.resolve(w) : new Promise((resolve) => this.waiting.push(resolve));
  }

  private give(w: Worker): void {
    const next = this.waiting.shift();
    if (next !== undefined) next(w);
    else this.idle.push(w);
  }

  private kill(w: Worker): void {
    w.proc.removeAllListeners();
    if (w.proc.exitCode === null && w.proc.signalCode === null) w.proc.kill("SIGKILL");
  }

  /**
   * Runs one case on an idle child; `fresh`: on a child that has run nothing yet (a case whose peak is held against a
   * budget: a child's peak resident memory only grows, so an earlier case's peak would hide this one's).
   */
  async run(
    cwd: string,
    argv: readonly string[],
    then: readonly (readonly string[])[],
    fresh = false,
  ): Promise<PoolResult> {
    let w = await this.take();
    if (fresh && w.runs > 0) {
      this.kill(w);
      w = this.spawn();
    }
    w.runs++;
    try {
      await w.ready;
    } catch {
      w = this.spawn();
      await w.ready;
    }
    const id = ++this.next;
    const req: ChildRequest = { id, cwd, argv, then };
    w.stderr = "";
    const t0 = Date.now();
    const result = await new Promise<PoolResult>((resolve) => {
      const cpu0 = cpuMs(w.proc.pid);
      // past the budget: a child that is blocked (almost no CPU) or has spent the budget in CPU hangs; one that works
      // but is starved of CPU by a loaded machine gets more time, up to HARD_FACTOR budgets of wall time
      const check = (): void => {
        const wall = Date.now() - t0;
        const used = cpuMs(w.proc.pid) - cpu0;
        if (used < BLOCKED_SHARE * wall || used >= this.o.budgetMs || wall >= HARD_FACTOR * this.o.budgetMs) {
          cleanup();
          resolve({ kind: "hang", ms: wall });
        } else timer = setTimeout(check, this.o.budgetMs / 2);
      };
      let timer = setTimeout(check, this.o.budgetMs);
      const onMessage = (m: ChildReply): void => {
        if (m.id !== id) return;
        cleanup();
        resolve({ kind: "reply", reply: m });
      };
      const onExit = (code: number | null, signal: string | null): void => {
        cleanup();
        resolve({ kind: "died", detail: signal !== null ? `killed by ${signal}` : `exited ${code}`, stderr: "" });
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        w.proc.off("message", onMessage);
        w.proc.off("exit", onExit);
      };
      w.proc.on("message", onMessage);
      w.proc.on("exit", onExit);
      w.proc.send(req);
    });
    if (result.kind === "reply" && result.reply.maxRssAfter <= this.o.recycleBytes) this.give(w);
    else {
      if (result.kind === "reply") this.recycled++;
      const stderr = w.stderr;
      this.kill(w);
      this.give(this.spawn());
      if (result.kind === "died") {
        await new Promise((r) => setTimeout(r, 20)); // the last of its stderr
        return { ...result, stderr: stderr + w.stderr };
      }
    }
    return result;
  }

  /** Stops every child. */
  close(): void {
    for (const w of this.idle) this.kill(w);
    this.idle.length = 0;
  }
}
