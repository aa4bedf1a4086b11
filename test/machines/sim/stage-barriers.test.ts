/** stageBarriers false: the stages replay as one run (as a lowered program runs), hand-computed; what needs a stage boundary is refused. */
import { describe, expect, it } from "vitest";
import { findMachine } from "../../../src/machines/presets.js";
import { simulateSchedule } from "../../../src/machines/sim/simulate.js";
import { ScheduleBuilder, type Schedule } from "../../../src/model/schedule.js";
import { plan } from "../../../src/planner/registry.js";
import { generatePattern } from "../../../src/patterns/registry.js";
import { errorOf } from "../../helpers/errors.js";
import { bare } from "./hand-networks.js";

/** Stage "one": 0 -> 1 (100 bytes); stage "two": 2 -> 0 (10) and 1 -> 2 (10), elements of 1 byte. */
function twoStages(): Schedule {
  const b = new ScheduleBuilder(
    { p: 3, algorithm: "hand", params: {}, seed: null, elementBytes: 1, matrixDigest: "" },
    false,
  );
  b.stage("one").step().transfer(0, 1, 100);
  b.stage("two").step();
  b.transfer(2, 0, 10);
  b.transfer(1, 2, 10);
  return b.build();
}

describe("stage barriers", () => {
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
    const b = new ScheduleBuilder(
      { p: 3, algorithm: "hand", params: {}, seed: null, elementBytes: 1, matrixDigest: "" },
      false,
    );
    b.stage("one").step();
    b.transfer(0, 1, 100);
    b.transfer(2, 2, 1);
    b.stage("two").step().transfer(2, 0, 10);
    const s = b.build();
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

  it("refuses what needs a stage boundary, naming it", () => {
    const s = twoStages();
    expect(errorOf(() => simulateSchedule(s, bare(0), { lockstep: true, stageBarriers: false })).message).toMatch(
      /lock-step already puts a barrier after every step/,
    );
    expect(errorOf(() => simulateSchedule(s, bare(0), { stageBarriers: "no" as unknown as boolean })).message).toMatch(
      /stageBarriers must be true or false, got no/,
    );
    const m = generatePattern("uniform", 16, { size: 64 }, 1);
    const four = plan(m, "four-stage", { payload: true });
    const sp2 = findMachine("sp2-004");
    expect(sp2.tm).toBeGreaterThan(0);
    expect(errorOf(() => simulateSchedule(four, sp2, { stageBarriers: false })).message).toMatch(
      /^simulate: stage '.*' rearranges \(t_m = .* us per byte on sp2-004\): its compose has no place without the stage barriers/,
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
});
