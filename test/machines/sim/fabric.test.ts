import { describe, expect, it } from "vitest";
import { scheduleCost } from "../../../src/machines/cost-model.js";
import { findMachine } from "../../../src/machines/presets.js";
import { simulateSchedule } from "../../../src/machines/sim/simulate.js";
import { ocpcRoundCap } from "../../../src/machines/sim/replay-blocking.js";
import { CM5_RATES } from "../../../src/machines/sim/fabric.js";
import { matrixDigest, matrixFromData } from "../../../src/model/matrix.js";
import { ScheduleBuilder } from "../../../src/model/schedule.js";
import { plan } from "../../../src/planner/registry.js";
import { buildMatrix } from "../../helpers/arbitraries.js";

const cm5 = findMachine("cm5-004");

describe("topologies: the CM-5 fat tree", () => {
  it("CM-5 fat tree: 20 MB/s within a cluster of 4, 10 MB/s within 16, 5 MB/s otherwise (000 sec. 3)", () => {
    const b = new ScheduleBuilder(
      { p: 32, algorithm: "hand", params: {}, seed: null, elementBytes: 1, matrixDigest: "x" },
      false,
    );
    b.stage("s");
    b.step().transfer(0, 3, 1000);
    b.step().transfer(0, 15, 1000);
    b.step().transfer(0, 16, 1000);
    const s = b.build();
    const r = simulateSchedule(s, cm5, { lockstep: true, topology: "cm5-fat-tree" });
    const d = (rate: number): number => cm5.ts + 1000 * (cm5.tc + 1 / rate);
    expect(r.transferEnd[0]! - r.transferStart[0]!).toBeCloseTo(d(CM5_RATES.cluster4), 9);
    expect(r.transferEnd[1]! - r.transferStart[1]!).toBeCloseTo(d(CM5_RATES.cluster16), 9);
    expect(r.transferEnd[2]! - r.transferStart[2]!).toBeCloseTo(d(CM5_RATES.other), 9);
    expect(r.makespan).toBeCloseTo(cm5.barrier + d(20) + d(10) + d(5), 9);
    // the flat model with the CM-5 preset's t_d = 1/20 matches the fat tree within a cluster only
    const flat = simulateSchedule(s, cm5, { lockstep: true });
    expect(flat.makespan).toBeLessThan(r.makespan);
  });

  it("the cm5-fat-tree preset simulates on the fat tree by default; its flat t_d is the slowest level, so the analytic cost bounds it and is exact across clusters of 16", () => {
    const ft = findMachine("cm5-fat-tree");
    expect(ft.fabric).toBe("cm5-fat-tree");
    expect(ft.td).toBe(1 / CM5_RATES.other);
    const b = new ScheduleBuilder(
      { p: 32, algorithm: "hand", params: {}, seed: null, elementBytes: 1, matrixDigest: "x" },
      false,
    );
    b.stage("s");
    b.step().transfer(0, 3, 1000);
    b.step().transfer(0, 20, 5000);
    b.transfer(1, 2, 1000);
    const s = b.build();
    const r = simulateSchedule(s, ft, { lockstep: true });
    expect(r.fabric).toBe("cm5-fat-tree");
    const d = (bytes: number, rate: number): number => ft.ts + bytes * (ft.tc + 1 / rate);
    expect(r.makespan).toBeCloseTo(ft.barrier + d(1000, 20) + d(5000, 5), 9);
    const analytic = scheduleCost(s, ft, "blocking");
    expect(r.makespan).toBeLessThan(analytic.total);
    // step 1 alone crosses the clusters of 16 with its slowest message: exact there
    expect(analytic.steps[1]!.time).toBe(d(5000, 5));
    expect(analytic.steps[0]!.time).toBeGreaterThan(d(1000, 20));
    expect(simulateSchedule(s, ft, { lockstep: true, topology: "flat" }).makespan).toBe(analytic.total);
  });

  it("f_nc divides by the network time of each pair on the fat tree", () => {
    // 0 -> 1 (cluster of 4) and 20 -> 1 (across) both into node 1 at once: one waits.
    const ft = { ...findMachine("cm5-fat-tree"), barrier: 0 };
    const b = new ScheduleBuilder(
      { p: 32, algorithm: "hand", params: {}, seed: null, elementBytes: 1, matrixDigest: "x" },
      false,
    );
    b.stage("s").step().transfer(0, 1, 1000);
    b.transfer(20, 1, 1000);
    const r = simulateSchedule(b.build(), ft, { lockstep: true });
    const near = 1000 / CM5_RATES.cluster4,
      far = 1000 / CM5_RATES.other;
    expect(r.nodes.wait[20]).toBeCloseTo(ft.ts + 1000 * (ft.tc + 1 / CM5_RATES.cluster4), 9);
    // D_1 = near + far (node 1 receives both), D_20 = far; f_nc = max(D_1, D_20 + W_20) / D_1
    expect(r.fnc).toBeCloseTo(Math.max(near + far, far + r.nodes.wait[20]!) / (near + far), 12);
  });
});

