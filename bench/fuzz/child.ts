/**
 * Fuzz child: a long-lived process that runs cases of the CLI's main in process, each in its own working directory,
 * with stdout and stderr captured, and reports the case's exit code, output and resident memory to its parent. The
 * build it runs is dist/ or COMMPLAN_FUZZ_DIST (a mutant's copy). A case that kills this process is a crash.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import type { CliIo } from "../../src/cli/io.js";

/** A request from the parent: run argv in cwd (then each of `then`, when the case exits 0). */
export interface ChildRequest {
  readonly id: number;
  readonly cwd: string;
  readonly argv: readonly string[];
  readonly then: readonly (readonly string[])[];
}

/** What one run of main gave. */
export interface RunResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  /** What escaped main (not a CommplanError turned into exit 2), or null. */
  readonly thrown: string | null;
  readonly ms: number;
}

/** The reply: the case's run, its re-reads, and resident memory (bytes) before and after. */
export interface ChildReply {
  readonly id: number;
  readonly run: RunResult;
  readonly then: readonly RunResult[];
  readonly rssBefore: number;
  readonly maxRssBefore: number;
  readonly maxRssAfter: number;
}

const KEEP = 1 << 16;
const dist = process.env["COMMPLAN_FUZZ_DIST"] ?? join(import.meta.dirname, "..", "..", "dist");
const { main } = (await import(pathToFileURL(join(dist, "cli", "main.js")).href)) as {
  main: (argv: readonly string[], io: CliIo) => Promise<number>;
};

async function runMain(argv: readonly string[]): Promise<RunResult> {
  let out = "",
    err = "";
  const io: CliIo = {
    out: (t) => void (out.length < KEEP && (out += t.slice(0, KEEP))),
    err: (t) => void (err.length < KEEP && (err += t.slice(0, KEEP))),
    interactive: false,
    stdinIsTerminal: false,
    stdoutIsTerminal: false,
  };
  // a command that writes to the process's own streams around io is seen: what it writes is kept as its output
  const stdoutWrite = process.stdout.write.bind(process.stdout);
  const stderrWrite = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((t: string | Uint8Array) => (io.out(`[stdout] ${String(t)}`), true)) as typeof stdoutWrite;
  process.stderr.write = ((t: string | Uint8Array) => (io.err(`[stderr] ${String(t)}`), true)) as typeof stderrWrite;
  const t0 = performance.now();
  try {
    const code = await main(argv, io);
    return { code, out, err, thrown: null, ms: performance.now() - t0 };
  } catch (e) {
    return { code: -1, out, err, thrown: String((e as Error)?.stack ?? e), ms: performance.now() - t0 };
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
    process.exitCode = undefined;
  }
}

process.on("message", (msg: ChildRequest) => {
  void (async () => {
    process.chdir(msg.cwd);
    const rssBefore = process.memoryUsage.rss();
    const maxRssBefore = process.resourceUsage().maxRSS * 1024;
    const run = await runMain(msg.argv);
    const maxRssAfter = process.resourceUsage().maxRSS * 1024;
    const then: RunResult[] = [];
    if (run.code === 0) for (const argv of msg.then) then.push(await runMain(argv));
    process.chdir(dist);
    const reply: ChildReply = { id: msg.id, run, then, rssBefore, maxRssBefore, maxRssAfter };
    process.send!(reply);
  })();
});
process.send!({ ready: true });
