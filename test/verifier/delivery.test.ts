import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { matrixDigest, matrixFromData, type CommMatrix } from "../../src/model/matrix.js";
import { ScheduleBuilder, type Schedule } from "../../src/model/schedule.js";
import { checkDelivery } from "../../src/verifier/delivery.js";
import { PredecessorSet } from "../../src/verifier/predecessor-set.js";

const header = (m: CommMatrix) => ({
  p: m.p,
  algorithm: "test",
  params: {},
  seed: null,
  elementBytes: 8,
  matrixDigest: matrixDigest(m),
});

/** Message 0 -> 2 of n elements: sent to node 1 in n one-element chunks, then passed whole between nodes 1 and 2, n times. */
function pingPong(n: number): { m: CommMatrix; s: Schedule; chunks: number } {
  const data = new Float64Array(9);
  data[2] = n;
  const m = matrixFromData(3, data);
  const b = new ScheduleBuilder(header(m), true, 2 * n);
  for (let k = 0; k < n; k++) {
    b.step().transfer(0, 1, 1);
    b.chunk(0, 2, k, 1);
  }
  const passes = n % 2 === 1 ? n : n + 1; // an odd number of passes ends at node 2
  for (let k = 0; k < passes; k++) {
    b.step().transfer(k % 2 === 0 ? 1 : 2, k % 2 === 0 ? 2 : 1, n);
    b.chunk(0, 2, 0, n);
  }
  return { m, s: b.build(), chunks: n + passes };
}

describe("delivery: linear work", () => {
  it("the worst case of interval splitting (one-element chunks, then the whole message back and forth) visits O(chunks) runs", () => {
    for (const n of [1000, 4000, 16000]) {
      const { m, s, chunks } = pingPong(n);
      const r = checkDelivery(m, s);
      expect(r.delivery.holds && r.causality.holds).toBe(true);
      // each chunk creates at most 3 runs and visits only runs it removes, plus the one it keeps
      expect(r.runVisits).toBeLessThanOrEqual(3 * chunks + 1);
    }
  });

  it("a failing ping-pong still names the run that was forwarded before it arrived", () => {
    const n = 50;
    const data = new Float64Array(9);
    data[2] = n;
    const m = matrixFromData(3, data);
    const b = new ScheduleBuilder(header(m), true);
    b.step().transfer(0, 1, n);
    b.chunk(0, 2, 0, n);
    b.transfer(1, 2, 10); // same step: elements 5..14 are not at node 1 yet
    b.chunk(0, 2, 5, 10);
    const r = checkDelivery(m, b.build());
    expect(r.causality.holds).toBe(false);
    expect(r.causality.measured).toBe(1);
    expect(r.causality.witness).toBe(
      "step 0: node 1 forwards elements 5..14 of message 0 -> 2 before they arrive (they arrive in step 0)",
    );
    expect(r.delivery.holds).toBe(false);
    expect(r.delivery.witness).toBe("elements 0..4 of message 0 -> 2 end at node 1, not 2");
  });

  it("one element's causality and end-of-message witnesses read in the singular", () => {
    const data = new Float64Array(9);
    data[2] = 1; // one element 0 -> 2
    const m = matrixFromData(3, data);
    const relay = new ScheduleBuilder(header(m), true);
    relay.step().transfer(0, 1, 1);
    relay.chunk(0, 2, 0, 1); // to node 1 only: it ends there
    const stranded = checkDelivery(m, relay.build());
    expect(stranded.delivery.witness).toBe("element 0 of message 0 -> 2 ends at node 1, not 2");
    const early = new ScheduleBuilder(header(m), true);
    early.step().transfer(0, 1, 1);
    early.chunk(0, 2, 0, 1);
    early.transfer(1, 2, 1); // the same step: forwarded before it arrives
    early.chunk(0, 2, 0, 1);
    expect(checkDelivery(m, early.build()).causality.witness).toBe(
      "step 0: node 1 forwards element 0 of message 0 -> 2 before it arrives (it arrives in step 0)",
    );
    const elsewhere = new ScheduleBuilder(header(m), true);
    elsewhere.step().transfer(1, 2, 1); // node 1 sends what node 0 holds
    elsewhere.chunk(0, 2, 0, 1);
    expect(checkDelivery(m, elsewhere.build()).causality.witness).toBe(
      "step 0: node 1 sends element 0 of message 0 -> 2 but node 0 holds it",
    );
  });

  it("a witness of one element reads in the singular, of several in the plural", () => {
    const witness = (size: number, sent: number | null): string | null => {
      const data = new Float64Array(4);
      data[1] = size;
      data[2] = 1; // message 1 -> 0, always sent whole
      const m = matrixFromData(2, data);
      const b = new ScheduleBuilder(header(m), true);
      b.step().transfer(1, 0, 1);
      b.chunk(1, 0, 0, 1);
      if (sent !== null) {
        b.transfer(0, 1, sent);
        b.chunk(0, 1, 0, sent);
      }
      return checkDelivery(m, b.build()).delivery.witness;
    };
    expect(witness(1, null)).toBe("element 0 of message 0 -> 1 is never sent");
    expect(witness(3, null)).toBe("elements 0..2 of message 0 -> 1 are never sent");
    expect(witness(1, 2)).toBe("step 0: element 1 of message 0 -> 1 does not exist (the message has 1 element)");
    expect(witness(1, 3)).toBe("step 0: elements 1..2 of message 0 -> 1 do not exist (the message has 1 element)");
    expect(witness(2, 3)).toBe("step 0: element 2 of message 0 -> 1 does not exist (the message has 2 elements)");
  });
});

