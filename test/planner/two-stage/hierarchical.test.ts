/** hierarchical (nodes of g ranks): verifies over random matrices and every g dividing P, stays on nodes and rails, start-up and step bounds, errors. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCommplanError } from "../../../src/model/errors.js";
import { matrixDigest, matrixFromData } from "../../../src/model/matrix.js";
import { ScheduleBuilder } from "../../../src/model/schedule.js";
import { plan } from "../../../src/planner/index.js";
import { findMachine, scheduleCost } from "../../../src/machines/index.js";
import { predictHierarchical } from "../../../src/planner/two-stage/hierarchical.js";
import { verifySchedule } from "../../../src/verifier/index.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";

const failing = (r: ReturnType<typeof verifySchedule>) =>
  r.checks.filter((c) => !c.holds).map((c) => `${c.id}: ${c.witness}`);
const checkOf = (r: ReturnType<typeof verifySchedule>, id: string) => {
  const c = r.checks.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
};

describe("hierarchical: verifies", () => {
  it("for every P <= 40 and every g dividing P, payload level", () => {
    for (let p = 1; p <= 40; p++) {
      const m = buildMatrix({ p, kind: p % 2 ? "dense" : "sparse", seed: p, maxEntry: 30 });
      for (let g = 1; g <= p; g++) {
        if (p % g !== 0) continue;
        const s = plan(m, "hierarchical", { payload: true, params: { gpus: g } });
        expect(s.stages.length).toBe(3);
        expect(failing(verifySchedule(m, s)), `P = ${p}, g = ${g}`).toEqual([]);
      }
    }
  });
  it("random matrices of every kind, payload and message level, default g", () => {
    const arb = fc.record({ r: matrixRecipe({ minP: 1, maxP: 48 }), payload: fc.boolean() });
    fc.assert(
      fc.property(arb, ({ r, payload }) => {
        const m = buildMatrix(r);
        const s = plan(m, "hierarchical", { payload: payload && r.kind !== "huge" });
        const bad = failing(verifySchedule(m, s)).filter((x) => !x.startsWith("delivery")); // message level: relays unproven
        expect(bad).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});

describe("hierarchical: the shape of the plan", () => {
  it("16 nodes of 8: 7 + 2 + 7 steps, at most 16 messages per rank (flat shift: 127), one message per node pair", () => {
    const p = 128;
    const m = matrixFromData(p, new Float64Array(p * p).fill(1));
    const s = plan(m, "hierarchical", { params: { gpus: 8 } });
    expect(s.params).toEqual({ gpus: 8, nodes: 16, railSteps: 2 });
    expect(s.stages.map((x) => x.stepCount)).toEqual([7, 2, 7]);
    const r = verifySchedule(m, s);
    expect(checkOf(r, "hierarchical-start-ups").measured).toBeLessThanOrEqual(16);
    expect(checkOf(r, "hierarchical-links").holds).toBe(true);
    // stage 2 messages carry a node's data for a node: g x g = 64 elements
    const st = s.stages[1]!;
    for (let x = s.stepStart[st.firstStep]!; x < s.stepStart[st.firstStep + st.stepCount]!; x++)
      expect(s.size[x]).toBe(64);
    expect(s.stepStart[st.firstStep + st.stepCount]! - s.stepStart[st.firstStep]!).toBe(16 * 15);
  });
  it("every stage pays for the bytes it sends (stage 2 assembles what it forwards): with one rank per node it costs shift's time plus two empty stages' barriers, never less", () => {
    for (const p of [2, 5, 61]) {
      const m = buildMatrix({ p, kind: "dense", seed: p, maxEntry: 1000 });
      const h = plan(m, "hierarchical", { params: { gpus: 1 } }),
        s = plan(m, "shift");
      expect(h.stages.map((st) => st.rearrange)).toEqual(["compose", "collect", "collect"]);
      for (const name of ["t3d-004", "sp2-004", "ib-hdr-200"]) {
        const machine = findMachine(name);
        const hc = scheduleCost(h, machine, "blocking").total,
          sc = scheduleCost(s, machine, "blocking").total;
        expect(hc, `P = ${p} ${name}`).toBeCloseTo(sc + 2 * machine.barrier, 6);
        expect(predictHierarchical(m, machine, "blocking", 1), `P = ${p} ${name}`).toBeCloseTo(hc, 6);
      }
    }
  });

  it("defaults to 8 ranks per node when 8 divides P, else a divisor near sqrt(P)", () => {
    const gOf = (p: number) =>
      plan(buildMatrix({ p, kind: "dense", seed: 1, maxEntry: 3 }), "hierarchical").params["gpus"];
    expect([16, 64, 8, 12, 7, 36].map(gOf)).toEqual([8, 8, 2, 3, 1, 6]);
  });
  it("the checks catch a stage-2 message that changes rail", () => {
    const p = 4;
    const m = matrixFromData(p, Float64Array.from([0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
    const head = {
      p,
      algorithm: "hierarchical",
      params: { gpus: 2 },
      seed: null,
      elementBytes: 8,
      matrixDigest: matrixDigest(m),
    };
    const build = (src: number, dst: number, relay: number | null) => {
      const b = new ScheduleBuilder(head, true, 4);
      b.stage("1", "compose");
      b.stage("2", "none").step();
      b.transfer(src, dst, 1);
      b.chunk(0, 2, 0, 1);
      b.stage("3", "collect");
      if (relay !== null) {
        b.step();
        b.transfer(dst, relay, 1);
        b.chunk(0, 2, 0, 1);
      }
      return b.build();
    };
    expect(checkOf(verifySchedule(m, build(0, 2, null)), "hierarchical-links").holds).toBe(true);
    const r = verifySchedule(m, build(0, 3, 2)); // rail 0 -> rail 1
    expect(checkOf(r, "hierarchical-links").holds).toBe(false);
    expect(checkOf(r, "hierarchical-links").witness).toMatch(/changes rail/);
  });
});

describe("hierarchical: errors", () => {
  it("refuses gpus that do not divide P, naming both", () => {
    const m = buildMatrix({ p: 12, kind: "sparse", seed: 1, maxEntry: 5 });
    try {
      plan(m, "hierarchical", { params: { gpus: 5 } });
      throw new Error("no error");
    } catch (e) {
      expect(isCommplanError(e)).toBe(true);
      expect((e as Error).message).toBe("planner: hierarchical: gpus = 5 does not divide P = 12");
    }
  });
});
