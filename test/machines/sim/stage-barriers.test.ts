/** stageBarriers false: the stages replay as one run (as a lowered program runs), hand-computed; what needs a stage boundary is refused. */
import { describe, expect, it } from "vitest";
import { findMachine } from "../../../src/machines/presets.js";
import { simulateSchedule } from "../../../src/machines/sim/simulate.js";
import { ScheduleBuilder, type Schedule } from "../../../src/model/schedule.js";
import { plan } from "../../../src/planner/registry.js";
import { generatePattern } from "../../../src/patterns/registry.js";
import fc from "fast-check";
import { stepOfTransfer } from "../../../src/model/schedule.js";
import { isCommplanError } from "../../../src/model/errors.js";
import { matrixArb } from "../../helpers/arbitraries.js";
import { errorOf } from "../../helpers/errors.js";
import { bare } from "./hand-networks.js";

/** A three-node schedule of two stages ("one", then "two" with `rearrange`), one step each, from lists of [src, dst, bytes]. */
function twoStages(
  one: [number, number, number][] = [[0, 1, 100]],
  two: [number, number, number][] = [
    [2, 0, 10],
    [1, 2, 10],
  ],
  rearrange: "none" | "compose" = "none",
): Schedule {
  const b = new ScheduleBuilder(
    { p: 3, algorithm: "hand", params: {}, seed: null, elementBytes: 1, matrixDigest: "" },
    false,
  );
  b.stage("one").step();
  for (const [a, d, z] of one) b.transfer(a, d, z);
  b.stage("two", rearrange).step();
  for (const [a, d, z] of two) b.transfer(a, d, z);
  return b.build();
}

/** The same, the second stage composing. */
const composing = (one: [number, number, number][], two: [number, number, number][]): Schedule =>
  twoStages(one, two, "compose");

describe("stage barriers: hand-computed", () => {
  it("hand-computed: with barriers stage two starts at 100; without, node 2 sends at once and node 1 once it has received", () => {
    const s = twoStages();
    for (const mode of ["blocking", "nonblocking"] as const) {
      const opts = { mode, timeline: false, ...(mode === "nonblocking" ? { sendWaits: "steps" as const } : {}) };
      const withBarriers = simulateSchedule(s, bare(0), opts);
      expect(withBarriers.stageBarriers).toBe(true);
      expect(withBarriers.makespan, mode).toBeCloseTo(110, 9);
      const one = simulateSchedule(s, bare(0), { ...opts, stageBarriers: false });
      expect(one.stageBarriers).toBe(false);
      // 2 -> 0 runs 0..10 (node 0 receives while it sends); 1 -> 2 waits for 0 -> 1 (an earlier step): 100..110
      expect(one.transferStart[1], mode).toBeCloseTo(0, 9);
      expect(one.transferEnd[1], mode).toBeCloseTo(10, 9);
      expect(one.transferStart[2], mode).toBeCloseTo(100, 9);
      expect(one.makespan, mode).toBeCloseTo(110, 9);
    }
  });

  it("without barriers no barrier is charged, and a node that is done goes on at once", () => {
    const s = twoStages(
      [
        [0, 1, 100],
        [2, 2, 1],
      ],
      [[2, 0, 10]],
    );
    expect(simulateSchedule(s, bare(0, 7), { timeline: false }).makespan).toBeCloseTo(7 + 100 + 7 + 10, 9);
    expect(simulateSchedule(s, bare(0, 7), { timeline: false, stageBarriers: false }).makespan).toBeCloseTo(100, 9);
  });

  it("a one-stage plan replays alike either way (barrier 0); four-stage on the simulated machine never takes longer without them here", () => {
    const m = generatePattern("uniform", 16, { size: 64 }, 1);
    const shift = plan(m, "shift");
    const mc = { ...findMachine("ib-hdr-200"), barrier: 0 };
    expect(simulateSchedule(shift, mc, { timeline: false, stageBarriers: false }).makespan).toBe(
      simulateSchedule(shift, mc, { timeline: false }).makespan,
    );
    const four = plan(m, "four-stage", { payload: true });
    const tm0 = { ...mc, tm: 0 };
    const withB = simulateSchedule(four, tm0, { timeline: false }).makespan;
    const without = simulateSchedule(four, tm0, { timeline: false, stageBarriers: false }).makespan;
    expect(without).toBeLessThanOrEqual(withB * (1 + 1e-12));
    expect(without).toBeGreaterThan(0);
  });

  it("hand-computed compose: without barriers a node composes for a rearranging stage when it reaches it", () => {
    // t_m = 1 us per byte; stage "two" composes: node 2 (sends 10 bytes) composes 0..10 and sends to 0
    // 10..20; node 1 receives 0 -> 1 until 100, composes 100..110 and sends to 2 110..120. With the
    // barriers every node composes 100..110 and both stage-two sends run 110..120.
    const s = composing(
      [[0, 1, 100]],
      [
        [2, 0, 10],
        [1, 2, 10],
      ],
    );
    const mc = { ...bare(0), tm: 1 };
    const withB = simulateSchedule(s, mc, { timeline: false });
    expect([withB.transferStart[1], withB.transferEnd[1], withB.makespan]).toEqual([110, 120, 120]);
    const one = simulateSchedule(s, mc, { stageBarriers: false });
    expect([one.transferStart[1], one.transferEnd[1]]).toEqual([10, 20]);
    expect([one.transferStart[2], one.transferEnd[2], one.makespan]).toEqual([110, 120, 120]);
    // the composes are busy time and show on the timeline where they ran
    // node 2: compose 0..10, its send 10..20, the receive from 1 110..120
    expect(one.nodes.busy[2]).toBeCloseTo(30, 9);
    const tl = one.timeline;
    const composes: number[][] = [];
    for (let i = 0; i < tl.count; i++)
      if (tl.kindNames[tl.kind[i]!] === "compose") composes.push([tl.node[i]!, tl.start[i]!, tl.end[i]!]);
    expect(composes.sort((a, b) => a[0]! - b[0]!)).toEqual([
      [1, 100, 110],
      [2, 0, 10],
    ]);
  });
});

