import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { isCommplanError } from "../../../src/model/errors.js";
import { matrixDigest, matrixFromRows } from "../../../src/model/matrix.js";
import { ScheduleBuilder } from "../../../src/model/schedule.js";
import { matrixStats } from "../../../src/model/matrix-stats.js";
import { generatePattern } from "../../../src/patterns/index.js";
import { plan } from "../../../src/planner/index.js";
import { TE_PROTOCOLS, teRounds } from "../../../src/planner/total-exchange/index.js";
import { verifySchedule } from "../../../src/verifier/index.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";

const NAMES = TE_PROTOCOLS.map((p) => p.name);
const failing = (m: Parameters<typeof verifySchedule>[0], s: Parameters<typeof verifySchedule>[1]) =>
  verifySchedule(m, s).checks.filter((c) => !c.holds);

/** (N, h) with N uniform in 1..64 and h uniform in 0..8N (the explicit range). */
const sizeAndH = fc
  .integer({ min: 1, max: 64 })
  .chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: 8 * n })));

describe("total-exchange protocols (001), explicit schedules with payloads", () => {
  it("the (N, h) arbitrary covers h in 0..8N evenly, not mostly its ends", () => {
    // an earlier h = round(x * 8N), x a fast-check double in 0..1, gave h = 0 or 8N on 997 of 1000 draws
    const draws = fc.sample(sizeAndH, { numRuns: 1000, seed: 42 });
    const eighths = new Array<number>(8).fill(0);
    let ends = 0;
    for (const [n, h] of draws) {
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(64);
      if (h === 0 || h === 8 * n) ends++;
      else eighths[Math.min(7, Math.floor(h / n))]!++;
    }
    expect(ends).toBeLessThan(100);
    for (const c of eighths) expect(c).toBeGreaterThan(60);
  });

  it.each(NAMES)("%s: every payload plan of a random h-relation verifies (N 1..64, h 0..8N, uniform)", (name) => {
    fc.assert(
      fc.property(
        sizeAndH,
        fc.integer({ min: 0, max: 1 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 0, max: 1 }),
        ([n, h], self, seed, dummies) => {
          const m = generatePattern("h-relation", n, { h, self }, seed);
          const params = name === "te-fast" ? { dummies } : {};
          const s = plan(m, name, { payload: true, seed, params });
          expect(failing(m, s)).toEqual([]);
          expect(verifySchedule(m, s).checks.map((c) => c.id)).toEqual(
            expect.arrayContaining([
              "delivery",
              "te-one-per-pair",
              "te-rounds-lower-bound",
              "te-rounds-relay-bound",
              "shift-steps",
            ]),
          );
        },
      ),
      { numRuns: 20 },
    );
  });

  // the corner of the explicit range: N near 64 (odd, even, power of two) and h = 5N, 8N
  type Variant = [string, string, Record<string, number>];
  const variants: Variant[] = NAMES.flatMap((name): Variant[] =>
    name === "te-fast"
      ? [
          ["te-fast (copies)", name, { dummies: 0 }],
          ["te-fast (dummies)", name, { dummies: 1 }],
        ]
      : [[name, name, {}]],
  );
  it.each(variants)(
    "%s: N in {37, 48, 63, 64} x h in {5N, 8N} x 3 seeds verify, and round counting agrees with the explicit plan",
    (_label, name, params) => {
      for (const n of [37, 48, 63, 64]) {
        for (const k of [5, 8]) {
          for (const seed of [1, 2, 3]) {
            const m = generatePattern("h-relation", n, { h: k * n }, 100 * n + seed);
            const s = plan(m, name, { payload: true, seed, params });
            expect(failing(m, s)).toEqual([]);
            expect(teRounds(name, m, seed, params).rounds).toBe(s.stages.length + (s.params["idleRounds"] as number));
          }
        }
      }
    },
  );

  it.each(NAMES)("%s: N = 64, h = 8N (the largest explicit size of the issue) verifies", (name) => {
    const m = generatePattern("h-relation", 64, { h: 512 }, 11);
    const s = plan(m, name, { payload: true, seed: 3 });
    expect(failing(m, s)).toEqual([]);
    expect(s.stages.length).toBe(s.params["rounds"]);
  });

  it.each(NAMES)("%s: arbitrary small matrices (not h-relations, with self entries) verify", (name) => {
    fc.assert(
      fc.property(
        matrixRecipe({ maxP: 20, kinds: ["dense", "sparse", "empty-rows", "zero", "permutation", "spike"] }),
        (r) => {
          const m = buildMatrix({ ...r, maxEntry: Math.min(r.maxEntry, 7) });
          const s = plan(m, name, { payload: true, seed: r.seed });
          expect(failing(m, s)).toEqual([]);
        },
      ),
      { numRuns: 30 },
    );
  });

  it.each(NAMES)("%s: the same seed gives the same schedule; message-level plans have the same steps", (name) => {
    const m = generatePattern("h-relation", 24, { h: 96 }, 5);
    const a = plan(m, name, { payload: true, seed: 9 }),
      b = plan(m, name, { payload: true, seed: 9 }),
      c = plan(m, name, { seed: 9 });
    expect(Array.from(a.src)).toEqual(Array.from(b.src));
    expect(Array.from(a.chunks!.origin)).toEqual(Array.from(b.chunks!.origin));
    expect(Array.from(c.dst)).toEqual(Array.from(a.dst));
    expect(failing(m, c)).toEqual([]);
  });

  it.each(NAMES)("%s: round-counting mode gives the rounds of the explicit plan (stages + idle rounds)", (name) => {
    for (const [n, h, seed] of [
      [16, 64, 1],
      [33, 100, 2],
      [40, 320, 3],
    ] as const) {
      const m = generatePattern("h-relation", n, { h }, seed);
      const s = plan(m, name, { seed });
      const r = teRounds(name, m, seed);
      expect(r.rounds).toBe(s.stages.length + (s.params["idleRounds"] as number));
      expect(r.rounds).toBeGreaterThanOrEqual(r.lowerBound);
    }
  });
});

