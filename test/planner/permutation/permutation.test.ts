/** Issue 4 planners (rs-n, rs-nh, coloring, split-coloring): contention-free phases, exactly-once delivery, h phases for coloring. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCommplanError } from "../../../src/model/errors.js";
import { matrixFromData, matrixFromRows, type CommMatrix } from "../../../src/model/matrix.js";
import { matrixStats } from "../../../src/model/matrix-stats.js";
import type { JsonValue, Schedule } from "../../../src/model/schedule.js";
import {
  AUTO_RULES,
  PERMUTATION_PLANNERS,
  coloring,
  rsN,
  rsNh,
  splitColoring,
  splitCostModel,
} from "../../../src/planner/permutation/index.js";
import { findMachine, scheduleCost } from "../../../src/machines/index.js";
import { resolvePlanOptions } from "../../../src/planner/registry.js";
import type { Planner, PlanOptions } from "../../../src/planner/types.js";
import { verifySchedule } from "../../../src/verifier/index.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";
import { generatePattern } from "../../../src/patterns/index.js";
import { createRng, shuffleInPlace } from "../../../src/model/rng.js";

type Params = { readonly [k: string]: JsonValue };
/** Plans through resolvePlanOptions (params checked, defaults filled), as plan() does. */
const planWith = (
  pl: Planner,
  m: CommMatrix,
  payload: boolean,
  seed = 1,
  params: Params = {},
  machine: PlanOptions["machine"] = null,
): Schedule => pl.plan(m, resolvePlanOptions(pl, { payload, seed, machine, params }));

/**
 * An independent checker (does not use planner code): one stage "phases"; per step each node
 * sends <= 1 and receives <= 1 message, no self transfer; per pair the sizes sum to M[i][j];
 * with payload, every transfer's chunks are its own (origin = src, dest = dst), sum to its size,
 * and the chunks of (i, j) tile [0, M[i][j]) exactly. Returns the problems found.
 */
function problems(m: CommMatrix, s: Schedule, payload: boolean): string[] {
  const out: string[] = [];
  const { p } = m;
  if (s.stages.length !== 1 || s.stages[0]!.name !== "phases" || s.stages[0]!.rearrange !== "compose")
    out.push("expected one stage 'phases' (compose)");
  const sent = new Float64Array(p * p);
  const pieces: [number, number, number][][] = Array.from({ length: p * p }, () => []);
  const sendStamp = new Int32Array(p).fill(-1),
    recvStamp = new Int32Array(p).fill(-1);
  for (let st = 0; st < s.stepCount; st++) {
    if (s.stepStart[st + 1]! === s.stepStart[st]!) out.push(`step ${st} is empty`);
    for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) {
      const i = s.src[x]!,
        j = s.dst[x]!,
        size = s.size[x]!;
      if (i === j) out.push(`step ${st}: self transfer ${i}`);
      if (!(size > 0)) out.push(`step ${st}: empty transfer ${i}->${j}`);
      if (sendStamp[i] === st) out.push(`step ${st}: node ${i} sends twice`);
      if (recvStamp[j] === st) out.push(`step ${st}: node ${j} receives twice`);
      sendStamp[i] = st;
      recvStamp[j] = st;
      sent[i * p + j] = sent[i * p + j]! + size;
      if (payload) {
        const c = s.chunks;
        if (!c) {
          out.push("no chunk table");
          return out;
        }
        let total = 0;
        for (let k = c.start[x]!; k < c.start[x + 1]!; k++) {
          if (c.origin[k] !== i || c.dest[k] !== j)
            out.push(`transfer ${x} carries a chunk of ${c.origin[k]}->${c.dest[k]}`);
          total += c.count[k]!;
          pieces[i * p + j]!.push([c.offset[k]!, c.count[k]!, st]);
        }
        if (total !== size) out.push(`transfer ${x}: chunks sum to ${total}, size ${size}`);
      }
    }
  }
  for (let i = 0; i < p; i++) {
    for (let j = 0; j < p; j++) {
      const want = i === j ? 0 : m.data[i * p + j]!;
      if (sent[i * p + j] !== want) out.push(`pair ${i}->${j}: sent ${sent[i * p + j]}, M = ${want}`);
      if (payload && want > 0) {
        const list = pieces[i * p + j]!;
        // consecutive offsets in phase order: sorted by step, they must tile [0, want)
        list.sort((a, b) => a[2] - b[2]);
        let at = 0;
        for (const [off, cnt] of list) {
          if (off !== at) out.push(`pair ${i}->${j}: chunk at ${off}, expected ${at}`);
          at = off + cnt;
        }
        if (at !== want) out.push(`pair ${i}->${j}: chunks end at ${at}, M = ${want}`);
      }
    }
  }
  return out;
}

