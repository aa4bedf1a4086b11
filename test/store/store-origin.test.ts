/** The plan store keeps where an entry's matrix came from: store add (the file's name), precompute (the pattern). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generatePattern } from "../../src/patterns/index.js";
import { plan } from "../../src/planner/registry.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { addPlan, getOrPlan, listPlans, openPlanStore, resolveStoreRequest } from "../../src/store/index.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

function dir(): string {
  return tempDir("store-origin");
}

describe("store origin", () => {
  it("store add records the matrix file's name and P, precompute the pattern, options and seed; list shows both", async () => {
    const d = dir();
    expect((await run("gen", "uniform", "--p", "10", "--seed", "4", "-o", join(d, "u10.json"))).code).toBe(0);
    expect((await run("store", "add", join(d, "s"), join(d, "u10.json"), "-a", "shift")).code).toBe(0);
    const spec = { patterns: [{ name: "h-relation", options: { h: 2 } }], p: [9], seeds: [7], algorithms: ["shift"] };
    writeFileSync(join(d, "spec.json"), JSON.stringify(spec));
    expect((await run("precompute", join(d, "spec.json"), "--store", join(d, "s"), "--jobs", "1")).code).toBe(0);
    const table = (await run("store", "list", join(d, "s"))).out.split("\n");
    expect(table[0]).toMatch(/ created +origin +params +element bytes$/);
    expect(table.find((l) => / shift +10 /.test(l))).toMatch(/ file:u10\.json +\d+$/);
    expect(table.find((l) => / shift +9 /.test(l))).toMatch(/ h-relation\(seed=7,h=2\) +\d+$/);
    const listed = await run("store", "list", join(d, "s"), "--json");
    const doc = JSON.parse(listed.out) as { entries: { key: { p: number }; origin: unknown }[] };
    validateWithSchema("store-list", doc, "test");
    const byP = new Map(doc.entries.map((e) => [e.key.p, e.origin]));
    expect(byP.get(10)).toEqual({ matrixFile: "u10.json", p: 10 });
    expect(byP.get(9)).toEqual({ pattern: "h-relation", options: { h: 2 }, seed: 7, p: 9 });
  });

  it("an entry written without an origin lists with none (an empty cell, null in JSON); getOrPlan records its option", async () => {
    const d = dir();
    const s = openPlanStore(join(d, "s"), true);
    const m = generatePattern("uniform", 8, {}, 1);
    const r = resolveStoreRequest(m, "shift", { seed: 1 });
    addPlan(s, r.key, plan(m, "shift", { seed: 1 }));
    const origin = { pattern: "uniform", options: {}, seed: 1, p: 8 };
    getOrPlan(s, m, { algorithm: "linear-permutation", seed: 1, origin });
    const list = listPlans(s);
    expect(list.find((e) => e.key!.algorithm === "shift")!.origin).toBeNull();
    expect(list.find((e) => e.key!.algorithm === "linear-permutation")!.origin).toEqual(origin);
    const table = (await run("store", "list", s.dir)).out.split("\n");
    expect(table.find((l) => / shift +8 /.test(l))!.trimEnd()).toMatch(/Z +\d+$/); // no origin, no params: the created time, then the element bytes
    expect(table.find((l) => / linear-permutation +8 /.test(l))).toMatch(/ uniform\(seed=1\) +\d+$/);
    validateWithSchema("store-list", JSON.parse((await run("store", "list", s.dir, "--json")).out), "test");
  });
});
