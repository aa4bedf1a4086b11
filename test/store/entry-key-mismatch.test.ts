/**
 * A plan filed under a key that names another matrix (its matrix digest, P or element size differ from the key's) is
 * a damaged entry: get, the store's own reader and verify refuse it by name, gc removes it. The seal finds damage, not
 * a writer that filed the wrong plan; before this check, get served such a plan for the key's matrix.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  addPlan,
  gcStore,
  getPlanById,
  openPlanStore,
  resolveStoreRequest,
  verifyStore,
} from "../../src/store/index.js";
import { loadPlanById } from "../../src/store/entry-read.js";
import { generatePattern } from "../../src/patterns/index.js";
import { plan } from "../../src/planner/index.js";
import { withElementBytes } from "../../src/model/matrix.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

describe("plan store: a plan of another matrix under a key", () => {
  it("is refused by get (both readers), named by verify and removed by gc", async () => {
    const mine = generatePattern("pattern1", 8, {}, 1);
    const others = [
      ["matrixDigest", generatePattern("pattern1", 8, {}, 2)],
      ["p", generatePattern("uniform", 9, {}, 1)],
      ["elementBytes", withElementBytes(mine, 16)],
    ] as const;
    for (const [field, other] of others) {
      const s = openPlanStore(join(tempDir("entry-key"), "S"), true);
      const { key } = resolveStoreRequest(mine, "shift");
      const { id, file } = addPlan(s, key, plan(other, "shift"));
      const why = new RegExp(`entry ${id} is damaged \\(its plan's ${field} .* is not its key's .*\\)`);
      expect(() => getPlanById(s, id), field).toThrow(why);
      await expect(loadPlanById(s, id), field).rejects.toThrow(why);
      const report = verifyStore(s);
      expect(report.damaged.map((e) => e.id)).toEqual([id]);
      expect(report.damaged[0]!.problem).toMatch(new RegExp(`^its plan's ${field} `));
      const get = await run("store", "get", s.dir, "--id", id);
      expect(get.code).toBe(2);
      expect(get.err).toMatch(why);
      expect(gcStore(s).damaged).toEqual([id]);
      expect(existsSync(file)).toBe(false);
    }
  });

  it("a plan of its own matrix is served", () => {
    const m = generatePattern("uniform", 8, {}, 1);
    const s = openPlanStore(join(tempDir("entry-key"), "S"), true);
    const { key } = resolveStoreRequest(m, "shift");
    const { id } = addPlan(s, key, plan(m, "shift"));
    expect(getPlanById(s, id)!.transferCount).toBe(plan(m, "shift").transferCount);
    expect(verifyStore(s).damaged).toEqual([]);
  });
});