function checkPlanner(
  pl: Planner,
  m: CommMatrix,
  payload: boolean,
  seed: number,
  params: Params = {},
  machine: PlanOptions["machine"] = null,
): Schedule {
  const s = planWith(pl, m, payload, seed, params, machine);
  expect(problems(m, s, payload)).toEqual([]);
  expect(s.algorithm).toBe(pl.name);
  expect(s.p).toBe(m.p);
  expect(s.elementBytes).toBe(m.elementBytes);
  const report = verifySchedule(m, s);
  expect(report.checks.filter((c) => !c.holds)).toEqual([]);
  expect(report.ok).toBe(true);
  return s;
}

const recipes = (kinds?: Parameters<typeof matrixRecipe>[0]) => matrixRecipe({ minP: 1, maxP: 40, ...kinds });
const rsNhParamsArb = fc.constantFrom<Params>(
  {},
  { cutoff: "median", factor: 1 },
  { cutoff: "none" },
  { cutoff: 3 },
  { cutoff: "mean", factor: 1.5 },
);

describe.each(PERMUTATION_PLANNERS.map((pl) => [pl.name, pl] as const))("%s", (_name, pl) => {
  it("message level: contention-free phases that carry every message (entries up to 2^40)", () => {
    fc.assert(
      fc.property(recipes(), fc.integer({ min: 0, max: 1000 }), rsNhParamsArb, (r, seed, params) => {
        // a fixed cutoff splits a message into size / cutoff transfers: keep those entries small
        // (split-coloring's s* cuts a 2^40 message into millions of pieces: its huge case is in split-coloring.test.ts)
        const fixed = (pl === rsNh && typeof params["cutoff"] === "number") || pl === splitColoring;
        const m = buildMatrix(
          fixed ? { ...r, kind: r.kind === "huge" ? "dense" : r.kind, maxEntry: Math.min(r.maxEntry, 1000) } : r,
        );
        checkPlanner(pl, m, false, seed, pl === rsNh ? params : {});
      }),
      { numRuns: 40 },
    );
  });

  it("payload: every element delivered exactly once, split messages in consecutive offsets", () => {
    fc.assert(
      fc.property(
        recipes({ kinds: ["dense", "sparse", "empty-rows", "zero", "permutation", "spike"] }),
        fc.integer({ min: 0, max: 1000 }),
        rsNhParamsArb,
        (r, seed, params) => {
          const m = buildMatrix({ ...r, maxEntry: Math.min(r.maxEntry, 100) });
          checkPlanner(pl, m, true, seed, pl === rsNh ? params : {});
        },
      ),
      { numRuns: 30 },
    );
  });

  it("is deterministic for a seed and ignores the diagonal", () => {
    const m = matrixFromRows([
      [5, 1, 0],
      [2, 9, 3],
      [0, 4, 7],
    ]);
    const a = planWith(pl, m, true, 3),
      b = planWith(pl, m, true, 3);
    expect(Array.from(a.src)).toEqual(Array.from(b.src));
    expect(Array.from(a.size)).toEqual(Array.from(b.size));
    for (let x = 0; x < a.transferCount; x++) expect(a.src[x]).not.toBe(a.dst[x]);
    checkPlanner(pl, m, true, 3);
  });

  it("rejects unknown parameters with a CommplanError naming the planner", () => {
    const m = matrixFromRows([
      [0, 1],
      [1, 0],
    ]);
    let err: unknown;
    try {
      planWith(pl, m, false, 1, { bogus: 1 });
    } catch (e) {
      err = e;
    }
    expect(isCommplanError(err)).toBe(true);
    expect((err as Error).message).toContain(`planner: ${pl.name}: unknown parameter 'bogus'`);
  });
});

