import { describe, expect, it } from "vitest";
import { findMachine } from "../../../src/machines/presets.js";
import { simulateSchedule } from "../../../src/machines/sim/simulate.js";
import { isCommplanError } from "../../../src/model/errors.js";
import { ScheduleBuilder, type Schedule } from "../../../src/model/schedule.js";

const machine = findMachine("t3d-004");

/**
 * A hand-made Schedule whose steps are out of order: step 2 repeats the transfers of step 0
 * (stepStart 0, 2, 0, 2), so under the step rule node 0's send waits for node 1's and node 1's for
 * node 0's: neither can ever go.
 */
function crossedSteps(): Schedule {
  const b = new ScheduleBuilder(
    { p: 2, algorithm: "hand", params: {}, seed: null, elementBytes: 8, matrixDigest: "" },
    false,
  );
  b.stage("main").step();
  b.transfer(0, 1, 4);
  b.transfer(1, 0, 4);
  b.step().step();
  const s = b.build();
  return { ...s, stepStart: Uint32Array.of(0, 2, 0, 2) };
}

/** The error a run throws (fails the test when it throws none). */
function errorOf(run: () => unknown): Error {
  try {
    run();
  } catch (e) {
    return e as Error;
  }
  throw new Error("the run did not fail");
}

describe("replay driver: one failure for both modes", () => {
  it("blocking and nonblocking refuse the crossed steps alike: one CommplanError naming the step table", () => {
    const s = crossedSteps();
    const blocking = errorOf(() => simulateSchedule(s, machine, { mode: "blocking" }));
    const nonblocking = errorOf(() => simulateSchedule(s, machine, { mode: "nonblocking", sendWaits: "steps" }));
    for (const e of [blocking, nonblocking]) {
      expect(isCommplanError(e)).toBe(true);
      expect((e as { code?: string }).code).toBe("BAD_INPUT");
    }
    expect(blocking.message).toBe(nonblocking.message);
    // refused before the replay (it used to reach the driver's deadlock check: "node 0 could not issue transfer 0")
    expect(blocking.message).toBe("simulate: the schedule is not well formed: stepStart[2] is below stepStart[1]");
  });

  it("the same schedule with its steps in order replays in both modes", () => {
    const s = crossedSteps();
    const ordered = { ...s, stepStart: Uint32Array.of(0, 2, 2, 2) };
    for (const mode of ["blocking", "nonblocking"] as const) {
      const r = simulateSchedule(ordered, machine, { mode, sendWaits: "steps" });
      expect(Array.from(r.transferEnd).every((t) => t > 0)).toBe(true);
    }
  });
});
