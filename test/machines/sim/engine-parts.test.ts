/** Simulator parts: the event heap, and busy time per simulated node. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { findMachine } from "../../../src/machines/presets.js";
import { EventHeap } from "../../../src/machines/sim/heap.js";
import { simulateSchedule } from "../../../src/machines/sim/simulate.js";
import { plan } from "../../../src/planner/registry.js";
import { buildMatrix } from "../../helpers/arbitraries.js";

describe("event heap", () => {
  it("pops events in (time, id) order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 1000 })), { maxLength: 300 }),
        (evs) => {
          const h = new EventHeap(4);
          for (const [t, id] of evs) h.push(t, id);
          const out: [number, number][] = [];
          while (h.size > 0) {
            out.push([h.topTime(), h.topId()]);
            h.pop();
          }
          const sorted = [...evs].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
          expect(out).toEqual(sorted);
        },
      ),
    );
  });
});

describe("simulated nodes", () => {
  const m = buildMatrix({ p: 6, kind: "dense", seed: 2, maxEntry: 20 });
  const r = simulateSchedule(plan(m, "four-stage"), findMachine("t3e-004"));
  it("busy time per node is the union of its activities and never exceeds the makespan", () => {
    for (let v = 0; v < 6; v++) {
      expect(r.nodes.busy[v]!).toBeLessThanOrEqual(r.makespan * (1 + 1e-12));
      expect(r.nodes.busy[v]!).toBeGreaterThan(0);
    }
  });
});
