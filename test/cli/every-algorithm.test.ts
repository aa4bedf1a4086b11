/** Every registered algorithm from the command line: gen | plan --payload | verify exits 0 (issues 4, 5, 6). */
import { describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";
import type { CliIo } from "../../src/cli/io.js";
import { PLANNERS } from "../../src/planner/index.js";

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "", err = "";
  const io: CliIo = { out: (t) => void (out += t), err: (t) => void (err += t), interactive: false };
  const code = await main(argv, io);
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), "commplan-every-"));

describe("commplan plan --algorithm NAME, for every registered planner", () => {
  // P = 16 is a perfect square (mesh-two-stage) and an h-relation suits the total-exchange protocols too
  const m = join(dir, "m.json");
  for (const pl of PLANNERS) {
    for (const payload of [false, true]) {
      it(`${pl.name}${payload ? " --payload" : ""}: plan and verify exit 0`, async () => {
        expect((await run("gen", "h-relation", "--p", "16", "--h", "6", "--seed", "3", "-o", m)).code).toBe(0);
        const s = join(dir, `${pl.name}-${payload}.json`);
        const planned = await run("plan", m, "--algorithm", pl.name, ...(payload ? ["--payload"] : []), "--machine", "t3d-004", "-o", s);
        expect(planned.err).toMatch(new RegExp(`plan: ${pl.name}:`));
        expect(planned.code).toBe(0);
        const v = await run("verify", s, "--matrix", m, "--json");
        const report = JSON.parse(v.out) as { ok: boolean; checks: { id: string; holds: boolean; witness: string | null }[] };
        expect(report.checks.filter((c) => !c.holds)).toEqual([]);
        expect(v.code).toBe(0);
      });
    }
  }
});
