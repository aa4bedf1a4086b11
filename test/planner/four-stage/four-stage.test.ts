import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { matrixFromData } from "../../../src/model/matrix.js";
import { createRng } from "../../../src/model/rng.js";
import type { Schedule } from "../../../src/model/schedule.js";
import { generatePattern } from "../../../src/patterns/index.js";
import { isqrt, nodeArray } from "../../../src/planner/four-stage/index.js";
import { plan } from "../../../src/planner/index.js";
import { verifySchedule } from "../../../src/verifier/index.js";
import { paperArray } from "../../../src/verifier/four-stage-bounds.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";

const fig10 = JSON.parse(readFileSync(join(import.meta.dirname, "../../fixtures/004-fig10.json"), "utf8")) as {
  senders: number[];
  steps: (number | "X" | null)[][];
};

/** The step x sender grid of one stage: the receiver, "X" for a stall, null for nothing. */
function grid(s: Schedule, stage: number, senders: readonly number[]): (number | "X" | null)[][] {
  const st = s.stages[stage]!;
  const rows: (number | "X" | null)[][] = [];
  for (let k = st.firstStep; k < st.firstStep + st.stepCount; k++) {
    rows.push(
      senders.map((u) => {
        for (let y = s.stallStart[k]!; y < s.stallStart[k + 1]!; y++) if (s.stallNode[y] === u) return "X";
        for (let x = s.stepStart[k]!; x < s.stepStart[k + 1]!; x++) if (s.src[x] === u) return s.dst[x]!;
        return null;
      }),
    );
  }
  return rows;
}

/** A sparse random matrix with about `perRow` messages per row; entries times `scale`. */
function sparse(p: number, seed: number, perRow: number, scale: number) {
  const rng = createRng(seed);
  const d = new Float64Array(p * p);
  for (let i = 0; i < p; i++)
    for (let k = 0; k < perRow; k++) {
      const j = rng.int(p);
      if (j !== i) d[i * p + j] = (1 + rng.int(50)) * scale;
    }
  return matrixFromData(p, d);
}

const failing = (r: ReturnType<typeof verifySchedule>) =>
  r.checks.filter((c) => !c.holds).map((c) => `${c.id}: ${c.witness}`);

describe("four-stage: the worked example of 004 figure 10", () => {
  const m = generatePattern("uniform", 61, { size: 61 }, 1); // divisible: every stage-III message is present, as the figure assumes
  it("reproduces figure 10 exactly in stages I and III (stalls included)", () => {
    const s = plan(m, "four-stage", { params: { arrived: "forward" } });
    expect(grid(s, 0, fig10.senders)).toEqual(fig10.steps);
    expect(grid(s, 2, fig10.senders)).toEqual(fig10.steps);
    expect(s.stages.map((x) => x.stepCount)).toEqual([9, 8, 9, 8]);
    const r = verifySchedule(m, s);
    expect(failing(r)).toEqual([]);
  });
  it("the stall formula printed in the text (one step later) is not contention-free", () => {
    const s = plan(m, "four-stage", { params: { stalls: "printed" } });
    const c = verifySchedule(m, s).checks.find((x) => x.id === "node-contention")!;
    expect(c.holds).toBe(false);
    expect(c.witness).toMatch(/receives 2 messages/);
    // step 3 of the figure (0-based 2): with the printed formula 18 and 58 both send to 21
    const k = s.stages[0]!.firstStep + 2;
    const into21: number[] = [];
    for (let x = s.stepStart[k]!; x < s.stepStart[k + 1]!; x++) if (s.dst[x] === 21) into21.push(s.src[x]!);
    expect(into21.sort((a, b) => a - b)).toEqual([18, 58]);
  });
});

describe("four-stage: node array (004 sec 3.2.2 A)", () => {
  it("has r <= R - 1 for every P up to 10000 and rearranges exactly when P = ceil(sqrt P) floor(sqrt P) - 1", () => {
    for (let p = 1; p <= 10000; p++) {
      const a = nodeArray(p);
      const { floor, ceil } = isqrt(p);
      expect(a.cols * (a.rows - 1) + (a.r === 0 ? a.cols : a.r)).toBe(p);
      if (a.r > 0) expect(a.r).toBeLessThanOrEqual(a.rows - 1);
      expect(a.rearranged).toBe(floor !== ceil && p === ceil * floor - 1);
      const v = paperArray(p);
      expect([v.C, v.R, v.r]).toEqual([a.cols, a.rows, a.r]);
    }
  });
});