/**
 * Element by element: the meaning of delivery and causality (DESIGN.md, element semantics). A
 * message with a stranger (an element past its end) fails delivery and is not followed further.
 */
function naive(m: CommMatrix, s: Schedule): { delivery: boolean; causality: boolean } {
  const { p } = m;
  const c = s.chunks!;
  const stranger = new Set<number>(),
    sent = new Set<number>();
  for (let k = 0; k < c.origin.length; k++) {
    const pair = c.origin[k]! * p + c.dest[k]!;
    sent.add(pair);
    if (c.offset[k]! + c.count[k]! > m.data[pair]!) stranger.add(pair);
  }
  const holder = new Map<string, number>(),
    ready = new Map<string, number>();
  let causality = true;
  for (let st = 0; st < s.stepCount; st++) {
    for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) {
      for (let k = c.start[x]!; k < c.start[x + 1]!; k++) {
        const o = c.origin[k]!,
          d = c.dest[k]!;
        if (stranger.has(o * p + d)) continue;
        for (let e = c.offset[k]!; e < c.offset[k]! + c.count[k]!; e++) {
          const key = `${o},${d},${e}`;
          if ((holder.get(key) ?? o) !== s.src[x] || (ready.get(key) ?? 0) > st) causality = false;
          holder.set(key, s.dst[x]!);
          ready.set(key, st + 1);
        }
      }
    }
  }
  let delivery = stranger.size === 0;
  for (let o = 0; o < p; o++) {
    for (let d = 0; d < p; d++) {
      const total = m.data[o * p + d]!;
      if (!sent.has(o * p + d)) {
        if (total > 0 && o !== d) delivery = false;
        continue;
      }
      if (stranger.has(o * p + d)) continue;
      for (let e = 0; e < total; e++) if ((holder.get(`${o},${d},${e}`) ?? o) !== d) delivery = false;
    }
  }
  return { delivery, causality };
}

describe("delivery: the run-based check agrees with an element-by-element walk", () => {
  const move = fc.record({
    step: fc.nat(5),
    src: fc.nat(3),
    dst: fc.nat(3),
    o: fc.nat(3),
    d: fc.nat(3),
    offset: fc.nat(5),
    count: fc.integer({ min: 1, max: 4 }),
  });
  it("on random payload schedules of P <= 4", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat(5), { minLength: 16, maxLength: 16 }),
        fc.array(move, { maxLength: 14 }),
        (p, entries, moves) => {
          const m = matrixFromData(p, Float64Array.from(entries.slice(0, p * p)));
          const b = new ScheduleBuilder(header(m), true);
          const sorted = moves
            .map((x) => ({ ...x, src: x.src % p, dst: x.dst % p, o: x.o % p, d: x.d % p }))
            .sort((a, z) => a.step - z.step);
          let step = -1;
          for (const x of sorted) {
            while (step < x.step) {
              b.step();
              step++;
            }
            b.transfer(x.src, x.dst, x.count);
            b.chunk(x.o, x.d, x.offset, x.count);
          }
          const s = b.build();
          const r = checkDelivery(m, s);
          const want = naive(m, s);
          expect({ delivery: r.delivery.holds, causality: r.causality.holds }).toEqual(want);
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe("PredecessorSet", () => {
  it("answers 'largest member <= x' like a sorted list, across resets", () => {
    const set = new PredecessorSet();
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.array(fc.tuple(fc.constantFrom("add", "remove", "prev"), fc.nat()), { maxLength: 200 }),
        (u, ops) => {
          set.reset(u);
          const ref = new Set<number>();
          for (const [op, raw] of ops) {
            const x = raw % u;
            if (op === "add") {
              set.add(x);
              ref.add(x);
            } else if (op === "remove") {
              if (!ref.has(x)) continue;
              set.remove(x);
              ref.delete(x);
            } else {
              let want = -1;
              for (const v of ref) if (v <= x && v > want) want = v;
              expect(set.prev(x)).toBe(want);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