describe("001 Fact 1 and the direct protocol", () => {
  it("a total exchange (one packet per ordered pair) is one round of N - 1 shift steps", () => {
    for (const n of [2, 5, 16]) {
      const m = matrixFromRows(
        Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 3 : 1))),
      );
      const s = plan(m, "te-direct", { payload: true });
      expect(s.stages.length).toBe(1);
      expect(s.stepCount).toBe(n - 1);
      for (let st = 0; st < s.stepCount; st++) {
        expect(s.stepStart[st + 1]! - s.stepStart[st]!).toBe(n);
        for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++)
          expect((s.dst[x]! - s.src[x]! + n) % n).toBe(st + 1);
      }
      expect(failing(m, s)).toEqual([]);
    }
  });

  it("te-direct rounds == the largest off-diagonal entry (checked by the verifier too)", () => {
    for (const seed of [1, 2, 3]) {
      const m = generatePattern("h-relation", 32, { h: 256 }, seed);
      const s = plan(m, "te-direct", { seed });
      expect(s.stages.length).toBe(matrixStats(m).mMaxOffDiagonal);
      expect(verifySchedule(m, s).checks.find((c) => c.id === "te-direct-rounds")?.holds).toBe(true);
    }
  });
});

describe("protocol options and failure paths", () => {
  const m = generatePattern("h-relation", 32, { h: 160 }, 4);

  it("te-simple with blocks of one node breaks on Condition B and still delivers by direct rounds", () => {
    const s = plan(m, "te-simple", { payload: true, params: { c: 0, epsilon: 0, alpha: 0 } });
    expect(s.params["conditionB"]).toBe(false);
    expect(s.params["fallbackRounds"]).toBeGreaterThan(0);
    expect(failing(m, s)).toEqual([]);
  });

  it("te-fast with dummies spends idle rounds and delivers everything; with one iteration it falls back", () => {
    const d = plan(m, "te-fast", { payload: true, params: { dummies: 1 } });
    expect(d.params["idleRounds"]).toBeGreaterThan(0);
    expect(failing(m, d)).toEqual([]);
    const one = plan(m, "te-fast", { payload: true, params: { maxIterations: 1 } });
    expect(failing(m, one)).toEqual([]);
  });

  it("te-balanced with maxRounds 1 falls back to direct rounds and still verifies", () => {
    const s = plan(m, "te-balanced", { payload: true, params: { maxRounds: 1 } });
    expect(s.params["fallbackRounds"]).toBeGreaterThan(0);
    expect(failing(m, s)).toEqual([]);
  });

  it("bad parameters and oversized matrices are CommplanErrors that name the problem", () => {
    const err = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        expect(isCommplanError(e)).toBe(true);
        return (e as Error).message;
      }
      throw new Error("no error");
    };
    expect(err(() => plan(m, "te-direct", { params: { x: 1 } }))).toMatch(/te-direct: unknown parameter 'x'/);
    expect(err(() => plan(m, "te-simple", { params: { c: 9 } }))).toMatch(
      /te-simple: c must be a number in 0..4, got 9/,
    );
    expect(err(() => plan(m, "te-fast", { params: { dummies: "yes" } }))).toMatch(/dummies/);
    const big = matrixFromRows([
      [0, 2 ** 40],
      [1, 0],
    ]);
    expect(err(() => plan(big, "te-offline"))).toMatch(/unit packet/);
    expect(err(() => teRounds("te-nope", m, 1))).toMatch(/unknown total-exchange protocol/);
  });
});

