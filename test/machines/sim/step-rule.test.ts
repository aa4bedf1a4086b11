import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { findMachine } from "../../../src/machines/presets.js";
import { simulateSchedule, type SimResult } from "../../../src/machines/sim/simulate.js";
import { isCommplanError } from "../../../src/model/errors.js";
import { matrixDigest, matrixFromData } from "../../../src/model/matrix.js";
import { ScheduleBuilder, type Schedule } from "../../../src/model/schedule.js";
import { generatePattern } from "../../../src/patterns/registry.js";
import { plan } from "../../../src/planner/registry.js";
import { verifySchedule } from "../../../src/verifier/index.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";

/**
 * Transfers that start before a receive of their source from an earlier step of the same stage
 * has ended (004 sec 2.3: "the send command in the next step cannot be issued until the completion
 * of receive in the current step"). Local copies count as receives, as the engine counts them.
 */
function earlySends(s: Schedule, r: SimResult): string[] {
  const stepOf = new Uint32Array(s.transferCount);
  const stageOf = new Uint32Array(s.stepCount);
  for (let st = 0; st < s.stepCount; st++) for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) stepOf[x] = st;
  for (const [k, g] of s.stages.entries()) stageOf.fill(k, g.firstStep, g.firstStep + g.stepCount);
  const recvs: number[][] = Array.from({ length: s.p }, () => []);
  for (let y = 0; y < s.transferCount; y++) recvs[s.dst[y]!]!.push(y);
  const out: string[] = [];
  for (let x = 0; x < s.transferCount; x++) {
    for (const y of recvs[s.src[x]!]!) {
      const before = stageOf[stepOf[y]!] === stageOf[stepOf[x]!] && stepOf[y]! < stepOf[x]!;
      if (before && r.transferEnd[y]! > r.transferStart[x]! + 1e-9 * (1 + r.makespan))
        out.push(`transfer ${x} starts at ${r.transferStart[x]} before receive ${y} ends at ${r.transferEnd[y]}`);
    }
  }
  return out;
}

/** A 4-node one-stage schedule: 1 must forward (0, 2, *) in step 1 after receiving it in step 0; its step-2 message from 3 arrives first (node 0 composes long). */
function forwardCase() {
  const P = 4,
    d = new Float64Array(P * P);
  d[0 * P + 2] = 5;
  d[0 * P + 0] = 100000;
  d[3 * P + 1] = 4;
  const m = matrixFromData(P, d, { elementBytes: 8 });
  const b = new ScheduleBuilder(
    { p: P, algorithm: "hand", params: {}, seed: null, elementBytes: 8, matrixDigest: matrixDigest(m) },
    true,
  );
  b.stage("one", "compose");
  b.step();
  b.transfer(0, 1, 5);
  b.chunk(0, 2, 0, 5);
  b.transfer(0, 0, 100000);
  b.chunk(0, 0, 0, 100000);
  b.step();
  b.transfer(1, 2, 5);
  b.chunk(0, 2, 0, 5);
  b.step();
  b.transfer(3, 1, 4);
  b.chunk(3, 1, 0, 4);
  return { m, s: b.build() };
}

describe("the step rule: a send of step s waits for every receive of its node in earlier steps of the stage", () => {
  it("a node whose later-step message arrives first still waits for its earlier-step receive (data mode)", () => {
    const { m, s } = forwardCase();
    expect(verifySchedule(m, s).checks.every((c) => c.holds)).toBe(true);
    const mc = findMachine("sp2-004");
    for (const req of [
      { mode: "blocking" as const },
      { mode: "nonblocking" as const, sendWaits: "steps" as const },
      { mode: "nonblocking" as const },
    ]) {
      const r = simulateSchedule(s, mc, { ...req, data: m });
      expect(r.dataFailures, JSON.stringify(req)).toEqual([]);
      if (req.mode === "blocking" || req.sendWaits === "steps") expect(earlySends(s, r)).toEqual([]);
    }
    // the forward (transfer 2: 1 -> 2) starts when the step-0 receive ends, after the step-2 message from 3 arrived
    const r = simulateSchedule(s, mc, { data: m });
    expect(r.transferEnd[3]!).toBeLessThan(r.transferEnd[0]!);
    expect(r.transferStart[2]!).toBe(r.transferEnd[0]!);
  });

  it("holds for every send under 004 Pattern1 (P = 32), blocking and nonblocking with steps", () => {
    const m = generatePattern("pattern1", 32, { mmax: 1024, small: 32 }, 7);
    const t3d = findMachine("t3d-004");
    for (const name of ["shift", "rs-n", "four-stage"]) {
      const s = plan(m, name, { seed: 2 });
      expect(earlySends(s, simulateSchedule(s, t3d, { timeline: false })), `${name} blocking`).toEqual([]);
      expect(
        earlySends(s, simulateSchedule(s, t3d, { mode: "nonblocking", sendWaits: "steps", timeline: false })),
        `${name} nonblocking`,
      ).toEqual([]);
    }
  });

  it("holds over random matrices for the one-stage planners, not lock-step", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ minP: 3, maxP: 12, kinds: ["dense", "sparse", "spike", "empty-rows"] }),
        fc.constantFrom("shift", "rs-n", "coloring", "linear-permutation"),
        (r, name) => {
          let s: Schedule;
          try {
            s = plan(buildMatrix(r), name, { seed: r.seed });
          } catch (e) {
            if (isCommplanError(e)) return;
            throw e;
          }
          const mc = findMachine("t3d-004");
          expect(earlySends(s, simulateSchedule(s, mc, { timeline: false }))).toEqual([]);
          expect(
            earlySends(s, simulateSchedule(s, mc, { mode: "nonblocking", sendWaits: "steps", timeline: false })),
          ).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
  });
});
