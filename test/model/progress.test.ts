/** progressTicker and progressPhases: coarse, monotone reports that end at the total. */
import { describe, expect, it } from "vitest";
import { PROGRESS_REPORTS, progressPhases, progressTicker } from "../../src/model/progress.js";
import { expectProgress, recorder } from "../helpers/progress.js";

describe("progressTicker", () => {
  it("a hot loop that calls it on reaching the mark reports about every 1/1000 of the work, monotone, ending at the total", () => {
    const { calls, progress } = recorder();
    const tick = progressTicker(progress, 1_000_000);
    let mark = tick(0);
    let asked = 1;
    for (let x = 0; x < 1_000_000; x++) {
      if (x >= mark) {
        asked++;
        mark = tick(x);
      }
    }
    tick(Infinity);
    expectProgress(calls);
    expect(calls[0]).toEqual([0, 1_000_000]);
    expect(calls.length).toBe(asked + 1);
    expect(calls.length).toBeLessThanOrEqual(PROGRESS_REPORTS + 2);
    expect(calls.length).toBeGreaterThan(PROGRESS_REPORTS / 2);
  });

  it("a loop that calls it every time is throttled the same; counts below the mark or repeated report nothing", () => {
    const every = recorder();
    const tick = progressTicker(every.progress, 100_000);
    for (let x = 0; x < 100_000; x++) tick(x);
    tick(Infinity);
    expectProgress(every.calls);
    expect(every.calls.length).toBeLessThanOrEqual(PROGRESS_REPORTS + 2);
    const { calls, progress } = recorder();
    const t = progressTicker(progress, 10);
    t(3);
    t(2); // below what was reported
    t(3); // the same count
    t(25); // capped at the total
    t(30);
    t(Infinity); // the total was reported: nothing
    expect(calls).toEqual([
      [3, 10],
      [10, 10],
    ]);
  });

  it("without a callback every call returns Infinity; an empty run reports 0 of 0", () => {
    const none = progressTicker(null, 100);
    expect(none(0)).toBe(Infinity);
    expect(none(50)).toBe(Infinity);
    const { calls, progress } = recorder();
    progressTicker(progress, 0)(Infinity);
    expect(calls).toEqual([[0, 0]]);
  });
});

describe("progressPhases", () => {
  it("maps each phase's own count onto its weight, rising across phases, passing over a silent phase", () => {
    const { calls, progress } = recorder();
    const run = progressPhases(progress, [100, 300, 600]);
    expect(run.total).toBe(1000);
    const a = run.phase(0)!;
    a(0, 7);
    a(7, 7);
    run.complete(1); // a phase that reports nothing on its way
    const c = run.phase(2)!;
    c(0, 3); // the start of phase 2: already reported by complete(1)
    c(1, 3);
    c(1, 3);
    c(3, 3);
    run.end();
    expectProgress(calls);
    expect(calls.map((x) => x[0])).toEqual([0, 100, 400, 600, 1000]);
  });

  it("never goes down when a phase reports after a later one; no callbacks without a run callback", () => {
    const { calls, progress } = recorder();
    const run = progressPhases(progress, [1, 1]);
    run.phase(1)!(1, 2);
    run.phase(0)!(1, 1); // out of order: below what was reported
    run.end();
    expect(calls.map((x) => x[0])).toEqual([1, 2]);
    const silent = progressPhases(undefined, [1, 1]);
    expect(silent.phase(0)).toBeNull();
    silent.complete(0);
    silent.end();
  });
});