describe("stage barriers: where a node composes", () => {
  it("a node composes only once its own send under way has ended, even when its next transfer is a local copy (found by review)", () => {
    // n1's send to n2 waits for n2's port until 100 and runs 100..110; then n1 composes 200 bytes
    // (110..310) and copies 200 bytes (310..510): 510 either way, not a compose overlapping the send
    const s = composing(
      [
        [0, 2, 100],
        [1, 2, 10],
      ],
      [[1, 1, 200]],
    );
    const mc = { ...bare(0), tm: 1 };
    for (const stageBarriers of [true, false]) {
      const r = simulateSchedule(s, mc, { stageBarriers });
      expect([...r.transferStart], String(stageBarriers)).toEqual([0, 100, 310]);
      expect(r.makespan, String(stageBarriers)).toBe(510);
      expect(r.nodes.busy[1]! + r.nodes.wait[1]!).toBeLessThanOrEqual(r.makespan);
    }
  });

  it("a node that reached a new stage composes before it takes that stage's messages (found by review)", () => {
    // n1 receives from n0 until 100, then composes 20 bytes (100..120); n2's stage-two message waits
    // for it (stalled from 100, when n1 began to hold its port) and runs 120..125 beside n1's send 120..140
    const s = composing(
      [[0, 1, 100]],
      [
        [2, 1, 5],
        [1, 0, 20],
      ],
    );
    const mc = { ...bare(0), tm: 1 };
    const r = simulateSchedule(s, mc, { stageBarriers: false });
    expect([...r.transferStart]).toEqual([0, 120, 120]);
    expect(r.makespan).toBe(140);
    // n2: composed 0..5, waited 5..100 for n1's busy port (contention), 100..120 for its compose (stalled)
    expect(r.nodes.wait[2]).toBeCloseTo(95, 9);
    expect(r.nodes.stalled[2]).toBeCloseTo(20, 9);
  });
});

