/**
 * check-planner's command runner: a planner in any language behind a command line with {matrix} and {schedule} (an ES
 * module runs in check-planner-sandbox.ts).
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import { writeMatrixFile } from "../../io/matrix-write.js";
import { addInterruptCleanup, dropInterruptCleanup } from "../../io/interrupt-cleanup.js";

/** A planner as check-planner calls it: a matrix to what the planner returned (a schedule object or JSON text). */
export type PlannerRunner = (m: CommMatrix) => Promise<unknown>;

/** Single-quotes a path for sh. */
const shQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * What a run of `sh -c command` ended with: its exit code (null: a signal), the end of its stderr, whether it was
 * killed for its time.
 */
interface ShellEnd {
  code: number | null;
  stderr: string;
  timedOut: boolean;
}

/**
 * The process groups of the commands running now: killed with commplan when it is interrupted or exits (a group of its
 * own is out of reach of the terminal's Ctrl-C).
 */
const liveGroups = new Set<number>();

function killGroups(): void {
  for (const g of liveGroups)
    try {
      process.kill(-g, "SIGKILL");
    } catch {
      // gone already
    }
  liveGroups.clear();
}

/** How long a finished command's stderr may stay open (a background process it left holds it) before it is cut. */
const STDERR_GRACE_MS = 200;

/**
 * Runs `sh -c command` in a process group of its own, killed whole (what sh started too) after
 * timeoutMs, or when commplan is interrupted or exits. The run ends when sh exits: its stderr is
 * read until it closes, at most STDERR_GRACE_MS longer, and what the command left running in its
 * group is killed.
 */
function runShell(command: string, timeoutMs: number): Promise<ShellEnd> {
  return new Promise((done, reject) => {
    const child = spawn("sh", ["-c", command], { stdio: ["ignore", "ignore", "pipe"], detached: true });
    const group = child.pid;
    if (group !== undefined) {
      if (liveGroups.size === 0) addInterruptCleanup(killGroups);
      liveGroups.add(group);
    }
    let stderr = "",
      timedOut = false,
      code: number | null = null,
      ended = false;
    const release = (): void => {
      if (group === undefined || !liveGroups.delete(group)) return;
      if (liveGroups.size === 0) dropInterruptCleanup(killGroups);
    };
    const finish = (): void => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      try {
        process.kill(-group!, "SIGKILL"); // what the command left running in its group
      } catch {
        // nothing left
      }
      release();
      done({ code, stderr, timedOut });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-group!, "SIGKILL");
      } catch {
        child.kill("SIGKILL"); // the group is gone already: the shell alone
      }
    }, timeoutMs);
    child.stderr.on("data", (b: Buffer) => {
      stderr = (stderr + b.toString("utf8")).slice(-4000);
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      release();
      ended = true;
      reject(e);
    });
    child.on("exit", (c) => {
      code = c;
      clearTimeout(timer);
      setTimeout(() => {
        child.stderr.destroy();
        finish();
      }, STDERR_GRACE_MS).unref();
    });
    child.on("close", finish);
  });
}

/**
 * The line of a failed command's stderr that says why: the last one naming an error (Node's
 * "Error: Cannot find module", Python's "ModuleNotFoundError: ..."), else the last one that is not
 * a runtime's version footer ("Node.js v20.20.2"); "" for none.
 */
export function reasonLine(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !/^Node\.js v\d/.test(l));
  const named = lines.filter((l) => /^[\w.]*(Error|Exception)\b|\berror\b/i.test(l));
  return named.pop() ?? lines.pop() ?? "";
}

/**
 * A command-line planner; `hung` is the matrix a run of it was killed on for its time (check-planner stops there),
 * `hungRun` that run's number (1-based, counting every call).
 */
export interface CommandRunner extends PlannerRunner {
  hung: CommMatrix | null;
  hungRun: number;
}

/**
 * A planner behind a command line: each run writes the matrix (commplan.matrix/v1 JSON) to a fresh
 * temporary file, runs the command with {matrix} and {schedule} replaced by the quoted paths, and
 * reads the schedule the command wrote. A non-zero exit is the planner's failure (the stderr line
 * that says why). A run past timeoutMs is killed and fails; every run after it fails at once (the
 * property's shrinking then ends without running the command again), and `hung` keeps its matrix.
 */
export function commandRunner(command: string, timeoutMs: number): CommandRunner {
  if (!command.includes("{matrix}") || !command.includes("{schedule}"))
    throw fail("check-planner", "BAD_OPTION", `--command must contain {matrix} and {schedule}, got '${command}'`, {
      field: "command",
    });
  const runner = async (m: CommMatrix): Promise<unknown> => {
    if (runner.hung !== null) throw new Error("the command was stopped for its time");
    const call = ++calls;
    const dir = await mkdtemp(join(tmpdir(), "commplan-check-planner-"));
    const removeDir = (): void => rmSync(dir, { recursive: true, force: true });
    addInterruptCleanup(removeDir); // commplan interrupted or exiting while the command runs
    try {
      const matrixFile = join(dir, "matrix.json"),
        scheduleFile = join(dir, "schedule.json");
      await writeMatrixFile(m, matrixFile, "json", { sparse: false });
      const line = command.replaceAll("{matrix}", shQuote(matrixFile)).replaceAll("{schedule}", shQuote(scheduleFile));
      const r = await runShell(line, timeoutMs);
      if (r.timedOut) {
        runner.hung = m;
        runner.hungRun = call;
        throw new Error(`the command ran past --timeout ${timeoutMs / 1000} s and was killed`);
      }
      if (r.code !== 0) {
        const why = reasonLine(r.stderr);
        throw new Error(`the command exited with ${r.code ?? "a signal"}${why ? `: ${why}` : ""}`);
      }
      try {
        return await readFile(scheduleFile, "utf8");
      } catch {
        throw new Error("the command exited 0 but wrote no {schedule} file");
      }
    } finally {
      dropInterruptCleanup(removeDir);
      await rm(dir, { recursive: true, force: true });
    }
  };
  let calls = 0;
  runner.hung = null as CommMatrix | null;
  runner.hungRun = 0;
  return runner;
}