describe("verifier claims for total-exchange schedules catch broken rounds", () => {
  const header = (m: ReturnType<typeof matrixFromRows>, algorithm: string) => ({
    p: m.p,
    algorithm,
    params: {},
    seed: 1,
    elementBytes: m.elementBytes,
    matrixDigest: matrixDigest(m),
  });

  it("two packets on one ordered pair in one round break te-one-per-pair", () => {
    const m = matrixFromRows([
      [0, 2, 0],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    const b = new ScheduleBuilder(header(m, "te-offline"), true);
    b.stage("round 1");
    b.step().transfer(0, 1, 1);
    b.chunk(0, 1, 0, 1);
    b.step().transfer(0, 1, 1);
    b.chunk(0, 1, 1, 1);
    const rep = verifySchedule(m, b.build());
    expect(rep.checks.find((c) => c.id === "te-one-per-pair")).toMatchObject({ holds: false, measured: 2 });
    expect(rep.ok).toBe(false);
  });

  it("a te-direct schedule with more rounds than the max pair load breaks te-direct-rounds; one below the lower bound breaks te-rounds-lower-bound", () => {
    const m = matrixFromRows([
      [0, 1, 1],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    const b = new ScheduleBuilder(header(m, "te-direct"), true);
    b.stage("round 1").step().transfer(0, 1, 1);
    b.chunk(0, 1, 0, 1);
    b.stage("round 2").step().transfer(0, 2, 1);
    b.chunk(0, 2, 0, 1);
    const rep = verifySchedule(m, b.build());
    expect(rep.checks.find((c) => c.id === "te-direct-rounds")).toMatchObject({ holds: false, measured: 2, bound: 1 });
    const m2 = matrixFromRows([
      [0, 3, 3],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    const b2 = new ScheduleBuilder(header(m2, "te-valiant"), false);
    b2.stage("round 1").step().transfer(0, 1, 3);
    b2.step().transfer(0, 2, 3);
    const rep2 = verifySchedule(m2, b2.build());
    expect(rep2.checks.find((c) => c.id === "te-rounds-lower-bound")).toMatchObject({
      holds: false,
      measured: 1,
      bound: 3,
    });
    expect(rep2.checks.find((c) => c.id === "te-one-per-pair")?.holds).toBe(false);
  });
});

describe("te-offline on skewed matrices", () => {
  it("one heavy pair: relays through every other node, rounds near the lower bound, verifies", () => {
    const n = 9;
    const rows = Array.from({ length: n }, () => Array.from({ length: n }, () => 0));
    rows[0]![1] = 40;
    const m = matrixFromRows(rows);
    const s = plan(m, "te-offline", { payload: true });
    expect(failing(m, s)).toEqual([]);
    // lower bound ceil(40 / 8) = 5; relays need a first and a second hop, so 6 with early second hops
    expect(s.stages.length).toBeLessThanOrEqual(6);
    expect(s.stages.length).toBeGreaterThanOrEqual(5);
    expect(s.params["relayed"]).toBeGreaterThan(0);
  });

  it("with P = 2 nothing can be relayed: rounds = the max pair load", () => {
    const m = matrixFromRows([
      [3, 7],
      [2, 1],
    ]);
    const s = plan(m, "te-offline", { payload: true });
    expect(s.stages.length).toBe(7);
    expect(failing(m, s)).toEqual([]);
  });
});
