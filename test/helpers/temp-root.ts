/**
 * Vitest global setup: the run's os.tmpdir() is a fresh directory (TMPDIR, inherited by the workers and by every
 * process a test spawns); at the end of the run anything left in it fails the run, named, and the directory is removed.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Points TMPDIR at a fresh directory; the teardown it returns fails the run (exit code 1, a line naming what is left)
 * when the tests left anything there. Vitest logs an error thrown by a teardown but still exits 0, so the teardown sets
 * the exit code itself.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "commplan-test-run-"));
  const before = process.env["TMPDIR"];
  process.env["TMPDIR"] = root;
  return () => {
    if (before === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = before;
    // tsx's compile cache (one directory per user, kept and reused on purpose; made when a worker loads src/ under tsx)
    const cache = `tsx-${process.getuid?.() ?? ""}`;
    const left = readdirSync(root)
      .filter((name) => name !== cache)
      .sort();
    rmSync(root, { recursive: true, force: true });
    if (left.length > 0) {
      const shown = left.slice(0, 20).join(", ") + (left.length > 20 ? `, ... (${left.length - 20} more)` : "");
      process.stderr.write(
        `\nFAIL: the tests left ${left.length === 1 ? "1 entry" : `${left.length} entries`} in the temporary directory: ${shown}\n`,
      );
      process.exitCode = 1;
    }
  };
}