describe("coloring", () => {
  it("uses exactly h = max(f, g) phases and never splits a message", () => {
    fc.assert(
      fc.property(recipes(), (r) => {
        const m = buildMatrix(r);
        const s = planWith(coloring, m, false);
        const st = matrixStats(m);
        expect(s.stepCount).toBe(st.h);
        expect(s.transferCount).toBe(st.messages);
        expect(s.seed).toBeNull();
        const sum = s.params["sumOfMaxima"] as number,
          lb = s.params["lowerBound"] as number;
        expect(sum).toBeGreaterThanOrEqual(lb);
        expect(lb).toBeGreaterThanOrEqual(
          st.t === 0 ? 0 : Math.max(st.mMaxOffDiagonal, ...Array.from(st.rowTraffic), ...Array.from(st.colTraffic)),
        );
        // sumOfMaxima is what the schedule does
        let measured = 0;
        for (let k = 0; k < s.stepCount; k++) {
          let mx = 0;
          for (let x = s.stepStart[k]!; x < s.stepStart[k + 1]!; x++) mx = Math.max(mx, s.size[x]!);
          measured += mx;
        }
        expect(measured).toBe(sum);
      }),
      { numRuns: 40 },
    );
  });

  it("improve: false also gives h phases and a sum of maxima no smaller than with improve", () => {
    fc.assert(
      fc.property(recipes({ kinds: ["dense", "sparse", "huge", "spike"] }), (r) => {
        const m = buildMatrix(r);
        const a = checkPlanner(coloring, m, false, 1, { improve: false });
        const b = planWith(coloring, m, false);
        expect(a.stepCount).toBe(matrixStats(m).h);
        expect(b.params["sumOfMaxima"] as number).toBeLessThanOrEqual(a.params["sumOfMaxima"] as number);
      }),
      { numRuns: 30 },
    );
  });

  it("003 table 1 (8 x 8): h = 5 phases", () => {
    const m = generatePattern("wang-table1", 8, {}, 1);
    const st = matrixStats(m);
    expect(st.f).toBe(5); // P_2 and P_4 send five messages
    expect(st.g).toBe(5); // P_2 and P_4 receive five (P_0, P_1, P_3, P_4, P_6 send to P_2)
    const s = checkPlanner(coloring, m, true, 1);
    expect(s.stepCount).toBe(5);
    expect(s.params["sumOfMaxima"]).toBe(5);
    expect(s.params["lowerBound"]).toBe(5);
    // the random planners need at least h phases
    expect(checkPlanner(rsN, m, true, 1).stepCount).toBeGreaterThanOrEqual(5);
    expect(checkPlanner(rsNh, m, true, 1).stepCount).toBeGreaterThanOrEqual(5);
  });

  it("a d-regular support gets exactly d phases (P = 200, d = 37)", () => {
    const p = 200,
      d = 37;
    const data = new Float64Array(p * p);
    for (let k = 1; k <= d; k++)
      for (let i = 0; i < p; i++)
        data[i * p + ((i * 7 + k * 13) % p === i ? (i + k) % p : (i + k) % p)] = 1 + ((i * 31 + k) % 50);
    const m = matrixFromData(p, data);
    expect(checkPlanner(coloring, m, false, 1).stepCount).toBe(d);
  });

  it("the zero matrix and P = 1 give an empty schedule", () => {
    for (const p of [1, 5]) {
      const s = checkPlanner(coloring, matrixFromData(p, new Float64Array(p * p)), true, 1);
      expect(s.stepCount).toBe(0);
    }
  });
});

/**
 * RS_NH (003 sec 3.3) written plainly, a sort per node and phase and no heaps: priorities are the
 * seed's first draws, one per message in row-major order; ties by priority, then message number.
 */
