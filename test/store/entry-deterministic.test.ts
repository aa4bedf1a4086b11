/**
 * The same input gives the same entry bytes: `store add` of one matrix and planner into two fresh stores, by two
 * processes (another pid, another time), writes byte-identical entries whose seal verifies; who wrote an entry and
 * when is kept in the store's log, where `store list` reads it (and, for an entry an earlier commplan wrote, in its
 * header).
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generatePattern } from "../../src/patterns/index.js";
import { plan } from "../../src/planner/registry.js";
import { encodeScheduleArrow, readScheduleArrowHeader } from "../../src/io/schedule-arrow.js";
import { addPlan, getPlan, listPlans, openPlanStore, resolveStoreRequest, verifyStore } from "../../src/store/index.js";
import { SEAL_KEY, SEAL_PLACEHOLDER, sealBytes, sealProblem } from "../../src/store/entry-seal.js";
import type { JsonValue } from "../../src/model/schedule.js";
import { tempDir } from "../helpers/temp-dir.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "commplan.js");

function cli(argv: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...argv], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The log's lines as JSON. */
const logOf = (store: string): { add: string; host: string; pid: number; time: string }[] =>
  readFileSync(join(store, "log"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { add: string; host: string; pid: number; time: string });

describe("store add: same input, same entry bytes", () => {
  it("two adds of one matrix and planner into two fresh stores, by two processes, write the same bytes", () => {
    const d = tempDir("store-same-bytes");
    const m = join(d, "m.json");
    expect(cli(["gen", "h-relation", "--p", "8", "--h", "2", "--seed", "3", "-o", m]).code).toBe(0);
    const stores = [join(d, "a"), join(d, "b")];
    const ids = stores.map((s) => {
      const add = cli(["store", "add", s, m, "-a", "four-stage", "--payload", "--seed", "2"]);
      expect(add.code, add.err).toBe(0);
      return add.out.trim();
    });
    expect(ids[1]).toBe(ids[0]);
    const id = ids[0]!;
    const files = stores.map((s) => join(s, "entries", id.slice(0, 2), `${id}.arrow`));
    const [a, b] = files.map((f) => readFileSync(f));
    expect(Buffer.compare(a!, b!)).toBe(0);
    expect(sealProblem(a!)).toBeNull(); // the seal still verifies
    // the writers differ: each store's log names its own process, and list shows it
    const logs = stores.map((s) => logOf(s));
    expect(logs.map((l) => l.map((r) => r.add))).toEqual([[id], [id]]);
    expect(logs[0]![0]!.pid).not.toBe(logs[1]![0]!.pid);
    expect(readScheduleArrowHeader(a!)).not.toHaveProperty("created");
    for (const [i, s] of stores.entries()) {
      expect(cli(["store", "verify", s]).code).toBe(0);
      const list = JSON.parse(cli(["store", "list", s, "--json"]).out) as { entries: { created: unknown }[] };
      expect(list.entries.map((e) => e.created)).toEqual([
        { host: logs[i]![0]!.host, pid: logs[i]![0]!.pid, time: logs[i]![0]!.time },
      ]);
      expect(cli(["store", "get", s, "--id", id, "-o", join(d, `${i}.json`)]).code).toBe(0);
    }
    expect(readFileSync(join(d, "1.json"), "utf8")).toBe(readFileSync(join(d, "0.json"), "utf8"));
  });
});

describe("listPlans: the creation record comes from the store's log", () => {
  const m = generatePattern("uniform", 8, {}, 1);

  it("the last log line of an entry's id (added again after gc), none when the log has no line; bad lines passed over", () => {
    const s = openPlanStore(join(tempDir("store-log"), "s"), true);
    const r = resolveStoreRequest(m, "shift");
    addPlan(s, r.key, plan(m, "shift"));
    expect(listPlans(s)[0]!.created).toMatchObject({ host: hostname(), pid: process.pid });
    const later = { add: r.id, host: "other-host", pid: 7, time: "2030-01-01T00:00:00.000Z" };
    appendFileSync(join(s.dir, "log"), `{"add": "${r.id}", "host": "cut sh\nnot json\n[1]\n${JSON.stringify(later)}\n`);
    appendFileSync(join(s.dir, "log"), `{"add": "${r.id}", "host": "x", "pid": -1, "time": "t"}\n{"add": "${r.id}`);
    expect(listPlans(s)[0]!.created).toEqual({ host: "other-host", pid: 7, time: "2030-01-01T00:00:00.000Z" });
    expect(listPlans(s, true)[0]!.created).toEqual({ host: "other-host", pid: 7, time: "2030-01-01T00:00:00.000Z" });
    writeFileSync(join(s.dir, "log"), ""); // an entry copied in from another store: no line for it
    expect(listPlans(s)[0]!.created).toBeNull();
    expect(listPlans(s)[0]!.problem).toBeNull();
    expect(verifyStore(s).damaged).toEqual([]);
  });

  it("an entry an earlier commplan wrote, with `created` in its header, is sound and listed with that record", () => {
    const s = openPlanStore(join(tempDir("store-old-entry"), "s"), true);
    const r = resolveStoreRequest(m, "coloring");
    const created = { host: "old-host", pid: 42, time: "2026-01-01T00:00:00.000Z" };
    const extra = { store: { id: r.id, key: r.key as unknown as JsonValue }, created };
    const bytes = encodeScheduleArrow(plan(m, "coloring"), extra, { [SEAL_KEY]: SEAL_PLACEHOLDER });
    sealBytes(bytes);
    mkdirSync(join(s.dir, "entries", r.id.slice(0, 2)));
    writeFileSync(join(s.dir, "entries", r.id.slice(0, 2), `${r.id}.arrow`), bytes);
    expect(listPlans(s)[0]!.created).toEqual(created);
    expect(verifyStore(s).damaged).toEqual([]);
    expect(getPlan(s, r.key)!.algorithm).toBe("coloring");
  });
});
