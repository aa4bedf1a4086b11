/**
 * `store add` into a directory that is not a store yet plans (and checks the plan's memory) before it makes the store:
 * a plan the planner refuses or the memory check refuses leaves nothing behind (no directory, or an empty one as it
 * was); an accepted plan makes the store, and an add into an existing store finds a present entry without planning.
 */
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

describe("store add into a new store: planned before the store is made", () => {
  it("a plan the planner refuses (mesh-two-stage rows=2 for P = 7): exit 2, no directory made", async () => {
    const d = tempDir("add-new-refused-planner");
    const m = join(d, "m7.json");
    expect((await run("gen", "uniform", "--p", "7", "-o", m)).code).toBe(0);
    const add = await run("store", "add", join(d, "ns2"), m, "-a", "mesh-two-stage", "--param", "rows=2");
    expect(add).toMatchObject({ code: 2, out: "" });
    expect(add.err.split("\n")).toHaveLength(2); // one line
    expect(existsSync(join(d, "ns2"))).toBe(false);
    mkdirSync(join(d, "empty"));
    const into = await run("store", "add", join(d, "empty"), m, "-a", "mesh-two-stage", "--param", "rows=2");
    expect(into.code).toBe(2);
    expect(readdirSync(join(d, "empty"))).toEqual([]); // an empty directory stays empty
  });

  it("a plan past --max-memory: exit 2, no directory made; under a larger budget the store is made and added to", async () => {
    const d = tempDir("add-new-refused-memory");
    const m = join(d, "m.json");
    expect((await run("gen", "uniform", "--p", "512", "-o", m)).code).toBe(0);
    const add = await run("store", "add", join(d, "s"), m, "-a", "shift", "--max-memory", "8M");
    expect(add).toMatchObject({ code: 2, out: "" });
    expect(add.err).toMatch(/past the memory budget of 8 MiB/);
    expect(existsSync(join(d, "s"))).toBe(false);
    const ok = await run("store", "add", join(d, "s"), m, "-a", "shift", "--max-memory", "16M");
    expect(ok.code).toBe(0);
    expect(readdirSync(join(d, "s")).sort()).toEqual(["commplan-store.json", "entries", "log", "tmp"]);
    const again = await run("store", "add", join(d, "s"), m, "-a", "shift");
    expect(again.code).toBe(0);
    expect(again.err).toBe(`store: ${ok.out.trim()} present\n`);
  });
});