function naiveRsNh(
  m: CommMatrix,
  rule: "none" | "mean" | "median" | number,
  factor: number,
  seed: number,
): [number, number, number][][] {
  const { p, data } = m;
  const src: number[] = [],
    dst: number[] = [],
    rem: number[] = [];
  for (let i = 0; i < p; i++)
    for (let j = 0; j < p; j++)
      if (i !== j && data[i * p + j]! > 0) {
        src.push(i);
        dst.push(j);
        rem.push(data[i * p + j]!);
      }
  const rng = createRng(seed);
  const prio = src.map(() => rng.nextU32());
  let nodes = Uint32Array.from(new Set(src));
  const steps: [number, number, number][][] = [];
  while (nodes.length > 0) {
    shuffleInPlace(rng, nodes);
    const taken = new Set<number>(),
      picked: number[] = [];
    for (const i of nodes) {
      const mine = rem
        .map((_, k) => k)
        .filter((k) => src[k] === i && rem[k]! > 0)
        .sort((a, b) => rem[b]! - rem[a]! || prio[b]! - prio[a]! || a - b);
      const k = mine.find((x) => !taken.has(dst[x]!));
      if (k === undefined) continue;
      taken.add(dst[k]!);
      picked.push(k);
    }
    const left = picked.map((k) => rem[k]!).sort((a, b) => a - b);
    const cut =
      rule === "none"
        ? Infinity
        : typeof rule === "number"
          ? rule
          : rule === "mean"
            ? Math.max(1, Math.ceil((factor * left.reduce((a, b) => a + b, 0)) / left.length))
            : Math.ceil(factor * left[(left.length - 1) >> 1]!);
    steps.push(
      picked
        .sort((a, b) => a - b)
        .map((k) => {
          const z = Math.min(rem[k]!, cut);
          rem[k] = rem[k]! - z;
          return [src[k]!, dst[k]!, z] as [number, number, number];
        }),
    );
    nodes = nodes.filter((i) => rem.some((z, k) => z > 0 && src[k] === i));
  }
  return steps;
}

