/**
 * ReplayEventHeap, the program replay's timed events: they leave in the order of (time rounded to ticks, order
 * scheduled), as EventHeap with sequence-number ids gives, through any mix of pushes and pops.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ReplayEventHeap } from "../../src/machines/program-replay/replay-event-heap.js";
import { EventHeap } from "../../src/machines/sim/heap.js";

describe("ReplayEventHeap", () => {
  it("pops events in EventHeap's order (rounded time, then first scheduled first), carrying their values", () => {
    const op = fc.oneof(
      // few distinct times, some a fraction of a tick apart, so that many events tie on the rounded key
      fc.record({
        t: fc.oneof(fc.constantFrom(1, 2, 2 + 1e-7, 2 - 2e-7, 5), fc.double({ min: 0, max: 10, noNaN: true })),
        what: fc.integer({ min: 0, max: 1 << 30 }),
      }),
      fc.constant(null),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 400 }), (ops) => {
        // capacity 16: the heap grows while events are in it
        const h = new ReplayEventHeap(1);
        const ref = new EventHeap(16);
        const carried: number[] = [];
        const check = (): void => {
          expect(h.size).toBe(ref.size);
          if (ref.size === 0) {
            expect(h.topTime()).toBe(Infinity);
            return;
          }
          expect(h.topTime()).toBe(ref.topTime());
          expect(h.topWhat()).toBe(carried[ref.topId()]);
        };
        for (const o of ops) {
          if (o === null) {
            if (ref.size > 0) {
              h.pop();
              ref.pop();
            }
          } else {
            h.push(o.t, o.what);
            ref.push(o.t, carried.length);
            carried.push(o.what);
          }
          check();
        }
        while (ref.size > 0) {
          h.pop();
          ref.pop();
          check();
        }
      }),
      { numRuns: 200 },
    );
  });

  it("keeps that order for events scheduled as the replay does: nondecreasing times plus a few delays", () => {
    const op = fc.record({
      // the clock's step (often none: events of one instant), one of a few delays or any, a pop or not
      step: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 3, noNaN: true })),
      delay: fc.oneof(fc.constantFrom(0.25, 1.5, 1.5 + 1e-7, 4, 0), fc.double({ min: 0, max: 8, noNaN: true })),
      pops: fc.integer({ min: 0, max: 2 }),
    });
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 600 }), (ops) => {
        const h = new ReplayEventHeap(1);
        const ref = new EventHeap(16);
        const carried: number[] = [];
        let now = 0;
        const popBoth = (): void => {
          expect(h.topTime()).toBe(ref.topTime());
          expect(h.topWhat()).toBe(carried[ref.topId()]);
          // the clock never runs back: it is at least the time of the event it handles
          now = Math.max(now, ref.topTime());
          h.pop();
          ref.pop();
          expect(h.size).toBe(ref.size);
        };
        for (const o of ops) {
          now += o.step;
          h.push(now + o.delay, carried.length);
          ref.push(now + o.delay, carried.length);
          carried.push(carried.length);
          for (let i = 0; i < o.pops && ref.size > 0; i++) popBoth();
        }
        while (ref.size > 0) popBoth();
        expect(h.topTime()).toBe(Infinity);
      }),
      { numRuns: 200 },
    );
  });
});
