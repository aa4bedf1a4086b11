/** mesh-two-stage (A3, 004 sec 3.1.3): every perfect square up to 144, Table 3 start-ups, longest message, hot spots, non-squares refused. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCommplanError } from "../../../src/model/errors.js";
import { matrixDigest, matrixFromData, matrixFromRows } from "../../../src/model/matrix.js";
import { ScheduleBuilder } from "../../../src/model/schedule.js";
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
  it("names the nearest squares when P is not a perfect square", () => {
    for (const [p, lo, hi] of [
      [61, 49, 64],
      [2, 1, 4],
      [15, 9, 16],
      [17, 16, 25],
    ] as const) {
      const e = errorOf(() => plan(buildMatrix({ p, kind: "sparse", seed: 1, maxEntry: 5 }), "mesh-two-stage"));
      expect(e.message).toBe(
        `planner: mesh-two-stage needs P a perfect square; P = ${p} lies between ${lo} and ${hi} (use four-stage for any P)`,
      );
      expect((e as { code?: string }).code).toBe("UNSUPPORTED");
    }
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
