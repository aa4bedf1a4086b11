/**
 * `store add` into a directory that is not a store yet plans (and checks the plan's memory) before it makes the store:
 * a plan the planner refuses or the memory check refuses leaves nothing behind (no directory, or an empty one as it
 * was); an accepted plan makes the store, and an add into an existing store finds a present entry without planning.
 * A directory that is not empty and not a store is refused before anything is planned.
 */
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
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
    expect(again.err).toBe(`store add: ${ok.out.trim()} present\n`);
  });

  it("a directory not empty and not a store is refused before planning: not the planner's or the memory refusal", async () => {
    const d = tempDir("add-foreign-dir-first");
    const m = join(d, "m7.json");
    expect((await run("gen", "uniform", "--p", "7", "-o", m)).code).toBe(0);
    const foreign = join(d, "foreign");
    mkdirSync(foreign);
    writeFileSync(join(foreign, "notes.txt"), "x");
    const refusal = `store add: ${foreign}: not empty and not a plan store (holds notes.txt)\n`;
    // planning would fail (mesh-two-stage rows=2 for P = 7): the refusal reported is the directory's
    const planner = await run("store", "add", foreign, m, "-a", "mesh-two-stage", "--param", "rows=2");
    expect(planner).toEqual({ code: 2, out: "", err: refusal });
    // the plan's memory check would fail too (P = 512 past 8 MiB, as above): it is not reached either
    const big = join(d, "m512.json");
    expect((await run("gen", "uniform", "--p", "512", "-o", big)).code).toBe(0);
    const memory = await run("store", "add", foreign, big, "-a", "shift", "--max-memory", "8M");
    expect(memory).toEqual({ code: 2, out: "", err: refusal });
    // a plan that would succeed: the same refusal as before
    expect(await run("store", "add", foreign, m, "-a", "shift")).toEqual({ code: 2, out: "", err: refusal });
    expect(readdirSync(foreign)).toEqual(["notes.txt"]);
    // a store's part of the wrong kind in a directory not a store yet (a link at tmp): refused before planning too
    const linked = join(d, "linked");
    mkdirSync(linked);
    symlinkSync(d, join(linked, "tmp"));
    const viaLink = await run("store", "add", linked, m, "-a", "mesh-two-stage", "--param", "rows=2");
    expect(viaLink.code).toBe(2);
    expect(viaLink.err).toMatch(
      /^store add: .*tmp: a symbolic link where the store keeps its temporary files, in a directory/,
    );
    expect(readdirSync(linked)).toEqual(["tmp"]);
  });
});
