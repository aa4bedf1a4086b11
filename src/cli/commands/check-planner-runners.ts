/** The two ways check-planner reaches a user's planner: an ES module's `plan`, or a command line with {matrix} and {schedule}. */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import { writeMatrixFile } from "../../io/matrix-write.js";

/** A planner as check-planner calls it: a matrix to what the planner returned (a schedule object or JSON text). */
export type PlannerRunner = (m: CommMatrix) => Promise<unknown>;

/** Loads an ES module that exports `plan(matrix)` (sync or async); throws a one-line CommplanError when it cannot. */
export async function moduleRunner(file: string): Promise<PlannerRunner> {
  let mod: { plan?: unknown; default?: { plan?: unknown } };
  try {
    mod = (await import(pathToFileURL(resolve(file)).href)) as typeof mod;
  } catch (e) {
    const text = (e as Error)?.message ?? String(e);
    throw fail("check-planner", "BAD_INPUT", `cannot load the planner module: ${text.split("\n")[0]}`, { file });
  }
  const plan = typeof mod.plan === "function" ? mod.plan : mod.default?.plan;
  if (typeof plan !== "function")
    throw fail(
      "check-planner",
      "BAD_INPUT",
      "the module exports no function 'plan' (export function plan(matrix) { ... })",
      {
        file,
      },
    );
  return async (m) => (plan as (m: CommMatrix) => unknown)(m);
}

/** Single-quotes a path for sh. */
const shQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `sh -c command`; resolves with its exit code and the end of its stderr. */
function runShell(command: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, reject) => {
    const child = spawn("sh", ["-c", command], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (b: Buffer) => {
      stderr = (stderr + b.toString("utf8")).slice(-4000);
    });
    child.on("error", reject);
    child.on("close", (code) => done({ code, stderr }));
  });
}

/**
 * A planner behind a command line: each run writes the matrix (commplan.matrix/v1 JSON) to a fresh
 * temporary file, runs the command with {matrix} and {schedule} replaced by the quoted paths, and
 * reads the schedule the command wrote. A non-zero exit is the planner's failure (its last stderr line).
 */
export function commandRunner(command: string): PlannerRunner {
  if (!command.includes("{matrix}") || !command.includes("{schedule}"))
    throw fail("check-planner", "BAD_OPTION", `--command must contain {matrix} and {schedule}, got '${command}'`, {
      field: "command",
    });
  return async (m) => {
    const dir = await mkdtemp(join(tmpdir(), "commplan-check-planner-"));
    try {
      const matrixFile = join(dir, "matrix.json"),
        scheduleFile = join(dir, "schedule.json");
      await writeMatrixFile(m, matrixFile, "json", { sparse: false });
      const line = command.replaceAll("{matrix}", shQuote(matrixFile)).replaceAll("{schedule}", shQuote(scheduleFile));
      const r = await runShell(line);
      if (r.code !== 0) {
        const last = r.stderr.trim().split("\n").pop() ?? "";
        throw new Error(`the command exited with ${r.code ?? "a signal"}${last ? `: ${last}` : ""}`);
      }
      try {
        return await readFile(scheduleFile, "utf8");
      } catch {
        throw new Error("the command exited 0 but wrote no {schedule} file");
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}
