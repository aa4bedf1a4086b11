/** A machine model built by hand is checked where it enters the library: a bad field is a one-line error naming it, not a NaN time. */
import { describe, expect, it } from "vitest";
import { lowerBounds } from "../../src/bounds/index.js";
import { planAuto } from "../../src/auto/index.js";
import { runCandidates } from "../../src/compare/candidates.js";
import { MACHINES, findMachine, scheduleCost } from "../../src/machines/index.js";
import { runProtocol } from "../../src/machines/sim/protocols.js";
import { simulateSchedule } from "../../src/machines/sim/simulate.js";
import { machineProblem, type MachineModel } from "../../src/model/machine.js";
import type { CommMatrix } from "../../src/model/matrix.js";
import { plan } from "../../src/planner/index.js";
import { errorOf } from "../helpers/errors.js";

const m: CommMatrix = {
  p: 4,
  elementBytes: 8,
  data: Float64Array.from({ length: 16 }, (_, k) => (k % 5 === 0 ? 0 : 2)),
};
const s = plan(m, "shift", {});
const t3d = findMachine("t3d-004");

const ENTRIES: [string, (machine: MachineModel) => unknown][] = [
  ["scheduleCost", (mc) => scheduleCost(s, mc, "blocking")],
  ["simulateSchedule", (mc) => simulateSchedule(s, mc)],
  ["runProtocol", (mc) => runProtocol(m, mc, { protocol: "async" })],
  ["planAuto", (mc) => planAuto(m, mc)],
  ["runCandidates", (mc) => runCandidates(m, { machine: mc })],
  ["lowerBounds", (mc) => lowerBounds(m, "sim-blocking", { machine: mc })],
  ["plan (machine option)", (mc) => plan(m, "shift", { machine: mc })],
];

describe("machine models built by hand", () => {
  it("every preset is sound", () => {
    for (const mc of MACHINES) expect(machineProblem(mc)).toBeNull();
  });

  const BAD: [Partial<Record<keyof MachineModel, unknown>>, RegExp][] = [
    [{ td: NaN }, /machine t3d-004: td = NaN is not a finite number >= 0$/],
    [{ ts: -1 }, /machine t3d-004: ts = -1 is not a finite number >= 0$/],
    [{ tc: "0.01" }, /machine t3d-004: tc = 0\.01 is not a finite number >= 0$/],
    [{ barrier: undefined }, /machine t3d-004: barrier = undefined is not a finite number >= 0$/],
    [{ tsSend: 1e6 }, /machine t3d-004: tsSend = 1000000 exceeds ts = /],
    [{ ports: 0 }, /machine t3d-004: ports = 0 is not a positive integer$/],
    [{ envelope: 1.5 }, /machine t3d-004: envelope = 1\.5 is not a non-negative integer$/],
    [{ name: "" }, /the machine has no name$/],
    // finite, but the makespan would be Infinity
    [{ td: 1e300 }, /machine t3d-004: td = 1e\+300 is more than 1e12 \(us, or us per byte: about 11\.6 days\)$/],
  ];
  for (const [change, message] of BAD)
    it(`refuses ${JSON.stringify(change) ?? String(change)} at every entry`, () => {
      const bad = { ...t3d, ...change } as MachineModel;
      for (const [name, f] of ENTRIES) {
        const text = errorOf(() => f(bad)).message;
        expect(text, name).toMatch(message);
        expect(text, name).not.toContain("\n");
      }
    });

  it("the entries take a sound machine", () => {
    for (const [name, f] of ENTRIES) expect(() => f(t3d), name).not.toThrow();
  });

  it("the largest times it takes give finite makespans", () => {
    const slow = { ...t3d, ts: 1e12, tsSend: 1e12, tc: 1e12, td: 1e12, tm: 1e12, barrier: 1e12 };
    const big: CommMatrix = { p: 4, elementBytes: 8, data: m.data.map((x) => x * 2 ** 40) };
    const sb = plan(big, "shift", {});
    expect(Number.isFinite(scheduleCost(sb, slow, "blocking").total)).toBe(true);
    expect(Number.isFinite(simulateSchedule(sb, slow).makespan)).toBe(true);
  });
});
