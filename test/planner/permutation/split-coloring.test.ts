/** split-coloring (issue 4): chunk mode (s* from the machine, Konig on the chunk multigraph) and bvn mode, at message and payload level. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findMachine, scheduleCost } from "../../../src/machines/index.js";
import { isCommplanError } from "../../../src/model/errors.js";
import type { MachineModel } from "../../../src/model/machine.js";
import { matrixFromData, matrixFromRows, type CommMatrix } from "../../../src/model/matrix.js";
import { matrixStats } from "../../../src/model/matrix-stats.js";
import type { JsonValue, Schedule } from "../../../src/model/schedule.js";
import { splitColoring } from "../../../src/planner/permutation/index.js";
import { resolvePlanOptions } from "../../../src/planner/registry.js";
import type { PlanOptions } from "../../../src/planner/types.js";
import { verifySchedule } from "../../../src/verifier/index.js";
import { buildMatrix, matrixRecipe, type MatrixRecipe } from "../../helpers/arbitraries.js";

type Params = { readonly [k: string]: JsonValue };
/** Options through resolvePlanOptions (params checked, defaults filled), as plan() makes them. */
const opts = (payload: boolean, machine: MachineModel | null, params: Params = {}): PlanOptions =>
  resolvePlanOptions(splitColoring, { payload, seed: 1, machine, params });

/** A synthetic machine with the given start-up (us) and per-byte time. */
const synthetic = (ts: number, perByte: number): MachineModel => ({
  name: "synthetic",
  title: "test machine",
  source: "test",
  ts,
  tsSend: ts / 2,
  tc: perByte / 2,
  td: perByte / 2,
  tm: 0,
  ports: 1,
  barrier: 0,
});
const machines: readonly (MachineModel | null)[] = [
  null,
  findMachine("cm5-004"),
  findMachine("t3e-004"),
  synthetic(1000, 0.001),
  synthetic(0.01, 1),
];
const machineArb = fc.constantFrom(...machines);

/** Independent of the planner: per step <= 1 send and <= 1 receive per node; per pair the sizes sum to M[i][j]; chunks tile [0, M) in step order. */
function problems(m: CommMatrix, s: Schedule, payload: boolean): string[] {
  const out: string[] = [];
  const { p } = m;
  const sent = new Float64Array(p * p),
    next = new Float64Array(p * p);
  const sendStamp = new Int32Array(p).fill(-1),
    recvStamp = new Int32Array(p).fill(-1);
  for (let st = 0; st < s.stepCount; st++) {
    for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) {
      const i = s.src[x]!,
        j = s.dst[x]!;
      if (i === j || !(s.size[x]! > 0)) out.push(`step ${st}: bad transfer ${i}->${j} (${s.size[x]})`);
      if (sendStamp[i] === st || recvStamp[j] === st) out.push(`step ${st}: node contention at ${i}->${j}`);
      sendStamp[i] = st;
      recvStamp[j] = st;
      sent[i * p + j] = sent[i * p + j]! + s.size[x]!;
      if (payload) {
        const c = s.chunks!;
        for (let k = c.start[x]!; k < c.start[x + 1]!; k++) {
          if (c.origin[k] !== i || c.dest[k] !== j) out.push(`transfer ${x}: foreign chunk`);
          if (c.offset[k] !== next[i * p + j])
            out.push(`pair ${i}->${j}: chunk at ${c.offset[k]}, expected ${next[i * p + j]}`);
          next[i * p + j] = c.offset[k]! + c.count[k]!;
        }
      }
    }
  }
  for (let i = 0; i < p; i++)
    for (let j = 0; j < p; j++) {
      const want = i === j ? 0 : m.data[i * p + j]!;
      if (sent[i * p + j] !== want) out.push(`pair ${i}->${j}: sent ${sent[i * p + j]}, M = ${want}`);
      if (payload && next[i * p + j] !== want) out.push(`pair ${i}->${j}: chunks end at ${next[i * p + j]}`);
    }
  return out;
}

function stepMaxima(s: Schedule): number[] {
  const out: number[] = [];
  for (let k = 0; k < s.stepCount; k++) {
    let mx = 0;
    for (let x = s.stepStart[k]!; x < s.stepStart[k + 1]!; x++) mx = Math.max(mx, s.size[x]!);
    out.push(mx);
  }
  return out;
}