describe("stage barriers: refusals and a property", () => {
  it("refuses what needs a stage boundary, naming it", () => {
    const s = twoStages();
    expect(errorOf(() => simulateSchedule(s, bare(0), { lockstep: true, stageBarriers: false })).message).toMatch(
      /lock-step already puts a barrier after every step/,
    );
    expect(errorOf(() => simulateSchedule(s, bare(0), { stageBarriers: "no" as unknown as boolean })).message).toMatch(
      /stageBarriers must be true or false, got "no"/,
    );
    // every boolean option of a replay is checked the same way (a string was truthy: "no" ran lock-step)
    for (const field of ["lockstep", "timeline"])
      expect(errorOf(() => simulateSchedule(s, bare(0), { [field]: "no" })).message).toMatch(
        new RegExp(`simulate: ${field} must be true or false, got "no"`),
      );
    expect(simulateSchedule(s, bare(0), { lockstep: null as unknown as boolean }).makespan).toBe(
      simulateSchedule(s, bare(0), {}).makespan,
    );
    const m = generatePattern("uniform", 16, { size: 64 }, 1);
    const four = plan(m, "four-stage", { payload: true });
    const sp2 = findMachine("sp2-004");
    expect(sp2.tm).toBeGreaterThan(0);
    expect(
      errorOf(() => simulateSchedule(four, sp2, { mode: "nonblocking", sendWaits: "steps", stageBarriers: false }))
        .message,
    ).toMatch(
      /^simulate: stage '.*' rearranges \(t_m = .* us per byte on sp2-004\): without the stage barriers only blocking mode places each node's compose/,
    );
    const msgLevel = plan(m, "two-stage");
    expect(
      errorOf(() => simulateSchedule(msgLevel, bare(0), { mode: "nonblocking", stageBarriers: false, timeline: false }))
        .message,
    ).toMatch(/sendWaits data on a plan without payload chunks/);
    expect(
      simulateSchedule(msgLevel, bare(0), {
        mode: "nonblocking",
        sendWaits: "steps",
        stageBarriers: false,
        timeline: false,
      }).makespan,
    ).toBeGreaterThan(0);
    expect(errorOf(() => simulateSchedule(four, bare(0), { data: m, stageBarriers: false })).message).toMatch(
      /data mode follows the elements stage by stage/,
    );
  });

  it("property: without barriers no send starts before its node has received everything of earlier steps and composed for its stage", () => {
    fc.assert(
      fc.property(
        matrixArb({ minP: 2, maxP: 24, kinds: ["dense", "sparse", "spike", "permutation"] }),
        fc.constantFrom("two-stage", "mesh-two-stage", "hierarchical", "four-stage"),
        fc.constantFrom("sp2-004", "ib-hdr-200", "t3d-004"),
        (m, algorithm, name) => {
          let s: Schedule;
          try {
            s = plan(m, algorithm, { payload: true });
          } catch (e) {
            if (isCommplanError(e)) return;
            throw e;
          }
          const mc = findMachine(name);
          const r = simulateSchedule(s, mc, { timeline: false, stageBarriers: false });
          const step = stepOfTransfer(s);
          const stageOfStep = new Int32Array(s.stepCount);
          s.stages.forEach((st, k) => stageOfStep.fill(k, st.firstStep, st.firstStep + st.stepCount));
          // per node: the bytes it sends in each stage (its compose there, when the stage rearranges)
          const sent = new Float64Array(s.stages.length * s.p);
          for (let x = 0; x < s.transferCount; x++)
            sent[stageOfStep[step[x]!]! * s.p + s.src[x]!]! += s.size[x]! * s.elementBytes;
          const eps = 1e-9 * (r.makespan + 1);
          const seen = new Int32Array(s.p).fill(-1);
          for (let x = 0; x < s.transferCount; x++) {
            const v = s.src[x]!;
            let ready = 0;
            for (let y = 0; y < s.transferCount; y++)
              if (s.dst[y] === v && s.src[y] !== v && step[y]! < step[x]!) ready = Math.max(ready, r.transferEnd[y]!);
            const k = stageOfStep[step[x]!]!;
            // the first transfer of v in a rearranging stage waits for v's compose there too: from the
            // start for the first stage (as after a barrier), after those receives for a later one
            if (seen[v] !== k && s.stages[k]!.rearrange !== "none") {
              const c = sent[k * s.p + v]! * mc.tm;
              ready = k === 0 ? Math.max(ready, c) : ready + c;
            }
            seen[v] = k;
            expect(r.transferStart[x]!, `${algorithm} ${name} transfer ${x}`).toBeGreaterThanOrEqual(ready - eps);
          }
          expect(r.makespan).toBeGreaterThanOrEqual(Math.max(...r.transferEnd) - eps);
        },
      ),
      { numRuns: 40, seed: 2711 },
    );
  });
});
