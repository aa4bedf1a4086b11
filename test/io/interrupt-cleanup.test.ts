import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dir.js";

const dist = join(import.meta.dirname, "..", "..", "dist", "io");

/**
 * A child process that adds three cleanups (the middle one throws), then ends by `how`: the cleanups around the one
 * that throws still run, and the process ends as the signal or exit would have, with no stack trace.
 */
function run(how: "SIGTERM" | "SIGINT" | "exit", dir: string) {
  const url = pathToFileURL(join(dist, "interrupt-cleanup.js")).href;
  const script = `
    import { writeFileSync } from "node:fs";
    import { addInterruptCleanup } from ${JSON.stringify(url)};
    addInterruptCleanup(() => writeFileSync(${JSON.stringify(join(dir, "first"))}, "ran"));
    addInterruptCleanup(() => { throw new Error("EACCES: permission denied, unlink 'x.tmp'"); });
    addInterruptCleanup(() => writeFileSync(${JSON.stringify(join(dir, "last"))}, "ran"));
    if (${JSON.stringify(how)} === "exit") process.exit(3);
    else process.kill(process.pid, ${JSON.stringify(how)});
    setTimeout(() => {}, 10000);
  `;
  return spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
}

describe("interrupt cleanups are best effort", () => {
  for (const how of ["SIGTERM", "SIGINT", "exit"] as const)
    it(`one that throws keeps neither the others from running nor the process from ending (${how})`, () => {
      const dir = tempDir("cleanup");
      const r = run(how, dir);
      expect(r.stderr).toBe("");
      if (how === "exit") expect([r.status, r.signal]).toEqual([3, null]);
      else expect(r.signal).toBe(how);
      expect(existsSync(join(dir, "first")) && readFileSync(join(dir, "first"), "utf8")).toBe("ran");
      expect(existsSync(join(dir, "last")) && readFileSync(join(dir, "last"), "utf8")).toBe("ran");
    });
});
