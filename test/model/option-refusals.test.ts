/** Bad options at the public entry points: one-line BAD_OPTION errors naming the option, not a result or TypeError. */
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareMatrix, findMachine, generatePattern, lowerSchedule, plan, planAuto } from "../../src/index.js";
import { libraryAlltoallvPick, replayLibraryAlltoallvAs, replayProgram } from "../../src/entries/sim.js";
import { addPlan, getOrPlan, openPlanStore } from "../../src/entries/store.js";
import { matrixArb, plannerProperty, verifyOrThrow } from "../../src/testing/index.js";
import { resolveStoreRequest } from "../../src/store/store-key.js";
import { errorOf } from "../helpers/errors.js";
import { tempDir } from "../helpers/temp-dir.js";

const m = generatePattern("uniform", 8, {}, 1);
const machine = findMachine("t3d-004");
const schedule = plan(m, "shift");
const program = lowerSchedule(m, schedule).program;

/** Asserts that f throws BAD_OPTION on `field` with a one-line message. */
function refused(f: () => unknown, field: string): void {
  const e = errorOf(f);
  expect({ code: e.code, field: e.place.field }).toEqual({ code: "BAD_OPTION", field });
  expect(e.message).not.toContain("\n");
}

const badMachines: unknown[] = ["ib-hdr-200", { ...machine, td: NaN }, { ...machine, tc: -1 }, undefined];

describe("program replay", () => {
  it("refuses a bad machine as BAD_OPTION machine, not as a deadlock of the program", () => {
    for (const bad of badMachines) {
      const opts = (bad === undefined ? {} : { machine: bad }) as Parameters<typeof replayProgram>[1];
      refused(() => replayProgram(program, opts), "machine");
      refused(() => replayLibraryAlltoallvAs("ompi", m, opts), "machine");
    }
    expect(errorOf(() => replayProgram(program, { machine: { ...machine, td: NaN } })).message).toContain(
      "td = NaN is not a finite number >= 0",
    );
  });

  it("refuses an unknown runtime on field runtime (replay and planAuto)", () => {
    refused(() => replayProgram(program, { machine, runtime: "nope" }), "runtime");
    refused(() => replayLibraryAlltoallvAs("ompi", m, { machine, runtime: "nope" }), "runtime");
    refused(() => planAuto(m, machine, { runtime: "nope" }), "runtime");
  });

  it("refuses options that are not an object, and non-boolean flags", () => {
    refused(() => replayProgram(program, undefined as never), "options");
    refused(() => replayProgram(program, { machine, timeline: "yes" as never }), "timeline");
    refused(() => replayProgram(program, { machine, selectiveUpdate: 1 as never }), "selectiveUpdate");
  });

  it("libraryAlltoallvPick refuses P that is not a positive integer", () => {
    for (const p of [-1, 0, 1.5, NaN]) refused(() => libraryAlltoallvPick("ompi", p), "p");
    expect([1, 4, 64].map((p) => libraryAlltoallvPick("ompi", p))).toEqual(["pair", "ompi_basic_linear", "pair"]);
  });
});

describe("plan, planAuto, compareMatrix", () => {
  const badMemory: unknown[] = ["x", -1, NaN, 0];

  it("refuse a bad maxMemory", () => {
    for (const v of badMemory) {
      refused(() => plan(m, "coloring", { maxMemory: v as number }), "maxMemory");
      refused(() => planAuto(m, machine, { maxMemory: v as number }), "maxMemory");
      refused(() => compareMatrix(m, { machine, maxMemory: v as number }), "maxMemory");
    }
  });

  it("take maxMemory Infinity (no limit) and null or undefined (the default), as before; payload null as false", () => {
    const shift = JSON.stringify(plan(m, "shift"));
    for (const v of [Infinity, null, undefined])
      expect(JSON.stringify(plan(m, "shift", { maxMemory: v as number }))).toBe(shift);
    expect(JSON.stringify(plan(m, "shift", { payload: null as never }))).toBe(shift);
    // the readers that take the option through memoryBudgetOf check it too (lowerSchedule took "x" as no limit)
    refused(() => lowerSchedule(m, schedule, { maxMemory: "x" as never }), "maxMemory");
    expect(lowerSchedule(m, schedule, { maxMemory: Infinity }).program.p).toBe(8);
  });

  it("refuse a payload that is not a boolean", () => {
    for (const v of ["yes", 1]) {
      refused(() => plan(m, "shift", { payload: v as never }), "payload");
      refused(() => planAuto(m, machine, { payload: v as never }), "payload");
      refused(() => compareMatrix(m, { machine, payload: v as never }), "payload");
    }
  });

  it("compareMatrix refuses a bad seed instead of skipping every planner", () => {
    for (const v of [-1, 1.5, NaN]) refused(() => compareMatrix(m, { machine, seed: v }), "seed");
  });

  it("refuse options that are not an object", () => {
    for (const v of ["x", null, 3, []]) {
      refused(() => plan(m, "shift", v as never), "options");
      refused(() => planAuto(m, machine, v as never), "options");
      refused(() => compareMatrix(m, v as never), "options");
    }
    refused(() => compareMatrix(m, undefined as never), "options");
  });
});

