/** Plan store: add, get, list, verify, gc; a damaged entry (a flipped byte, a truncation) is refused by name and never served. */
import { readFileSync, readdirSync, truncateSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generatePattern } from "../../src/patterns/index.js";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { plan } from "../../src/planner/registry.js";
import { findMachine } from "../../src/machines/presets.js";
import { planAuto } from "../../src/auto/index.js";
import type { Schedule } from "../../src/model/schedule.js";
import {
  addPlan,
  gcStore,
  getOrPlan,
  getPlan,
  listPlans,
  openPlanStore,
  resolveStoreRequest,
  verifyStore,
} from "../../src/store/index.js";
import { errorOf } from "../helpers/errors.js";
import { tempDir } from "../helpers/temp-dir.js";

const m = generatePattern("h-relation", 16, { h: 3 }, 5);

/** A schedule's stages and transfers as JSON (what a plan is, without its header). */
const stagesOf = (x: Schedule): unknown => JSON.parse(scheduleToJsonText(x)).stages;

function fresh(): ReturnType<typeof openPlanStore> {
  return openPlanStore(join(tempDir("store"), "s"), true);
}

describe("plan store", () => {
  it("adds once, gets the same plan back, lists it with its key", () => {
    const s = fresh();
    const r = resolveStoreRequest(m, "four-stage", { payload: true, seed: 3 });
    const sched = plan(m, "four-stage", { payload: true, seed: 3 });
    expect(getPlan(s, r.key)).toBeNull();
    expect(addPlan(s, r.key, sched).written).toBe(true);
    expect(addPlan(s, r.key, sched).written).toBe(false);
    expect(scheduleToJsonText(getPlan(s, r.key)!)).toBe(scheduleToJsonText(sched));
    const list = listPlans(s);
    expect(list).toHaveLength(1);
    expect(list[0]!.key!.algorithm).toBe("four-stage");
    expect(list[0]!.key!.payload).toBe(true);
    expect(list[0]!.created!.pid).toBe(process.pid);
    expect(readFileSync(join(s.dir, "log"), "utf8").trim().split("\n")).toHaveLength(1);
  });

  it("keys differ by algorithm, params, seed, payload and machine; defaults are filled before keying", () => {
    const ids = new Set(
      [
        resolveStoreRequest(m, "shift"),
        resolveStoreRequest(m, "coloring"),
        resolveStoreRequest(m, "shift", { seed: 2 }),
        resolveStoreRequest(m, "shift", { payload: true }),
        resolveStoreRequest(m, "two-stage", { params: { reshuffle: true } }),
        resolveStoreRequest(m, "two-stage"),
      ].map((r) => r.id),
    );
    expect(ids.size).toBe(6);
    expect(resolveStoreRequest(m, "two-stage", { params: { reshuffle: false } }).id).toBe(
      resolveStoreRequest(m, "two-stage").id,
    );
  });

  it("the machine is part of the key only for planners whose plans depend on it (rs-nh, split-coloring)", () => {
    const t3d = findMachine("t3d-004"),
      sp2 = findMachine("sp2-004");
    for (const algorithm of ["shift", "coloring", "four-stage"]) {
      const ids = [null, t3d, sp2].map((machine) => resolveStoreRequest(m, algorithm, { machine }).id);
      expect(new Set(ids).size, algorithm).toBe(1);
    }
    for (const algorithm of ["rs-nh", "split-coloring"]) {
      const ids = [null, t3d, sp2].map((machine) => resolveStoreRequest(m, algorithm, { machine }).id);
      expect(new Set(ids).size, algorithm).toBe(3);
    }
  });

  it("getOrPlan plans once, then serves the stored plan", () => {
    const s = fresh();
    const a = getOrPlan(s, m, { algorithm: "coloring" });
    const b = getOrPlan(s, m, { algorithm: "coloring" });
    expect([a.stored, b.stored]).toEqual([false, true]);
    expect(scheduleToJsonText(b.schedule)).toBe(scheduleToJsonText(a.schedule));
  });

  for (const [what, damage] of [
    [
      "a flipped byte",
      (f: string) => {
        const b = readFileSync(f);
        b[Math.floor(b.length / 2)]! ^= 0x10;
        writeFileSync(f, b);
      },
    ],
    [
      "a flipped byte in the header",
      (f: string) => {
        const b = readFileSync(f);
        b[10]! ^= 0x01;
        writeFileSync(f, b);
      },
    ],
    ["a truncation", (f: string) => truncateSync(f, Math.floor(readFileSync(f).length * 0.7))],
    ["an empty file", (f: string) => truncateSync(f, 0)],
  ] as const) {
    it(`an entry damaged by ${what} is refused by name, reported by verify and removed by gc`, () => {
      const s = fresh();
      const good = resolveStoreRequest(m, "shift");
      const bad = resolveStoreRequest(m, "linear-permutation");
      addPlan(s, good.key, plan(m, "shift"));
      const { file } = addPlan(s, bad.key, plan(m, "linear-permutation"));
      damage(file);
      expect(() => getPlan(s, bad.key)).toThrow(new RegExp(`^store: .*${bad.id}\\.arrow: entry ${bad.id} is damaged`));
      expect(() => getOrPlan(s, m, { algorithm: "linear-permutation" })).toThrow(/is damaged/);
      const rep = verifyStore(s);
      expect(rep.entries).toBe(2);
      expect(rep.damaged.map((e) => e.id)).toEqual([bad.id]);
      expect(gcStore(s).damaged).toEqual([bad.id]);
      expect(verifyStore(s).damaged).toEqual([]);
      expect(getPlan(s, good.key)).not.toBeNull();
      expect(getOrPlan(s, m, { algorithm: "linear-permutation" }).stored).toBe(false);
    });
  }

  it("gc removes temporary files of dead writers, keeps those of live ones", () => {
    const s = fresh();
    const dead = join(s.dir, "tmp", `${hostname()}.999999999.abcd.tmp`);
    const live = join(s.dir, "tmp", `${hostname()}.${process.pid}.abcd.tmp`);
    writeFileSync(dead, "x");
    writeFileSync(live, "x");
    expect(verifyStore(s).temps).toBe(2);
    expect(gcStore(s).temps).toBe(1);
    expect(readdirSync(join(s.dir, "tmp"))).toEqual([live.split("/").pop()]);
  });

  it("refuses a directory that is not a store, and opening a missing store without create", () => {
    const d = tempDir("store");
    writeFileSync(join(d, "x.txt"), "hi");
    expect(() => openPlanStore(d, true)).toThrow(/^store: .*not empty and not a plan store/);
    for (const create of [true, false])
      expect(() => openPlanStore(join(d, "x.txt"), create)).toThrow(
        /^store: .*x\.txt: is a file, not a plan store directory/,
      );
    expect(() => openPlanStore(join(d, "nope"))).toThrow(/^store: .*not a plan store/);
  });
});