describe("topologies: OCPC collisions and backoff", () => {
  it("OCPC: two messages into one receiver in a step collide, both fail and are resent until delivered (001 sec. 2)", () => {
    const m = matrixFromData(4, new Float64Array([0, 0, 5, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0]), {
      elementBytes: 8,
    });
    const b = new ScheduleBuilder(
      { p: 4, algorithm: "hand", params: {}, seed: null, elementBytes: 8, matrixDigest: matrixDigest(m) },
      true,
    );
    b.stage("s").step();
    b.transfer(0, 2, 5);
    b.chunk(0, 2, 0, 5);
    b.transfer(1, 2, 5);
    b.chunk(1, 2, 0, 5);
    const s = b.build();
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = simulateSchedule(s, cm5, { lockstep: true, topology: "ocpc", seed, data: m });
      expect(r.collisions).toBeGreaterThanOrEqual(2);
      expect(r.dataFailures).toEqual([]);
      const d = cm5.ts + 40 * (cm5.tc + cm5.td);
      expect(r.makespan).toBeGreaterThanOrEqual(cm5.barrier + 3 * d - 1e-6);
      expect(r.timeline.kind.some((k, i) => r.timeline.kindNames[k] === "collide" && r.timeline.node[i] === 0)).toBe(
        true,
      );
    }
  });

  it("OCPC: 15 senders into one receiver finish quickly under binary exponential backoff, every element delivered", () => {
    const p = 16;
    const data = new Float64Array(p * p);
    for (let i = 1; i < p; i++) data[i * p] = 3;
    const m = matrixFromData(p, data, { elementBytes: 8 });
    const b = new ScheduleBuilder(
      { p, algorithm: "hand", params: {}, seed: null, elementBytes: 8, matrixDigest: matrixDigest(m) },
      true,
    );
    b.stage("s").step();
    for (let i = 1; i < p; i++) {
      b.transfer(i, 0, 3);
      b.chunk(i, 0, 0, 3);
    }
    const s = b.build();
    const d = cm5.ts + 24 * (cm5.tc + cm5.td);
    for (let seed = 1; seed <= 10; seed++) {
      const r = simulateSchedule(s, cm5, { lockstep: true, topology: "ocpc", seed, data: m, timeline: false });
      expect(r.dataFailures).toEqual([]);
      expect(r.collisions).toBeGreaterThan(0);
      // 15 successes and at least one colliding round; far below the 64 n log n round cap
      const rounds = Math.round((r.makespan - cm5.barrier) / d);
      expect(rounds).toBeGreaterThanOrEqual(16);
      expect(rounds).toBeLessThan(ocpcRoundCap(15) / 10);
    }
  });
});

