/**
 * The Python snippet of docs/arrow.md reads a plan written by `commplan export --format arrow` (run when python3 has
 * every module the snippet imports; said so, naming the missing one, when not).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { encodeScheduleArrow } from "../../src/io/schedule-arrow.js";
import { plan } from "../../src/planner/registry.js";
import { generatePattern } from "../../src/patterns/index.js";
import { tempDir } from "../helpers/temp-dir.js";

const doc = readFileSync(new URL("../../docs/arrow.md", import.meta.url), "utf8");
const snippet = /^```python\n([\s\S]*?)^```$/m.exec(doc)?.[1] ?? "";
/** The top-level modules the snippet imports (`import a.b as x, c` and `from d import e`). */
const imported = [
  ...new Set(
    [...snippet.matchAll(/^(?:import|from)\s+([^\n]+)$/gm)].flatMap((m) =>
      m[1]!.startsWith("(")
        ? []
        : m[1]!
            .split(" import ")[0]!
            .split(",")
            .map((x) => x.trim().split(/[ .]/)[0]!),
    ),
  ),
];
const missing = imported.filter(
  (mod) => spawnSync("python3", ["-c", `import ${mod}`], { stdio: "ignore" }).status !== 0,
);

describe("docs/arrow.md's Python snippet", () => {
  it("names only columns and metadata the Arrow file has", () => {
    const s = plan(generatePattern("uniform", 8, {}, 1), "four-stage", { payload: true });
    const text = new TextDecoder("latin1").decode(encodeScheduleArrow(s));
    // names the snippet subscripts the table or its metadata with (t["chunks"], metadata[b"commplan"]) and selects
    const subscripts = [...snippet.matchAll(/(?:\bt|metadata)\[b?"([a-z]+)"\]/g)].map((m) => m[1]!);
    const selected = [...(/select\(\[([^\]]*)\]\)/.exec(snippet)?.[1] ?? "").matchAll(/"([a-z]+)"/g)].map((m) => m[1]!);
    const used = [...subscripts, ...selected];
    expect(used).toEqual(expect.arrayContaining(["commplan", "stage", "step", "src", "dst", "size", "chunks"]));
    for (const name of used) expect(text).toContain(name);
  });

  it("imports pyarrow alone (the doc says pyarrow is enough: no pandas)", () => {
    expect(imported).toEqual(["pyarrow", "json"]);
  });

  it(`runs under python3${missing.length === 0 ? "" : ` (${missing.join(", ")} absent: runs the check that says so)`}`, () => {
    if (missing.length > 0) {
      process.stdout.write(`schedule-arrow-python: python3 lacks ${missing.join(", ")}: the snippet is not run\n`);
      for (const mod of missing) expect(spawnSync("python3", ["-c", `import ${mod}`]).status).not.toBe(0);
      return;
    }
    const dir = tempDir("arrow-py");
    const s = plan(generatePattern("uniform", 8, {}, 1), "four-stage", { payload: true });
    writeFileSync(join(dir, "plan.arrow"), encodeScheduleArrow(s));
    const r = spawnSync("python3", ["-c", snippet], { cwd: dir, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain(`four-stage 8 ${s.transferCount} transfers`);
    expect(r.stdout).toContain(`${s.chunks!.origin.length} chunks`);
    let sumOfMaxima = 0;
    for (let k = 0; k < s.stepCount; k++) {
      let most = 0;
      for (let t = s.stepStart[k]!; t < s.stepStart[k + 1]!; t++) most = Math.max(most, s.size[t]!);
      sumOfMaxima += most;
    }
    expect(r.stdout).toContain(`longest message per step, summed: ${sumOfMaxima}`);
  });
});