describe("rs-nh", () => {
  it("checks its parameters once with a clear message", () => {
    const m = matrixFromRows([
      [0, 1],
      [1, 0],
    ]);
    expect(() => planWith(rsNh, m, false, 1, { cutoff: 0 })).toThrow(/rs-nh: cutoff must be/);
    expect(() => planWith(rsNh, m, false, 1, { cutoff: "big" })).toThrow(/rs-nh: cutoff must be/);
    expect(() => planWith(rsNh, m, false, 1, { factor: 0.5 })).toThrow(/rs-nh: factor must be/);
  });

  it("default rule (auto): uniform sizes are never cut", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 30 }),
        fc.integer({ min: 1, max: 29 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 0, max: 99 }),
        (p, d0, unit, seed) => {
          const d = Math.min(d0, p - 1);
          const data = new Float64Array(p * p);
          for (let k = 1; k <= d; k++) for (let i = 0; i < p; i++) data[i * p + ((i + k) % p)] = unit;
          const m = matrixFromData(p, data);
          const s = checkPlanner(rsNh, m, false, seed);
          expect(s.transferCount).toBe(d * p);
        },
      ),
      { numRuns: 20 },
    );
  });

  it("auto keeps the rule of least modelled time (recomputed with scheduleCost on the machine), header names it", () => {
    // 003 test set 2 (P = 32, d = 16, sizes 1..32 x msg_unit) on the CM-5 of 004 table 1, msg_unit 16 B and 4 KiB
    const cm5 = findMachine("cm5-004");
    for (const [unitBytes, seed] of [
      [16, 1],
      [4096, 2],
      [4096, 3],
    ] as const) {
      const m = generatePattern("wang-set2", 32, { d: 16, elementBytes: unitBytes }, seed);
      const time = (s: Schedule): number => scheduleCost(s, cm5, "blocking").stages[0]!.communication;
      const auto = checkPlanner(rsNh, m, false, seed, {}, cm5);
      const times = AUTO_RULES.map((r) =>
        time(planWith(rsNh, m, false, seed, { cutoff: r.cutoff, factor: r.factor }, cm5)),
      );
      const best = Math.min(...times);
      expect(time(auto)).toBeCloseTo(best, 6);
      expect(auto.params["modelledTime"] as number).toBeCloseTo(best, 6);
      expect(auto.params["machine"]).toBe("cm5-004");
      const r = AUTO_RULES[times.indexOf(best)]!;
      expect(auto.params["rule"]).toBe(r.cutoff === "none" ? "none" : `${r.cutoff} x ${r.factor}`);
      // small messages: every cut costs a start-up of 85 us for at most 31 x 16 B x 0.12 us/B saved: no cut;
      // 4 KiB units: cutting pays
      if (unitBytes === 16) expect(auto.params["rule"]).toBe("none");
      else expect(auto.transferCount).toBeGreaterThan(matrixStats(m).messages);
    }
  });

  it("plans as a naive RS_NH: per phase, nodes in seeded order each take their largest message with a free destination", () => {
    const rules = fc.constantFrom<["none" | "mean" | "median" | number, number]>(
      ["none", 1],
      ["mean", 1],
      ["mean", 2],
      ["median", 1],
      ["median", 3],
      [4, 1],
    );
    fc.assert(
      fc.property(
        recipes({ kinds: ["dense", "sparse", "spike"] }),
        rules,
        fc.integer({ min: 0, max: 999 }),
        (r, [rule, factor], seed) => {
          const m = buildMatrix({ ...r, maxEntry: Math.min(r.maxEntry, 40) });
          const s = planWith(rsNh, m, false, seed, { cutoff: rule, factor });
          const got = Array.from({ length: s.stepCount }, (_, st) =>
            Array.from({ length: s.stepStart[st + 1]! - s.stepStart[st]! }, (_, y) => {
              const x = s.stepStart[st]! + y;
              return [s.src[x]!, s.dst[x]!, s.size[x]!];
            }),
          );
          expect(got).toEqual(naiveRsNh(m, rule, factor, seed));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("refuses a fixed cutoff that would split the messages into too many transfers", () => {
    const m = matrixFromRows([
      [0, 2 ** 40],
      [1, 0],
    ]);
    expect(() => planWith(rsNh, m, false, 1, { cutoff: 3 })).toThrow(
      /rs-nh: cutoff 3 would split the messages into \d+ transfers/,
    );
  });

  it("a fixed cutoff c sends no transfer longer than c", () => {
    fc.assert(
      fc.property(recipes({ kinds: ["dense", "sparse", "spike"] }), fc.integer({ min: 1, max: 50 }), (r, c) => {
        const m = buildMatrix({ ...r, maxEntry: Math.min(r.maxEntry, 100) });
        const s = checkPlanner(rsNh, m, true, 2, { cutoff: c });
        for (let x = 0; x < s.transferCount; x++) expect(s.size[x]).toBeLessThanOrEqual(c);
      }),
      { numRuns: 30 },
    );
  });
});

/** Checks that rs-nh's auto rule on m is the one full runs of every rule pick (least modelled time, ties to the earlier). */
function expectAutoRule(m: CommMatrix, seed: number, machine: ReturnType<typeof findMachine>): void {
  const { alpha, beta } = splitCostModel(machine, m.elementBytes);
  // the modelled time of a plan: a start-up and the longest transfer per phase, summed in phase order
  const modelled = (s: Schedule): number => {
    let t = 0;
    for (let st = 0; st < s.stepCount; st++) {
      let mx = 0;
      for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) mx = Math.max(mx, s.size[x]!);
      t += alpha + beta * mx;
    }
    return t;
  };
  const times = AUTO_RULES.map((x) =>
    modelled(planWith(rsNh, m, false, seed, { cutoff: x.cutoff, factor: x.factor }, machine)),
  );
  const best = Math.min(...times);
  const rule = AUTO_RULES[times.indexOf(best)]!;
  const auto = planWith(rsNh, m, false, seed, {}, machine);
  expect(auto.params["rule"]).toBe(rule.cutoff === "none" ? "none" : `${rule.cutoff} x ${rule.factor}`);
  expect(modelled(auto)).toBe(best);
}

describe("rs-nh's auto rule", () => {
  it("auto (whose rule runs stop early once they cannot win) keeps the rule a full run of each would pick", () => {
    const machines = ["cm5-004", "ib-hdr-200", "t3d-004"].map((n) => findMachine(n));
    fc.assert(
      fc.property(
        recipes({ kinds: ["dense", "sparse", "spike", "huge"] }),
        fc.integer({ min: 0, max: 99 }),
        fc.constantFrom(...machines),
        (r, seed, machine) => expectAutoRule(buildMatrix(r), seed, machine),
      ),
      { numRuns: 40 },
    );
  });

  it("a run whose total is an ulp below the best is not stopped by its bound (rounding of the phase sums)", () => {
    // found by review: mean x 1.5 totals 752990547.4904537, mean x 2 752990547.4904538; a stop
    // margin taken off the bound of the rest alone stopped mean x 1.5 and kept mean x 2
    const m = matrixFromRows([
      [0, 3, 169790857473, 0, 2, 0, 55465531393, 0],
      [0, 0, 3, 3, 2, 0, 3, 1],
      [1, 2, 0, 0, 1, 1, 0, 1],
      [0, 1, 2, 0, 1, 0, 1, 1],
      [0, 0, 0, 0, 0, 3, 1, 0],
      [2, 2, 0, 2, 2, 0, 1, 19648113665],
      [1, 3, 3, 2, 1, 2, 0, 0],
      [3, 1, 952971365889, 1052556814849, 0, 3, 1, 0],
    ]);
    expectAutoRule(m, 41, findMachine("ib-hdr-200"));
    expect(planWith(rsNh, m, false, 41, {}, findMachine("ib-hdr-200")).params["rule"]).toBe("mean x 1.5");
  });
});

describe("rs-n", () => {
  it("sends every message whole, at least h phases", () => {
    fc.assert(
      fc.property(recipes(), fc.integer({ min: 0, max: 99 }), (r, seed) => {
        const m = buildMatrix(r);
        const s = planWith(rsN, m, false, seed);
        const st = matrixStats(m);
        expect(s.transferCount).toBe(st.messages);
        expect(s.stepCount).toBeGreaterThanOrEqual(st.h);
      }),
      { numRuns: 30 },
    );
  });
});

describe("verifier rows of the permutation planners", () => {
  it("rs-n: the d + log2 d expectation is reported beside the measured phases, never failing", () => {
    fc.assert(
      fc.property(
        recipes({ kinds: ["dense", "sparse", "permutation", "zero"] }),
        fc.integer({ min: 0, max: 99 }),
        (r, seed) => {
          const m = buildMatrix(r);
          const s = planWith(rsN, m, false, seed);
          const row = verifySchedule(m, s).checks.find((c) => c.id === "rs-n-expected-phases");
          expect(row).toBeDefined();
          const d = matrixStats(m).h;
          expect(row!.holds).toBe(true);
          expect(row!.measured).toBe(s.stepCount);
          expect(row!.bound).toBeCloseTo(d > 0 ? d + Math.log2(d) : 0, 12);
        },
      ),
      { numRuns: 20 },
    );
  });

  it("coloring: the sum of phase maxima is never below the threshold lower bound, and equals it on a matrix whose heavy messages are a matching", () => {
    // heavy messages i -> i+1 (size 100) form a matching, the rest size 1: optimum = 100 + (h - 1) x 1
    const p = 9;
    const data = new Float64Array(p * p);
    for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) if (i !== j) data[i * p + j] = j === (i + 1) % p ? 100 : 1;
    const s = planWith(coloring, matrixFromData(p, data), false);
    expect(s.params["lowerBound"]).toBe(100 + (p - 2));
    expect(s.params["sumOfMaxima"]).toBe(100 + (p - 2));
  });
});
