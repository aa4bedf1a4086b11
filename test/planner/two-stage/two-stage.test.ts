/** two-stage (000 sec 6): exactly-once delivery at payload level, the stage bounds of 000, the reshuffle of 6.3, params. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCommplanError } from "../../../src/model/errors.js";
import { matrixDigest, matrixFromData, matrixFromRows, type CommMatrix } from "../../../src/model/matrix.js";
import { matrixStats } from "../../../src/model/matrix-stats.js";
import { createRng } from "../../../src/model/rng.js";
import { ScheduleBuilder, type Schedule } from "../../../src/model/schedule.js";
import { generatePattern } from "../../../src/patterns/index.js";
import { plan } from "../../../src/planner/index.js";
import { partCount, partOffset, twoStageSplit } from "../../../src/planner/two-stage/index.js";
import { verifySchedule } from "../../../src/verifier/index.js";
import { buildMatrix, matrixRecipe, type MatrixRecipe } from "../../helpers/arbitraries.js";

const failing = (r: ReturnType<typeof verifySchedule>) =>
  r.checks.filter((c) => !c.holds).map((c) => `${c.id}: ${c.witness}`);
const checkOf = (r: ReturnType<typeof verifySchedule>, id: string) => {
  const c = r.checks.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
};

/** Keeps payload plans small: dense matrices above P = 40 get entries <= 7. */
const small = (r: MatrixRecipe): MatrixRecipe =>
  r.kind === "dense" && r.p > 40 ? { ...r, maxEntry: Math.min(r.maxEntry, 7) } : r;

/** A random equal-traffic matrix (every off-diagonal row and column sum = t): a weighted sum of random p-cycles. */
function equalTraffic(p: number, seed: number, cycles: number, maxWeight: number): CommMatrix {
  const rng = createRng(seed);
  const d = new Float64Array(p * p);
  for (let c = 0; c < cycles; c++) {
    const order = Array.from({ length: p }, (_, i) => i);
    for (let i = p - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const w = 1 + rng.int(maxWeight);
    for (let x = 0; x < p; x++) {
      const i = order[x]!,
        j = order[(x + 1) % p]!;
      d[i * p + j] = d[i * p + j]! + w;
    }
  }
  return matrixFromData(p, d);
}

/** Stage-level pair volumes, computed here independently of the verifier. */
function stageVolumes(s: Schedule, stage: number): Map<string, number> {
  const out = new Map<string, number>();
  const st = s.stages[stage]!;
  for (let x = s.stepStart[st.firstStep]!; x < s.stepStart[st.firstStep + st.stepCount]!; x++) {
    const key = `${s.src[x]}>${s.dst[x]}`;
    out.set(key, (out.get(key) ?? 0) + s.size[x]!);
  }
  return out;
}

describe("two-stage: the split of 000 fig. 7", () => {
  it("parts tile every message: counts differ by at most one and offsets are contiguous", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 1, max: 40 }), fc.nat(), (a, p, s0) => {
        const st = s0 % p;
        let off = 0,
          min = Infinity,
          max = 0;
        for (let k = 0; k < p; k++) {
          const c = partCount(a, p, st, k);
          expect(partOffset(a, p, st, k)).toBe(off);
          off += c;
          min = Math.min(min, c);
          max = Math.max(max, c);
        }
        expect(off).toBe(a);
        expect(max - min).toBeLessThanOrEqual(1);
      }),
    );
  });
  it("with the rotating start every intermediate holds exactly t after stage 1 (equal traffic)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 40 }),
        fc.nat(),
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        (p, seed, cycles, reshuffle) => {
          const m = equalTraffic(p, seed, cycles, 30);
          const t = matrixStats(m).t;
          const split = twoStageSplit(m, reshuffle, seed);
          for (let k = 0; k < p; k++) {
            let load = 0;
            for (let i = 0; i < p; i++) load += split.stage1[i * p + k]!;
            expect(load).toBe(t);
          }
        },
      ),
    );
  });
});

