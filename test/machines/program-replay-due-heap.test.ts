/**
 * DueHeap, the program replay's flows in progress by completion time: after any sequence of moves and removals its
 * top is the flow of least (time in ticks, id), as a lazy EventHeap with stale entries skipped would give.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DueHeap } from "../../src/machines/program-replay/due-heap.js";
import { TICKS_PER_US } from "../../src/machines/sim/heap.js";

describe("DueHeap", () => {
  it("keeps as its top the flow of least (rounded time, id) through sets, moves and deletes", () => {
    const op = fc.record({
      f: fc.integer({ min: 0, max: 39 }),
      // few distinct times, some a fraction of a tick apart: ties on the rounded key go to the smaller id
      t: fc.oneof(fc.constantFrom(1, 2, 2 + 1e-7, 2 - 2e-7, 5), fc.double({ min: 0, max: 10, noNaN: true })),
      del: fc.integer({ min: 0, max: 2 }).map((x) => x === 0),
      pop: fc.integer({ min: 0, max: 3 }).map((x) => x === 0),
    });
    fc.assert(
      fc.property(fc.array(op, { minLength: 150, maxLength: 300 }), (ops) => {
        const h = new DueHeap(40);
        const ref = new Map<number, number>();
        const least = (): number => {
          let best = -1;
          for (const [f, t] of ref) {
            const k = Math.round(t * TICKS_PER_US),
              kb = best < 0 ? Infinity : Math.round(ref.get(best)! * TICKS_PER_US);
            if (best < 0 || k < kb || (k === kb && f < best)) best = f;
          }
          return best;
        };
        for (const { f, t, del, pop } of ops) {
          if (pop && ref.size > 0) {
            const g = least();
            expect(h.topFlow()).toBe(g);
            h.delete(g);
            ref.delete(g);
          } else if (del) {
            h.delete(f);
            ref.delete(f);
          } else {
            h.set(f, t);
            ref.set(f, t);
          }
          expect(h.size).toBe(ref.size);
          const g = least();
          expect(h.topTime()).toBe(g < 0 ? Infinity : ref.get(g));
          if (g >= 0) expect(h.topFlow()).toBe(g);
        }
      }),
      { numRuns: 100 },
    );
  });
});