describe("plan store: auto", () => {
  it("keeps auto's pick as 'auto', keyed by the machine: the winner's plan, planned once; a machine is required, params refused", () => {
    const s = fresh();
    const t3d = findMachine("t3d-004");
    const a = getOrPlan(s, m, { algorithm: "auto", machine: t3d, payload: true });
    const b = getOrPlan(s, m, { algorithm: "auto", machine: t3d, payload: true });
    expect([a.stored, b.stored]).toEqual([false, true]);
    const direct = planAuto(m, t3d, { payload: true }).schedule;
    expect(b.schedule.algorithm).toBe(direct.algorithm);
    expect(stagesOf(b.schedule)).toEqual(stagesOf(direct));
    const other = resolveStoreRequest(m, "auto", { machine: findMachine("sp2-004"), payload: true });
    expect(other.id).not.toBe(a.id);
    expect(() => resolveStoreRequest(m, "auto")).toThrow(
      /^store: auto needs the option machine \(the machine it chooses for\)$/,
    );
    expect(() => resolveStoreRequest(m, "auto", { machine: t3d, params: { x: 1 } })).toThrow(
      /auto chooses the parameters itself/,
    );
  });
});

describe("plan store: a key that is not a store key is refused, not answered 'not stored'", () => {
  it("getPlan and addPlan name the missing or wrong field in one line; the key listPlans gives back still serves", () => {
    const s = fresh();
    const r = resolveStoreRequest(m, "shift", {});
    const sched = plan(m, "shift");
    const refusal = (f: () => unknown): { code: string; field: unknown; message: string } => {
      const e = errorOf(f);
      return { code: e.code, field: e.place.field, message: e.message };
    };
    expect(refusal(() => getPlan(s, {} as never))).toEqual({
      code: "BAD_INPUT",
      field: "format",
      message:
        "store: getPlan: the key has no format (a string); a key lists format, matrixDigest, p, elementBytes, " +
        "algorithm, params, seed, payload, machine",
    });
    expect(refusal(() => getPlan(s, null as never)).message).toBe(
      "store: getPlan: the key must be a store key object, got null",
    );
    const { seed: _, ...noSeed } = r.key;
    expect(refusal(() => getPlan(s, noSeed as never)).field).toBe("seed");
    expect(refusal(() => getPlan(s, { ...r.key, p: "16" } as never)).message).toBe(
      'store: getPlan: the key\'s p must be an integer >= 1, got "16"',
    );
    expect(refusal(() => addPlan(s, { ...r.key, algoritm: "shift" } as never, sched)).message).toBe(
      "store: addPlan: the key has a field 'algoritm' no store key has",
    );
    expect(listPlans(s)).toHaveLength(0);
    addPlan(s, r.key, sched);
    expect(getPlan(s, listPlans(s)[0]!.key!)).not.toBeNull();
  });
});
