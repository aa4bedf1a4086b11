import { describe, expect, it } from "vitest";
import { createRng, shuffleInPlace } from "../../src/model/rng.js";
import { ScheduleBuilder, stageOfStep, stepOfTransfer } from "../../src/model/schedule.js";

describe("rng", () => {
  it("is deterministic per seed and differs between seeds", () => {
    const a = createRng(42),
      b = createRng(42),
      c = createRng(43);
    const xs = Array.from({ length: 8 }, () => a.nextU32());
    expect(Array.from({ length: 8 }, () => b.nextU32())).toEqual(xs);
    expect(Array.from({ length: 8 }, () => c.nextU32())).not.toEqual(xs);
  });
  it("int(n) stays in range and hits every value", () => {
    const r = createRng(7);
    const seen = new Set<number>();
    for (let k = 0; k < 2000; k++) {
      const v = r.int(13);
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(13);
      seen.add(v);
    }
    expect(seen.size).toBe(13);
  });
  it("shuffle is a permutation", () => {
    const a = shuffleInPlace(
      createRng(1),
      Uint32Array.from({ length: 100 }, (_, i) => i),
    );
    expect(Array.from(a).sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });
});

describe("ScheduleBuilder", () => {
  const header = { p: 3, algorithm: "t", params: {}, seed: 1, elementBytes: 8, matrixDigest: "x" };
  it("records stages, steps, transfers, chunks and stalls in columns", () => {
    const b = new ScheduleBuilder(header, true, 1);
    b.stage("one", "compose").step();
    b.transfer(0, 1, 5);
    b.chunk(0, 1, 0, 2).chunk(0, 1, 2, 3);
    b.stall(2);
    b.step();
    b.dropEmptyStep();
    b.stage("two").step();
    b.transfer(1, 2, 1);
    b.chunk(0, 2, 0, 1);
    const s = b.build();
    expect(s.stages).toEqual([
      { name: "one", rearrange: "compose", firstStep: 0, stepCount: 1 },
      { name: "two", rearrange: "none", firstStep: 1, stepCount: 1 },
    ]);
    expect(Array.from(s.stepStart)).toEqual([0, 1, 2]);
    expect(Array.from(s.stallNode)).toEqual([2]);
    expect(Array.from(s.stallStart)).toEqual([0, 1, 1]);
    expect(Array.from(s.chunks!.start)).toEqual([0, 2, 3]);
    expect(Array.from(s.chunks!.count)).toEqual([2, 3, 1]);
    expect(Array.from(stageOfStep(s))).toEqual([0, 1]);
    expect(Array.from(stepOfTransfer(s))).toEqual([0, 1]);
  });
  it("grows past its initial capacity", () => {
    const b = new ScheduleBuilder(header, false, 1);
    b.stage("s").step();
    for (let k = 0; k < 5000; k++) b.transfer(k % 3, (k + 1) % 3, k + 1);
    const s = b.build();
    expect(s.transferCount).toBe(5000);
    expect(s.size[4999]).toBe(5000);
    expect(s.chunks).toBeNull();
  });
});