function planAndVerify(m: CommMatrix, payload: boolean, machine: MachineModel | null, params: Params = {}): Schedule {
  const s = splitColoring.plan(m, opts(payload, machine, params));
  expect(problems(m, s, payload)).toEqual([]);
  const report = verifySchedule(m, s);
  expect(report.checks.filter((c) => !c.holds)).toEqual([]);
  return s;
}

const small = (r: MatrixRecipe, max: number): CommMatrix =>
  buildMatrix({ ...r, kind: r.kind === "huge" ? "sparse" : r.kind, maxEntry: Math.min(r.maxEntry, max) });

describe("split-coloring, chunk mode", () => {
  it("message level: phases = degree of the chunk multigraph, transfers <= s, time within the s bound and 2 (alpha h + beta L)", () => {
    fc.assert(
      fc.property(matrixRecipe({ minP: 1, maxP: 24 }), machineArb, (r, machine) => {
        const m = small(r, 5000);
        const s = planAndVerify(m, false, machine);
        const st = matrixStats(m);
        const prm = s.params;
        const chunk = prm["chunk"] as number,
          alpha = prm["alpha"] as number,
          beta = prm["beta"] as number;
        expect(prm["h"]).toBe(st.h);
        expect(prm["L"]).toBe(st.t);
        // independent degree of the chunk multigraph
        let degree = 0;
        for (let i = 0; i < m.p; i++) {
          let out = 0,
            inn = 0;
          for (let j = 0; j < m.p; j++)
            if (i !== j) {
              out += Math.ceil(m.data[i * m.p + j]! / chunk);
              inn += Math.ceil(m.data[j * m.p + i]! / chunk);
            }
          degree = Math.max(degree, out, inn);
        }
        expect(s.stepCount).toBe(degree);
        const maxima = stepMaxima(s);
        for (const x of maxima) expect(x).toBeLessThanOrEqual(chunk);
        const time = s.stepCount * alpha + beta * maxima.reduce((a, b) => a + b, 0);
        expect(time).toBeCloseTo(prm["modelledTime"] as number, 6);
        if (machine !== null)
          expect(time).toBeCloseTo(scheduleCost(s, machine, "blocking").stages[0]?.communication ?? 0, 6);
        const lb = alpha * st.h + beta * st.t;
        expect(prm["lowerBoundTime"]).toBeCloseTo(lb, 9);
        expect(time).toBeGreaterThanOrEqual(lb * (1 - 1e-12));
        if (st.h > 0) {
          expect(time).toBeLessThanOrEqual((lb + (alpha * st.t) / chunk + beta * st.h * chunk) * (1 + 1e-12));
          if (prm["chunkRule"] === "interval") expect(time).toBeLessThanOrEqual(2 * lb * (1 + 1e-12));
        }
      }),
      { numRuns: 60 },
    );
  });

  it("payload: every element delivered once, the pieces of a message in consecutive offsets", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ minP: 1, maxP: 16, kinds: ["dense", "sparse", "empty-rows", "permutation", "spike"] }),
        machineArb,
        fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
        (r, machine, chunk) => {
          const m = small(r, 300);
          const s = planAndVerify(m, true, machine, chunk === undefined ? {} : { chunk });
          if (chunk !== undefined) expect(s.params["chunk"]).toBe(chunk);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("split-coloring, chunk mode (continued)", () => {
  it("a fixed chunk at least the longest message is exact colouring: h phases", () => {
    fc.assert(
      fc.property(matrixRecipe({ minP: 2, maxP: 20, kinds: ["dense", "sparse", "spike"] }), (r) => {
        const m = small(r, 100);
        const s = planAndVerify(m, false, null, { chunk: 100 });
        expect(s.stepCount).toBe(matrixStats(m).h);
      }),
      { numRuns: 20 },
    );
  });

  it("entries up to 2^40: s* grows with L, pieces stay bounded", () => {
    fc.assert(
      fc.property(matrixRecipe({ minP: 2, maxP: 12, kinds: ["huge"] }), (r) => {
        const m = buildMatrix(r);
        const s = planAndVerify(m, false, synthetic(10, 1e-6));
        expect(s.transferCount).toBeLessThanOrEqual(Math.max(2 ** 14, 4 * matrixStats(m).messages));
        const d = planAndVerify(m, false, null);
        expect(d.transferCount).toBeLessThanOrEqual(Math.max(2 ** 14, 4 * matrixStats(m).messages));
      }),
      { numRuns: 10 },
    );
  });

  it("chooses s between alpha/beta and L/h: h = 2, L = 1000, alpha/beta = 250 gives s* = sqrt(250 x 500)", () => {
    const m = matrixFromRows([
      [0, 500, 500],
      [500, 0, 500],
      [500, 500, 0],
    ]);
    const s = planAndVerify(m, true, synthetic(250, 1 / 8)); // elementBytes 8: beta = 1 us/element
    expect(s.params["chunk"]).toBe(Math.round(Math.sqrt(250 * 500)));
    expect(s.params["chunkRule"]).toBe("interval");
  });

  it("when no integer lies between alpha/beta and L/h it takes the better of floor(s*) and ceil(s*)", () => {
    // h = 2, L = 3 (L/h = 1.5), alpha/beta = 1.2: s* = sqrt(1.8); the degree bound is 3 x (1.2 + 1) = 6.6 for
    // s = 1 and 2 x (1.2 + 2) = 6.4 for s = 2; with s = 2 the 2s share a phase: 2 x 1.2 + (2 + 1) = 5.4 = alpha h + beta L
    const m = matrixFromRows([
      [0, 1, 2],
      [2, 0, 1],
      [1, 2, 0],
    ]);
    const s = planAndVerify(m, true, synthetic(1.2, 1 / 8));
    expect(s.params["chunkRule"]).toBe("nearest");
    expect(s.params["chunk"]).toBe(2);
    expect(s.params["modelledTime"]).toBeCloseTo(5.4, 12);
    expect(s.params["lowerBoundTime"]).toBeCloseTo(5.4, 12);
  });

  it("rejects bad parameters and chunks that explode", () => {
    const m = matrixFromRows([
      [0, 2 ** 40],
      [1, 0],
    ]);
    const msg = (params: Params): string => {
      try {
        splitColoring.plan(m, opts(false, null, params));
      } catch (e) {
        expect(isCommplanError(e)).toBe(true);
        return (e as Error).message;
      }
      return "no error";
    };
    expect(msg({ chunk: 1 })).toMatch(/split-coloring: chunk 1 would cut the messages into \d+ transfers/);
    expect(msg({ chunk: 0 })).toMatch(/split-coloring: chunk must be a positive integer/);
    expect(msg({ mode: "fast" })).toMatch(/split-coloring: mode must be "chunk" or "bvn"/);
    expect(msg({ improve: 1 })).toMatch(/split-coloring: improve must be true or false/);
    expect(msg({ bogus: 1 })).toMatch(/split-coloring: unknown parameter 'bogus'/);
  });
});

describe("split-coloring, bvn mode", () => {
  it("the per-phase maxima sum to L = t exactly; phases <= cells - P + 1; message and payload level", () => {
    fc.assert(
      fc.property(matrixRecipe({ minP: 1, maxP: 20 }), fc.boolean(), machineArb, (r, payload, machine) => {
        const m = payload ? small(r, 200) : buildMatrix(r);
        const s = planAndVerify(m, payload, machine, { mode: "bvn" });
        const st = matrixStats(m);
        expect(stepMaxima(s).reduce((a, b) => a + b, 0)).toBe(st.t);
        expect(s.params["sumOfMaxima"]).toBe(st.t);
        expect(s.params["phases"]).toBe(s.stepCount);
        const cells = s.params["cells"] as number;
        expect(cells).toBeLessThanOrEqual(st.messages + 2 * m.p);
        if (st.t > 0) expect(s.stepCount).toBeLessThanOrEqual(cells - m.p + 1);
        // no direct schedule has a smaller bandwidth term: every step of the node with traffic t moves <= its maximum
        expect(s.stepCount).toBeGreaterThanOrEqual(st.h);
      }),
      { numRuns: 50 },
    );
  });

  it("a uniform all-to-all is P - 1 phases, each moving the whole message", () => {
    const p = 6;
    const data = new Float64Array(p * p);
    for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) if (i !== j) data[i * p + j] = 7;
    const s = planAndVerify(matrixFromData(p, data), true, null, { mode: "bvn" });
    expect(s.stepCount).toBe(p - 1);
    expect(stepMaxima(s)).toEqual(Array(p - 1).fill(7));
  });

  it("refuses matrices whose decomposition could explode, naming mode chunk", () => {
    const p = 300;
    const data = new Float64Array(p * p).fill(1);
    expect(() => splitColoring.plan(matrixFromData(p, data), opts(false, null, { mode: "bvn" }))).toThrow(
      /split-coloring: mode "bvn" on \d+ cells .* use mode "chunk"/,
    );
  });
});
