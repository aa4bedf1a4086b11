import { describe, expect, it } from "vitest";
import { findMachine, MACHINES } from "../../src/machines/presets.js";
import { isCommplanError } from "../../src/model/errors.js";

describe("MACHINES", () => {
  it("has unique kebab-case names", () => {
    const names = MACHINES.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it.each(MACHINES.map((m) => [m.name, m] as const))("%s has a source and positive, consistent numbers", (_, m) => {
    expect(m.source.trim().length).toBeGreaterThan(0);
    expect(m.title.trim().length).toBeGreaterThan(0);
    expect((m.notes ?? "").trim().length).toBeGreaterThan(0);
    for (const v of [m.ts, m.tsSend, m.tc, m.td, m.tm, m.barrier, m.ports]) {
      expect(Number.isFinite(v)).toBe(true);
      expect(v).toBeGreaterThan(0);
    }
    expect(m.tsSend).toBeLessThanOrEqual(m.ts);
    expect(Number.isInteger(m.ports)).toBe(true);
  });

  it("keeps both old tables, each labelled with its paper", () => {
    for (const n of ["cm5-004", "sp2-004", "t3d-004", "t3e-004", "myrinet-004"])
      expect(findMachine(n).source).toContain("004");
    for (const n of ["cm5-002", "sp2-002", "t3d-002", "atm-002", "myrinet-002"])
      expect(findMachine(n).source).toContain("002");
  });

  it("reproduces the table figures (start-up and t_c + t_d)", () => {
    const rows: [string, number, number][] = [
      ["cm5-004", 85, 0.12],
      ["sp2-004", 44, 0.035],
      ["t3d-004", 38, 0.043],
      ["t3e-004", 28, 0.006],
      ["myrinet-004", 68, 0.027],
      ["cm5-002", 170, 0.12],
      ["sp2-002", 96, 0.035],
      ["t3d-002", 186, 0.043],
      ["atm-002", 240, 0.14],
      ["myrinet-002", 600, 0.08],
    ];
    for (const [n, ts, perByte] of rows) {
      const m = findMachine(n);
      expect(m.ts).toBe(ts);
      expect(m.tc + m.td).toBeCloseTo(perByte, 12);
      expect(m.ports).toBe(1);
    }
  });

  it("puts the CM-5's copy cost on the processor side (no DMA): t_c > t_d", () => {
    const m = findMachine("cm5-004");
    expect(m.tc).toBeGreaterThan(m.td);
  });

  it("has at least three of today's interconnects with cited URLs", () => {
    const modern = ["ib-hdr-200", "ib-ndr-400", "roce-100g", "nvlink4-h100"].map(findMachine);
    for (const m of modern) expect(m.source).toMatch(/https:\/\//);
    // beta = 1 / bandwidth, at most the nominal link rate
    expect(1 / (findMachine("ib-hdr-200").tc + findMachine("ib-hdr-200").td)).toBeCloseTo(21307.34, 6);
    expect(findMachine("ib-ndr-400").td).toBeCloseTo(1 / 50000, 15);
    expect(findMachine("roce-100g").td).toBeCloseTo(1 / 12500, 15);
    expect(1 / (findMachine("nvlink4-h100").tc + findMachine("nvlink4-h100").td)).toBeCloseTo(376000, 3);
  });
});

describe("findMachine", () => {
  it("finds a preset by name", () => {
    expect(findMachine("t3d-004").ts).toBe(38);
  });

  it("throws a BAD_OPTION CommplanError naming the known machines", () => {
    let caught: unknown;
    try {
      findMachine("cray-1");
    } catch (e) {
      caught = e;
    }
    expect(isCommplanError(caught)).toBe(true);
    if (!isCommplanError(caught)) return;
    expect(caught.code).toBe("BAD_OPTION");
    expect(caught.message).toMatch(/^machines: unknown machine 'cray-1'; known: cm5-004, /);
    for (const m of MACHINES) expect(caught.message).toContain(m.name);
  });

  it("is case-sensitive", () => {
    expect(() => findMachine("CM5-004")).toThrow(/unknown machine/);
  });
});
