/** mesh-two-stage (A3, 004 sec 3.1.3): every perfect square up to 144, any R x C grid, Table 3 start-ups, longest message, hot spots, bad grids refused. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCommplanError } from "../../../src/model/errors.js";
import { matrixDigest, matrixFromData, matrixFromRows } from "../../../src/model/matrix.js";
import { ScheduleBuilder, stageOfStep, stepOfTransfer } from "../../../src/model/schedule.js";
import { generatePattern } from "../../../src/patterns/index.js";
import { plan } from "../../../src/planner/index.js";
import { verifySchedule } from "../../../src/verifier/index.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";

const failing = (r: ReturnType<typeof verifySchedule>) =>
  r.checks.filter((c) => !c.holds).map((c) => `${c.id}: ${c.witness}`);
const checkOf = (r: ReturnType<typeof verifySchedule>, id: string) => {
  const c = r.checks.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
};
const errorOf = (f: () => unknown): Error => {
  try {
    f();
  } catch (e) {
    if (isCommplanError(e)) return e;
    throw e;
  }
  throw new Error("no error");
};

describe("mesh-two-stage: verifies for every perfect square up to 144", () => {
  for (let q = 1; q <= 12; q++) {
    it(`P = ${q * q}`, () => {
      const m = buildMatrix({ p: q * q, kind: q % 2 ? "dense" : "sparse", seed: q, maxEntry: 50 });
      for (const schedule of ["shift", "linear-permutation"]) {
        const s = plan(m, "mesh-two-stage", { payload: true, params: { schedule } });
        expect(s.stages.map((x) => x.rearrange)).toEqual(["compose", "collect"]);
        expect(failing(verifySchedule(m, s))).toEqual([]);
      }
    });
  }
  it("random matrices of every kind, payload and message level", () => {
    const arb = fc.record({
      q: fc.integer({ min: 1, max: 12 }),
      r: matrixRecipe({ minP: 1, maxP: 1 }),
      payload: fc.boolean(),
      schedule: fc.constantFrom("shift", "linear-permutation"),
    });
    fc.assert(
      fc.property(arb, ({ q, r, payload, schedule }) => {
        const m = buildMatrix({ ...r, p: q * q });
        const s = plan(m, "mesh-two-stage", { payload: payload && r.kind !== "huge", params: { schedule } });
        expect(failing(verifySchedule(m, s))).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});

describe("mesh-two-stage: any R x C grid", () => {
  it("plans every P up to 64 on its default grid and on every divisor as rows, and each plan verifies", () => {
    for (let p = 1; p <= 64; p++) {
      const m = buildMatrix({ p, kind: p % 3 === 0 ? "dense" : "sparse", seed: p, maxEntry: 40 });
      const rowsList = [undefined, ...Array.from({ length: p }, (_, i) => i + 1).filter((r) => p % r === 0)];
      for (const rows of p <= 24 ? rowsList : [undefined, 1, p]) {
        const s = plan(m, "mesh-two-stage", { payload: true, params: rows === undefined ? {} : { rows } });
        const r = s.params["rows"] as number,
          c = s.params["columns"] as number;
        expect(r * c, `P = ${p}`).toBe(p);
        if (rows !== undefined) expect(r).toBe(rows);
        expect(failing(verifySchedule(m, s)), `P = ${p}, rows = ${rows}`).toEqual([]);
      }
    }
  });
  it("defaults to sqrt(P) on squares and to the divisor nearest below sqrt(P) otherwise", () => {
    const rowsOf = (p: number) =>
      plan(buildMatrix({ p, kind: "dense", seed: 1, maxEntry: 3 }), "mesh-two-stage").params["rows"];
    expect([16, 12, 61, 128, 60].map(rowsOf)).toEqual([4, 3, 1, 8, 6]);
  });
  it("on a 4 x 8 grid (4 nodes of 8 GPUs) stage 1 stays on a node and stage 2 on a rail, with 7 + 3 messages per rank", () => {
    const p = 32;
    const m = matrixFromData(p, new Float64Array(p * p).fill(2));
    const s = plan(m, "mesh-two-stage", { params: { rows: 4 } });
    const stageOf = stageOfStep(s),
      stepOf = stepOfTransfer(s);
    for (let x = 0; x < s.transferCount; x++) {
      const a = s.src[x]!,
        b = s.dst[x]!;
      if (stageOf[stepOf[x]!] === 0) expect(Math.floor(a / 8)).toBe(Math.floor(b / 8));
      else expect(a % 8).toBe(b % 8);
    }
    const r = verifySchedule(m, s);
    expect(checkOf(r, "mesh-two-stage-start-ups").measured).toBe(10);
    expect(checkOf(r, "mesh-two-stage-start-ups").bound).toBe(10);
    // stage 1 combines R = 4 messages of 2 elements, stage 2 combines C = 8 (off the diagonal: 7 plus the intermediate's own)
    expect(checkOf(r, "mesh-two-stage-longest").holds).toBe(true);
    expect(Math.max(...Array.from(s.size))).toBe(16);
  });
  it("the verifier refuses a header grid that does not multiply to P", () => {
    const m = buildMatrix({ p: 12, kind: "dense", seed: 1, maxEntry: 5 });
    const s = plan(m, "mesh-two-stage", { payload: true, params: { rows: 3 } });
    const bad = { ...s, params: { ...s.params, rows: 5 } } as typeof s;
    const r = verifySchedule(m, bad);
    expect(checkOf(r, "mesh-two-stage-grid").holds).toBe(false);
  });
});

describe("mesh-two-stage: the figures of 004 Tables 3 and 4", () => {
  it("a dense matrix of equal entries: 2 (sqrt P - 1) messages per node, longest message = sqrt(P) M_max", () => {
    for (const q of [2, 3, 5, 8]) {
      const p = q * q;
      const d = new Float64Array(p * p).fill(9);
      const m = matrixFromData(p, d);
      const r = verifySchedule(m, plan(m, "mesh-two-stage", { payload: true }));
      expect(failing(r)).toEqual([]);
      expect(checkOf(r, "mesh-two-stage-start-ups").measured).toBe(2 * (q - 1));
      expect(checkOf(r, "mesh-two-stage-steps").measured).toBe(2 * (q - 1));
      expect(checkOf(r, "mesh-two-stage-longest").measured).toBe(q * 9);
      expect(checkOf(r, "mesh-two-stage-longest").bound).toBe(q * 9);
    }
  });
  it("004 Pattern2 (transpose) at P = 64: the spikes meet at the diagonal nodes (hot spots)", () => {
    const m = generatePattern("pattern2", 64, { mmax: 1024, small: 1 }, 1);
    const r = verifySchedule(m, plan(m, "mesh-two-stage", { payload: true }));
    expect(failing(r)).toEqual([]);
    // node (a, b) sends its spike to (b, a): stage 1 takes it to (a, a), so a diagonal node gathers its whole row's spikes
    const hot = checkOf(r, "mesh-two-stage-hot-spot");
    expect(hot.measured).toBeGreaterThanOrEqual(7 * 1024);
    expect(hot.measured).toBeLessThanOrEqual(64 * 1024);
  });
  it("the verifier rejects a stage 1 that leaves the row", () => {
    // P = 4 (2 x 2): node 0 sends straight to node 3 (row 1) in stage 1
    const m = matrixFromRows([
      [0, 0, 0, 5],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ]);
    const b = new ScheduleBuilder(
      {
        p: 4,
        algorithm: "mesh-two-stage",
        params: {},
        seed: 1,
        elementBytes: m.elementBytes,
        matrixDigest: matrixDigest(m),
      },
      true,
    );
    b.stage("1", "compose").step();
    b.transfer(0, 3, 5);
    b.chunk(0, 3, 0, 5);
    b.stage("2", "collect");
    const r = verifySchedule(m, b.build());
    expect(checkOf(r, "delivery").holds).toBe(true);
    expect(checkOf(r, "mesh-two-stage-lines").holds).toBe(false);
  });
});

describe("mesh-two-stage: errors", () => {
  it("refuses rows that do not divide P, naming both", () => {
    const m = buildMatrix({ p: 12, kind: "sparse", seed: 1, maxEntry: 5 });
    const e = errorOf(() => plan(m, "mesh-two-stage", { params: { rows: 5 } }));
    expect(e.message).toBe("planner: mesh-two-stage: rows = 5 does not divide P = 12");
    expect(errorOf(() => plan(m, "mesh-two-stage", { params: { rows: 0 } })).message).toMatch(/rows/);
  });
  it("rejects unknown and malformed params", () => {
    const m = buildMatrix({ p: 9, kind: "dense", seed: 1, maxEntry: 5 });
    expect(errorOf(() => plan(m, "mesh-two-stage", { params: { reshuffle: true } })).message).toMatch(
      /mesh-two-stage: unknown parameter 'reshuffle'/,
    );
    expect(errorOf(() => plan(m, "mesh-two-stage", { params: { schedule: 3 } })).message).toMatch(
      /mesh-two-stage: schedule must be/,
    );
  });
  it("is deterministic", () => {
    const m = buildMatrix({ p: 16, kind: "dense", seed: 2, maxEntry: 50 });
    const a = plan(m, "mesh-two-stage", { payload: true }),
      b = plan(m, "mesh-two-stage", { payload: true });
    expect(Array.from(a.size)).toEqual(Array.from(b.size));
    expect(Array.from(a.chunks!.origin)).toEqual(Array.from(b.chunks!.origin));
  });
});
