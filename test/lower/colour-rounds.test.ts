// colourRounds (the blocking variant's greedy edge colouring of each round) against a plain reference: per round,
// each message (copies skipped) takes the smallest colour neither of its ranks has taken in that round, past 32 too.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { colourRounds } from "../../src/lower/emit.js";
import type { Messages } from "../../src/lower/messages.js";

/** The reference colouring: a set of taken colours per rank, made anew each round. */
function reference(p: number, rounds: readonly (readonly [number, number])[][]): number[] {
  const out: number[] = [];
  for (const round of rounds) {
    const taken = Array.from({ length: p }, () => new Set<number>());
    for (const [a, b] of round) {
      if (a === b) {
        out.push(0);
        continue;
      }
      let c = 0;
      while (taken[a]!.has(c) || taken[b]!.has(c)) c++;
      taken[a]!.add(c);
      taken[b]!.add(c);
      out.push(c);
    }
  }
  return out;
}

/** Messages of the rounds in round order, with their round starts. */
function messagesOf(rounds: readonly (readonly [number, number])[][]): { msgs: Messages; start: Uint32Array } {
  const all = rounds.flat();
  const n = all.length;
  const start = new Uint32Array(rounds.length + 1);
  rounds.forEach((r, t) => (start[t + 1] = start[t]! + r.length));
  const msgs: Messages = {
    n,
    round: Uint32Array.from(rounds.flatMap((r, t) => r.map(() => t))),
    src: Uint32Array.from(all.map(([a]) => a)),
    dst: Uint32Array.from(all.map(([, b]) => b)),
    count: new Float64Array(n).fill(1),
    direct: null,
    send: null,
    recv: null,
  };
  return { msgs, start };
}

describe("colourRounds", () => {
  it("colours every round as the plain greedy colouring does, past 32 colours too", () => {
    const arb = fc.integer({ min: 1, max: 8 }).chain((p) =>
      fc.tuple(
        fc.constant(p),
        fc.array(fc.array(fc.tuple(fc.nat(p - 1), fc.nat(p - 1)), { maxLength: 160, size: "max" }), {
          minLength: 1,
          maxLength: 4,
        }),
      ),
    );
    let past32 = 0;
    fc.assert(
      fc.property(arb, ([p, rounds]) => {
        const { msgs, start } = messagesOf(rounds);
        const got = colourRounds(msgs, p, null, start);
        const want = reference(p, rounds);
        // copies keep colour 0 (their entry is never written)
        expect([...got]).toEqual(want);
        if (want.some((c) => c >= 32)) past32++;
      }),
      { numRuns: 300 },
    );
    expect(past32).toBeGreaterThan(0);
  });
});