describe("topologies: OCPC accounts and options", () => {
  it("OCPC replays a contention-free plan without a collision, as fast as the flat lock-step machine and with the same per-node times", () => {
    const m = buildMatrix({ p: 12, kind: "dense", seed: 4, maxEntry: 50 });
    for (const name of ["linear-permutation", "shift"]) {
      const s = plan(m, name);
      const o = simulateSchedule(s, cm5, { lockstep: true, topology: "ocpc" });
      const flat = simulateSchedule(s, cm5, { lockstep: true });
      expect(o.collisions).toBe(0);
      expect(o.makespan).toBe(flat.makespan);
      expect(o.events).toBe(s.transferCount);
      for (let v = 0; v < s.p; v++) {
        // a node sends and receives at once: busy is the union, as on the flat machine
        expect(o.nodes.busy[v]!, `${name} node ${v}`).toBeCloseTo(flat.nodes.busy[v]!, 6);
        expect(o.nodes.busy[v]!).toBeLessThanOrEqual(o.makespan);
        expect(o.nodes.idle[v]!).toBeCloseTo(flat.nodes.idle[v]!, 6);
      }
    }
  });

  it("OCPC accounts: a collided attempt is its sender's contention wait only; busy is the union of successful transfers", () => {
    const mc = { ...cm5, barrier: 0 };
    const b = new ScheduleBuilder(
      { p: 4, algorithm: "hand", params: {}, seed: null, elementBytes: 8, matrixDigest: "x" },
      false,
    );
    b.stage("s").step();
    for (const a of [1, 2, 3]) b.transfer(a, 0, 10);
    const s = b.build();
    const d = mc.ts + 80 * (mc.tc + mc.td);
    for (let seed = 1; seed <= 8; seed++) {
      const r = simulateSchedule(s, mc, { topology: "ocpc", lockstep: true, seed });
      expect(r.collisions).toBeGreaterThan(0);
      expect(r.nodes.busy[0]!).toBeCloseTo(3 * d, 9);
      for (const a of [1, 2, 3]) expect(r.nodes.busy[a]!).toBeCloseTo(d, 9);
      let wait = 0;
      for (let v = 0; v < 4; v++) {
        expect(r.nodes.busy[v]!).toBeLessThanOrEqual(r.makespan + 1e-9);
        expect(r.nodes.busy[v]! + r.nodes.wait[v]! + r.nodes.idle[v]!).toBeCloseTo(r.makespan, 9);
        wait += r.nodes.wait[v]!;
      }
      expect(wait).toBeCloseTo(r.collisions * d, 9);
      expect(r.nodes.wait[0]).toBe(0);
      expect(r.events).toBe(3 + r.collisions);
    }
  });

  it("OCPC needs lock-step and one port per node", () => {
    const s = plan(buildMatrix({ p: 4, kind: "dense", seed: 4, maxEntry: 5 }), "shift");
    expect(() => simulateSchedule(s, cm5, { topology: "ocpc" })).toThrow(/lockstep/);
    expect(() => simulateSchedule(s, cm5, { topology: "ocpc", lockstep: true, ports: 2 })).toThrow(
      /one send and one receive port per node/,
    );
  });
});

describe("nonblocking pipeline (004 sec. 2.2, 3.4)", () => {
  it("one message costs T_s_send + m t_c + m t_d + T_s_recv; consecutive messages overlap", () => {
    const mc = { ...findMachine("sp2-004"), barrier: 0 };
    const b = new ScheduleBuilder(
      { p: 2, algorithm: "hand", params: {}, seed: null, elementBytes: 1, matrixDigest: "x" },
      false,
    );
    b.stage("s").step().transfer(0, 1, 1000);
    const one = simulateSchedule(b.build(), mc, { mode: "nonblocking" });
    expect(one.makespan).toBeCloseTo(mc.ts + 1000 * (mc.tc + mc.td), 9);
    const b2 = new ScheduleBuilder(
      { p: 2, algorithm: "hand", params: {}, seed: null, elementBytes: 1, matrixDigest: "x" },
      false,
    );
    b2.stage("s");
    for (let k = 0; k < 8; k++) b2.step().transfer(0, 1, 1000);
    const s8 = b2.build();
    const dual = simulateSchedule(s8, mc, { mode: "nonblocking", sendBuffers: 2 });
    const single = simulateSchedule(s8, mc, { mode: "nonblocking", sendBuffers: 1 });
    const blocking = simulateSchedule(s8, mc, { mode: "blocking" });
    expect(dual.makespan).toBeLessThan(blocking.makespan);
    expect(dual.makespan).toBeLessThan(single.makespan);
    // the pipeline is bounded below by its slowest stage: 8 m max(t_c, t_d)
    expect(dual.makespan).toBeGreaterThanOrEqual(8 * 1000 * Math.max(mc.tc, mc.td));
  });
});