describe("generatePattern", () => {
  it("refuses options and input that are not objects, and a bad maxMemory", () => {
    refused(() => generatePattern("pattern1", 8, null as never, 1), "options");
    refused(() => generatePattern("uniform", 8, "x" as never, 1), "options");
    refused(() => generatePattern("uniform", 8, {}, 1, null as never), "input");
    refused(() => generatePattern("uniform", 8, {}, 1, { maxMemory: -1 }), "maxMemory");
  });
});

describe("the store's request", () => {
  const store = (): ReturnType<typeof openPlanStore> => openPlanStore(join(tempDir("refusals"), "s"), true);

  it("getOrPlan refuses a missing request, a bad payload or maxMemory, an origin of the wrong shape", () => {
    const s = store();
    refused(() => getOrPlan(s, m, undefined as never), "options");
    refused(() => getOrPlan(s, m, "shift" as never), "options");
    for (const v of ["yes", 1]) {
      refused(() => getOrPlan(s, m, { algorithm: "shift", payload: v as never }), "payload");
      refused(() => getOrPlan(s, m, { algorithm: "auto", machine, payload: v as never }), "payload");
    }
    for (const v of ["x", -1, NaN]) {
      refused(() => getOrPlan(s, m, { algorithm: "shift", maxMemory: v as number }), "maxMemory");
      refused(() => getOrPlan(s, m, { algorithm: "auto", machine, maxMemory: v as number }), "maxMemory");
    }
    const origins: unknown[] = [
      "x",
      [],
      { foo: 1 },
      { pattern: "uniform", options: {}, seed: 1 },
      { pattern: "uniform", options: { a: "1" }, seed: 1, p: 8 },
      { pattern: "uniform", options: {}, seed: -1, p: 8 },
      { matrixFile: 3, p: 8 },
      { matrixFile: "m.json", p: 0 },
      { matrixFile: "m.json", p: 8, extra: true },
    ];
    for (const o of origins) refused(() => getOrPlan(s, m, { algorithm: "shift", origin: o as never }), "origin");
    const { key } = resolveStoreRequest(m, "shift");
    refused(() => addPlan(s, key, schedule, { matrixFile: "m.json" } as never), "origin");
    expect(getOrPlan(s, m, { algorithm: "shift", origin: { matrixFile: "m.json", p: 8 } }).stored).toBe(false);
    expect(
      getOrPlan(s, m, { algorithm: "shift", origin: { pattern: "uniform", options: {}, seed: 1, p: 8 } }).stored,
    ).toBe(true);
  });
});

describe("the testing kit", () => {
  const bad: [string, object][] = [
    ["maxSteps", { maxSteps: NaN }],
    ["maxSteps", { maxSteps: -1 }],
    ["maxSteps", { maxSteps: () => "x" }],
    ["maxBuffer", { maxBuffer: NaN }],
    ["maxBuffer", { maxBuffer: () => NaN }],
    ["ports", { ports: 0 }],
    ["ports", { ports: "2" }],
    ["allowUnproven", { allowUnproven: "yes" }],
    ["time.factor", { time: { machine: "t3d-004", factor: NaN } }],
    ["time.factor", { time: { machine: "t3d-004", factor: -1 } }],
    ["time.machine", { time: { machine: "nope", factor: 4 } }],
    ["time.machine", { time: { machine: { ...machine, td: NaN }, factor: 4 } }],
    ["time.mode", { time: { machine: "t3d-004", factor: 4, mode: "x" } }],
    ["time", { time: "x" }],
    ["options", "x" as never],
  ];

  it("verifyOrThrow refuses bad options up front, never a passing check or a schedule's failure", () => {
    for (const [field, o] of bad) refused(() => verifyOrThrow(m, schedule, o), field);
  });

  it("plannerProperty refuses them when the property is made", () => {
    // a bound given as a function is checked where it is called, on a matrix
    const upFront = bad.filter(([, o]) => !Object.values(o).some((v) => typeof v === "function"));
    for (const [field, o] of upFront) refused(() => plannerProperty((x) => plan(x, "shift"), o), field);
  });

  it("matrixArb refuses options that are not an object, and flags and densities of the wrong type", () => {
    refused(() => matrixArb("x" as never), "options");
    refused(() => matrixArb(null as never), "options");
    refused(() => matrixArb({ densities: "x" as never }), "densities");
    refused(() => matrixArb({ emptyRows: "no" as never }), "emptyRows");
    refused(() => matrixArb({ diagonal: 0 as never }), "diagonal");
    expect(fc.sample(matrixArb({ maxP: 3, diagonal: false }), 5)).toHaveLength(5);
  });

  it("still takes valid bounds, a function among them", () => {
    const ok = {
      ports: Infinity,
      maxSteps: (x: { p: number }) => x.p,
      maxBuffer: Infinity,
      time: { machine, factor: 8 },
    };
    expect(verifyOrThrow(m, schedule, ok).checks.length).toBeGreaterThan(0);
    expect(() => verifyOrThrow(m, schedule, { maxSteps: 0 })).toThrow(/check 'max-steps' fails/);
  });
});
