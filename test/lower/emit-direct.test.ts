// emitDirect (direct messages without copies: a scatter in message order, then a rank-major pass) against the general
// emitter on the same messages: the same program, column for column, both variants and both layout forms.
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { emitOps } from "../../src/lower/emit.js";
import { bufferLayout } from "../../src/lower/layout.js";
import { directMessages, directMessagesUnchecked, groupTransfers } from "../../src/lower/messages.js";
import { matrixFromData, type CommMatrix } from "../../src/model/matrix.js";
import { matrixDigest } from "../../src/model/matrix-digest.js";
import { ScheduleBuilder } from "../../src/model/schedule.js";
import type { LayoutForm } from "../../src/model/program.js";
import { plan } from "../../src/planner/registry.js";
import { matrixArb } from "../helpers/arbitraries.js";

// Every unzeroed column comes filled with 0xa5 bytes, so an element the direct path leaves unwritten differs from
// the general emitter's (zero-filled) column instead of matching it by the chance of fresh memory being zero.
vi.mock("../../src/internal/unzeroed.js", () => ({
  unzeroed: <T extends Uint8Array | Uint32Array | Float64Array>(
    ctor: { new (b: ArrayBuffer, o: number, n: number): T; BYTES_PER_ELEMENT: number },
    n: number,
  ): T => {
    const b = new ArrayBuffer(n * ctor.BYTES_PER_ELEMENT);
    new Uint8Array(b).fill(0xa5);
    return new ctor(b, 0, n);
  },
}));

/** m with its diagonal cleared (no local copies: the direct path's case). */
function offDiagonal(m: CommMatrix): CommMatrix {
  const data = Float64Array.from(m.data);
  for (let i = 0; i < m.p; i++) data[i * m.p + i] = 0;
  return matrixFromData(m.p, data);
}

describe("emitDirect", () => {
  it("lays out the same operations and pieces as the general emitter", () => {
    fc.assert(
      fc.property(
        matrixArb({ maxP: 24 }),
        fc.constantFrom("shift", "linear-permutation", "coloring", "rs-n"),
        fc.constantFrom("nonblocking", "blocking") as fc.Arbitrary<"nonblocking" | "blocking">,
        fc.constantFrom("full", "peers") as fc.Arbitrary<LayoutForm>,
        (m0, algorithm, variant, form) => {
          const m = offDiagonal(m0);
          const s = plan(m, algorithm);
          const layout = bufferLayout(m, { form });
          const g = groupTransfers(s);
          const rounds = s.stepCount > 0 ? s.stepCount : g.n > 0 ? 1 : 0;
          const msgs = directMessagesUnchecked(layout, m.p, s, g) ?? directMessages(layout, m.p, s, g);
          expect(msgs.direct?.x0 ?? null).toBeNull(); // the direct path applies
          const direct = emitOps(msgs, m.p, rounds, variant, layout);
          // the same messages with element offsets (all 0) take the general path
          const general = directMessages(layout, m.p, s, g);
          const forced = { ...general, direct: { ...general.direct!, x0: new Float64Array(general.n) } };
          const want = emitOps(forced, m.p, rounds, variant, layout)!;
          expect(direct).not.toBeNull();
          expect(direct!.rankStart).toEqual(want.rankStart);
          expect(direct!.ops).toEqual(want.ops);
          expect(direct!.pieces).toEqual(want.pieces);
          expect(direct!.maxClasses).toBe(want.maxClasses);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("turns the scatter's records into the pieces' displacements and counts (one store of 16 bytes per operation)", () => {
    for (const form of ["full", "peers"] as const) {
      const m = offDiagonal(
        matrixFromData(
          6,
          Float64Array.from({ length: 36 }, (_, k) => 1 + (k % 5)),
        ),
      );
      const s = plan(m, "shift");
      const layout = bufferLayout(m, { form });
      const g = groupTransfers(s);
      const msgs = directMessagesUnchecked(layout, m.p, s, g)!;
      const e = emitOps(msgs, m.p, s.stepCount, "nonblocking", layout)!;
      const n = e.ops.rank.length;
      expect(n).toBe(60);
      expect(e.pieces.offset.buffer).toBe(e.pieces.count.buffer);
      expect(e.pieces.offset.buffer.byteLength).toBe(16 * n);
      expect([e.pieces.offset.byteOffset, e.pieces.count.byteOffset]).toEqual([0, 8 * n]);
      expect(Array.from(e.pieces.count)).toEqual(Array.from(e.ops.count));
    }
  });

  it("colours each round in its scatter as colourRounds does, past 32 colours a round (the blocking variant)", () => {
    // one step of every pair, in a seeded shuffled order: a rank takes part in 2 (P - 1) messages of the round, so
    // the greedy colouring needs colours >= 32 (colourRounds' map beyond the bit masks)
    const p = 40;
    const m = offDiagonal(
      matrixFromData(
        p,
        Float64Array.from({ length: p * p }, (_, k) => 1 + ((k * 7) % 5)),
      ),
    );
    const pairs: [number, number][] = [];
    for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) if (i !== j) pairs.push([i, j]);
    let seed = 12345;
    for (let x = pairs.length - 1; x > 0; x--) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const y = seed % (x + 1);
      [pairs[x], pairs[y]] = [pairs[y]!, pairs[x]!];
    }
    const header = { p, algorithm: "hand", params: {}, seed: null, elementBytes: m.elementBytes };
    const b = new ScheduleBuilder({ ...header, matrixDigest: matrixDigest(m) }, false);
    b.stage("all").step();
    for (const [i, j] of pairs) b.transfer(i, j, m.data[i * p + j]!);
    const s = b.build();
    for (const form of ["full", "peers"] as const) {
      const layout = bufferLayout(m, { form });
      const g = groupTransfers(s);
      const msgs = directMessagesUnchecked(layout, p, s, g)!;
      expect(msgs).not.toBeNull();
      const direct = emitOps(msgs, p, 1, "blocking", layout)!;
      const general = directMessages(layout, p, s, g);
      const forced = { ...general, direct: { ...general.direct!, x0: new Float64Array(general.n) } };
      const want = emitOps(forced, p, 1, "blocking", layout)!;
      expect(want.maxClasses).toBeGreaterThan(32);
      expect(direct.maxClasses).toBe(want.maxClasses);
      expect(direct.ops).toEqual(want.ops);
      expect(direct.pieces).toEqual(want.pieces);
    }
  });

  it("takes the matrix's total from the caller when given (a default layout's buffer sizes), else sums the counts", () => {
    const m = offDiagonal(
      matrixFromData(
        5,
        Float64Array.from({ length: 25 }, (_, k) => 2 + (k % 3)),
      ),
    );
    const s = plan(m, "coloring");
    const layout = bufferLayout(m);
    const g = groupTransfers(s);
    const total = layout.sendSize.reduce((a, b) => a + b, 0);
    expect(directMessagesUnchecked(layout, m.p, s, g, null)).not.toBeNull();
    expect(directMessagesUnchecked(layout, m.p, s, g, total)).not.toBeNull();
    // a total other than the messages' refuses the lean path: the given figure is what is compared
    expect(directMessagesUnchecked(layout, m.p, s, g, total + 1)).toBeNull();
  });
});