describe("four-stage: P from 1 to 300 (payload level for every P: every-p.test.ts)", () => {
  it("every P from 1 to 300 at message level, general and divisible", () => {
    for (let p = 1; p <= 300; p++) {
      for (const scale of [1, p]) {
        const m = sparse(p, p * 17 + scale, 4, scale);
        const s = plan(m, "four-stage");
        const r = verifySchedule(m, s);
        if (!r.ok) throw new Error(`P = ${p}, scale ${scale}: ${failing(r).join("; ")}`);
        for (let k = 0; k < s.stepCount; k++)
          if (s.stepStart[k + 1] === s.stepStart[k])
            throw new Error(`P = ${p}, scale ${scale}: step ${k} sends nothing`);
      }
    }
  });
  it("leaves out a step that sends nothing, stalls included (an all-zero matrix plans as 0 steps; one message as 4)", () => {
    for (const p of [3, 7, 18, 61]) {
      const d = new Float64Array(p * p);
      for (let i = 0; i < p; i++) d[i * p + i] = 5; // the diagonal stays put
      for (const payload of [false, true]) {
        const m = matrixFromData(p, d);
        const s = plan(m, "four-stage", { payload });
        expect([s.stepCount, s.transferCount, s.stallNode.length], `P = ${p}`).toEqual([0, 0, 0]);
        expect(verifySchedule(m, s).ok).toBe(true);
        // one message 0 -> P - 1: stage I copies it locally (bucket of its own column) or sends it along row 0, and so on; one step per stage
        const one = d.slice();
        one[p - 1] = 1;
        const m1 = matrixFromData(p, one);
        const s1 = plan(m1, "four-stage", { payload });
        expect(
          s1.stages.map((x) => x.stepCount),
          `P = ${p}`,
        ).toEqual([1, 1, 1, 1]);
        expect(failing(verifySchedule(m1, s1))).toEqual([]);
      }
    }
  });
  it("dense matrices at payload level for P up to 70 (property)", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ maxP: 70, kinds: ["dense", "spike", "empty-rows", "zero", "permutation"] }),
        fc.boolean(),
        (rec, divisible) => {
          const base = buildMatrix({ ...rec, maxEntry: Math.min(rec.maxEntry, 100) });
          const m = divisible
            ? matrixFromData(
                base.p,
                base.data.map((v) => v * base.p),
              )
            : base;
          const r = verifySchedule(m, plan(m, "four-stage", { payload: true }));
          expect(failing(r)).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
  });
  it("message level for P up to 300 with entries up to 2^40 (property)", () => {
    fc.assert(
      fc.property(matrixRecipe({ maxP: 300, kinds: ["dense", "sparse", "huge", "spike"] }), (rec) => {
        const m = buildMatrix(rec);
        const r = verifySchedule(m, plan(m, "four-stage"));
        expect(failing(r)).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });
  it("payload and message-level plans have the same messages", () => {
    const m = sparse(45, 9, 6, 7);
    const a = plan(m, "four-stage", { payload: true }),
      b = plan(m, "four-stage");
    expect(Array.from(a.size)).toEqual(Array.from(b.size));
    expect(Array.from(a.src)).toEqual(Array.from(b.src));
    expect(Array.from(a.stepStart)).toEqual(Array.from(b.stepStart));
  });
  it("rejects unknown parameters and a bad stall rule", () => {
    const m = sparse(8, 1, 2, 1);
    expect(() => plan(m, "four-stage", { params: { stalls: "other" } })).toThrow(
      /four-stage: stalls must be "figure" or "printed", got "other"/,
    );
    expect(() => plan(m, "four-stage", { params: { x: 1 } })).toThrow(
      /four-stage: unknown parameter 'x'; known: stalls/,
    );
  });
});