describe("two-stage: verifies at payload level", () => {
  it("P 1..128, every matrix kind, both schedules, with and without reshuffle", () => {
    const recipe = matrixRecipe({
      minP: 1,
      maxP: 128,
      kinds: ["dense", "sparse", "empty-rows", "zero", "permutation", "spike"],
    }).map(small);
    fc.assert(
      fc.property(
        recipe,
        fc.boolean(),
        fc.constantFrom("shift", "linear-permutation"),
        fc.integer({ min: 0, max: 1000 }),
        (r, reshuffle, schedule, seed) => {
          const m = buildMatrix(r);
          const s = plan(m, "two-stage", { payload: true, seed, params: { schedule, reshuffle } });
          expect(s.stages.map((x) => x.rearrange)).toEqual(["distribute", "collect"]);
          expect(failing(verifySchedule(m, s))).toEqual([]);
        },
      ),
      { numRuns: 35 },
    );
  });
  it("message level, huge entries (up to 2^40)", () => {
    fc.assert(
      fc.property(matrixRecipe({ minP: 1, maxP: 128, kinds: ["huge", "dense"] }), fc.boolean(), (r, reshuffle) => {
        const m = buildMatrix(r);
        const s = plan(m, "two-stage", { payload: false, params: { reshuffle: reshuffle && r.kind !== "huge" } });
        expect(s.chunks).toBeNull();
        expect(failing(verifySchedule(m, s))).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });
  it("message-level sizes equal the payload-level sizes", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ minP: 1, maxP: 30 }).filter((r) => r.kind !== "huge"),
        fc.boolean(),
        (r, reshuffle) => {
          const m = buildMatrix(r);
          const a = plan(m, "two-stage", { payload: true, params: { reshuffle } });
          const b = plan(m, "two-stage", { payload: false, params: { reshuffle } });
          expect(Array.from(b.size)).toEqual(Array.from(a.size));
          expect(Array.from(b.src)).toEqual(Array.from(a.src));
          expect(Array.from(b.dst)).toEqual(Array.from(a.dst));
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe("two-stage: every P from 1 to 128 at payload level (issue 5, done-when)", () => {
  it("random (entries 0..3, density 0.1) and divisible (entries P * {0, 1}, about one per row), with and without reshuffle", () => {
    for (let p = 1; p <= 128; p++) {
      for (const divisible of [false, true]) {
        const rng = createRng(4 * p + (divisible ? 1 : 0));
        const d = new Float64Array(p * p);
        for (let k = 0; k < p * p; k++) if (rng.next() < (divisible ? 1 / p : 0.1)) d[k] = divisible ? p : rng.int(4);
        const m = matrixFromData(p, d);
        const st = matrixStats(m);
        for (const reshuffle of [false, true]) {
          const schedule = p % 2 === 0 ? "linear-permutation" : "shift";
          const s = plan(m, "two-stage", { payload: true, seed: p, params: { reshuffle, schedule } });
          const r = verifySchedule(m, s);
          if (!r.ok)
            throw new Error(
              `P = ${p}, ${divisible ? "divisible" : "random"}, reshuffle ${reshuffle}: ${failing(r).join("; ")}`,
            );
          expect(checkOf(r, "two-stage-1-longest").bound).not.toBeNull();
          // divisible: every stage-1 message from i carries exactly r_i / p (000 sec 6.1 without residuals)
          if (divisible) {
            const st1 = s.stages[0]!,
              vol = new Float64Array(p * p);
            for (let x = s.stepStart[st1.firstStep]!; x < s.stepStart[st1.firstStep + st1.stepCount]!; x++)
              vol[s.src[x]! * p + s.dst[x]!] = vol[s.src[x]! * p + s.dst[x]!]! + s.size[x]!;
            const wrong: string[] = [];
            for (let i = 0; i < p; i++)
              for (let k = 0; k < p; k++)
                if (k !== i && vol[i * p + k]! > 0 && vol[i * p + k] !== st.rowTraffic[i]! / p)
                  wrong.push(`${i} -> ${k}: ${vol[i * p + k]}`);
            expect(wrong).toEqual([]);
          }
        }
      }
    }
  });
});

describe("two-stage: the bounds of 000 sec 6", () => {
  it("equal-traffic matrices: stage-1 messages are floor or ceil of t/p, stage-2 in [t/p - p, t/p + p]", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 48 }),
        fc.nat(),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        (p, seed, cycles, reshuffle) => {
          const m = equalTraffic(p, seed, cycles, 200);
          const s = plan(m, "two-stage", { payload: true, seed, params: { reshuffle } });
          const r = verifySchedule(m, s);
          expect(failing(r)).toEqual([]);
          expect(checkOf(r, "two-stage-1-shortest").bound).not.toBeNull();
          expect(checkOf(r, "two-stage-2-shortest").bound).not.toBeNull();
          const t = matrixStats(m).t;
          for (const v of stageVolumes(s, 0).values()) expect([Math.floor(t / p), Math.ceil(t / p)]).toContain(v);
          for (const v of stageVolumes(s, 1).values()) {
            expect(v).toBeLessThanOrEqual(t / p + p);
            expect(v).toBeGreaterThanOrEqual(t / p - p);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
  it("000 figure 1 (P = 8, t = 10): stage-1 messages of 1 or 2 elements, both stages verify", () => {
    const m = generatePattern("ranka-fig1", 8, {}, 1);
    const st = matrixStats(m);
    expect(st.t).toBe(10);
    for (const reshuffle of [false, true]) {
      const s = plan(m, "two-stage", { payload: true, params: { reshuffle } });
      const r = verifySchedule(m, s);
      expect(failing(r)).toEqual([]);
      expect(checkOf(r, "two-stage-1-longest").measured).toBe(2);
      expect(checkOf(r, "two-stage-1-shortest").measured).toBe(1);
      expect(checkOf(r, "two-stage-2-longest").bound).toBe(10 / 8 + 8);
    }
  });
  it("divisible case (P divides every entry): every stage-1 message from i is exactly r_i / p", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 40 }), fc.nat(), (p, seed) => {
        const rng = createRng(seed);
        const d = new Float64Array(p * p);
        for (let i = 0; i < p; i++)
          for (let j = 0; j < p; j++) if (i !== j && rng.int(3) > 0) d[i * p + j] = p * rng.int(20);
        const m = matrixFromData(p, d);
        const st = matrixStats(m);
        const s = plan(m, "two-stage", { payload: true });
        expect(failing(verifySchedule(m, s))).toEqual([]);
        for (const [key, v] of stageVolumes(s, 0)) expect(v).toBe(st.rowTraffic[Number(key.split(">")[0])]! / p);
      }),
      { numRuns: 30 },
    );
  });
});

describe("two-stage: the bounds of 000 sec 6 (continued)", () => {
  it("the verifier rejects a stage 1 that ignores the round robin (all residuals to one intermediate)", () => {
    // M[0][1] = 3, P = 2: the split sends at most ceil(3/2) = 2 to intermediate 1; this plan sends all 3 in stage 1
    const m = matrixFromRows([
      [0, 3],
      [0, 0],
    ]);
    const b = new ScheduleBuilder(
      {
        p: 2,
        algorithm: "two-stage",
        params: {},
        seed: 1,
        elementBytes: m.elementBytes,
        matrixDigest: matrixDigest(m),
      },
      true,
    );
    b.stage("1", "distribute").step();
    b.transfer(0, 1, 3);
    b.chunk(0, 1, 0, 3);
    b.stage("2", "collect");
    const r = verifySchedule(m, b.build());
    expect(checkOf(r, "delivery").holds).toBe(true);
    expect(checkOf(r, "two-stage-1-longest").holds).toBe(false);
    expect(checkOf(r, "two-stage-1-per-source").holds).toBe(false);
  });
  it("the verifier rejects a stage 2 that carries a whole message (no split)", () => {
    // M[0][1] = 10, P = 2: node 0 keeps everything in stage 1 and sends all 10 in stage 2; bound t/p + p = 7
    const m = matrixFromRows([
      [0, 10],
      [0, 0],
    ]);
    const b = new ScheduleBuilder(
      {
        p: 2,
        algorithm: "two-stage",
        params: {},
        seed: 1,
        elementBytes: m.elementBytes,
        matrixDigest: matrixDigest(m),
      },
      true,
    );
    b.stage("1", "distribute");
    b.stage("2", "collect").step();
    b.transfer(0, 1, 10);
    b.chunk(0, 1, 0, 10);
    const r = verifySchedule(m, b.build());
    expect(checkOf(r, "delivery").holds).toBe(true);
    expect(checkOf(r, "two-stage-2-longest").holds).toBe(false);
    expect(checkOf(r, "two-stage-2-per-destination").holds).toBe(false);
  });
  it("the verifier rejects a plan that is not two stages", () => {
    const m = matrixFromRows([
      [0, 3],
      [1, 0],
    ]);
    const s = plan(m, "shift", { payload: true });
    const r = verifySchedule(m, { ...s, algorithm: "two-stage" });
    expect(checkOf(r, "two-stage-stages").holds).toBe(false);
  });
  it("the reshuffle keeps every stage-1 size and the stage-2 total (one spike, P = 64)", () => {
    const m = generatePattern("pattern1", 64, { mmax: 1000, small: 3 }, 7);
    const a = twoStageSplit(m, false, 1),
      b = twoStageSplit(m, true, 1);
    const sorted = (x: Float64Array, i: number) => Array.from(x.subarray(i * 64, i * 64 + 64)).sort((u, v) => u - v);
    for (let i = 0; i < 64; i++) expect(sorted(b.stage1, i)).toEqual(sorted(a.stage1, i));
    for (const split of [a, b]) {
      let total = 0;
      for (let k = 0; k < 64; k++) for (let j = 0; j < 64; j++) total += split.stage2[k * 64 + j]!;
      expect(total).toBe(matrixStats(m).networkTotal);
    }
  });
});

describe("two-stage: options and determinism", () => {
  const m = buildMatrix({ p: 12, kind: "dense", seed: 3, maxEntry: 100 });
  it("the same seed gives the same plan; another seed another reshuffle", () => {
    const a = plan(m, "two-stage", { payload: true, seed: 5, params: { reshuffle: true } });
    const b = plan(m, "two-stage", { payload: true, seed: 5, params: { reshuffle: true } });
    const c = plan(m, "two-stage", { payload: true, seed: 6, params: { reshuffle: true } });
    expect(Array.from(b.size)).toEqual(Array.from(a.size));
    expect(Array.from(b.chunks!.offset)).toEqual(Array.from(a.chunks!.offset));
    expect(Array.from(c.chunks!.offset)).not.toEqual(Array.from(a.chunks!.offset));
  });
  it("records the resolved parameters; shift is the default schedule", () => {
    const s = plan(m, "two-stage");
    expect(s.params).toEqual({ schedule: "shift", reshuffle: false });
    expect(s.stepCount).toBe(2 * 11);
    const lp = plan(m, "two-stage", { params: { schedule: "linear-permutation" } });
    expect(lp.stepCount).toBe(2 * 11);
    const odd = buildMatrix({ p: 7, kind: "dense", seed: 3, maxEntry: 100 });
    expect(plan(odd, "two-stage", { params: { schedule: "linear-permutation" } }).stepCount).toBe(14);
    expect(plan(odd, "two-stage").stepCount).toBe(12);
  });
  it("rejects unknown and malformed params with a CommplanError naming them", () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ foo: 1 }, /two-stage: unknown parameter 'foo'/],
      [{ schedule: "random" }, /two-stage: schedule must be/],
      [{ reshuffle: "yes" }, /two-stage: reshuffle must be true or false/],
    ];
    for (const [params, msg] of bad) {
      let err: unknown;
      try {
        plan(m, "two-stage", { params: params as never });
      } catch (e) {
        err = e;
      }
      expect(isCommplanError(err)).toBe(true);
      expect((err as Error).message).toMatch(msg);
    }
  });
  it("refuses payload plans that would not fit, naming the way out", () => {
    const big = buildMatrix({ p: 300, kind: "dense", seed: 1, maxEntry: 5000 });
    expect(() => plan(big, "two-stage", { payload: true })).toThrow(/chunks .*without the option payload/);
  });
});
