// Transfers without chunks or times are written by their own loop, straight into the writer's buffer: the same text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scheduleJsonPieces, scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { handSchedule } from "../helpers/schedule-edit.js";

/** Sizes around the places where the number of digits changes, the 32-bit limit, and past it (String's digits). */
const EDGE_SIZES = [1, 9, 10, 99, 100, 99999, 100000, 999999999, 1e9, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 7, 2 ** 53 - 1];

// node indices of one to six digits (past 9999 a number's digits come from two table entries)
const scheduleArb = fc
  .oneof(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 9990, max: 120000 }))
  .chain((p) =>
    fc.tuple(
      fc.constant(p),
      fc.array(
        fc.array(
          fc.tuple(
            fc.nat(p - 1),
            fc.nat(p - 1),
            fc.oneof(fc.constantFrom(...EDGE_SIZES), fc.integer({ min: 1, max: 2 ** 31 })),
          ),
          { maxLength: 6 },
        ),
        { maxLength: 5 },
      ),
    ),
  );

describe("schedule JSON of transfers without chunks or times", () => {
  it("writes each transfer as String writes its numbers, one per line, whatever the piece size", () => {
    fc.assert(
      fc.property(scheduleArb, fc.constantFrom(1, 40, 1 << 20), ([p, steps], pieceSize) => {
        const s = handSchedule(p, steps);
        const text = scheduleToJsonText(s);
        const rows = text
          .split("\n")
          .filter((l) => l.startsWith('{"src"'))
          .map((l) => l.replace(/,$/, ""));
        expect(rows).toEqual(steps.flat().map(([a, d, z]) => `{"src":${a},"dst":${d},"size":${String(z)}}`));
        expect(JSON.parse(text)).toMatchObject({ p, stages: [{ steps: steps.map(() => ({ stalls: [] })) }] });
        const pieces = [...scheduleJsonPieces(s, pieceSize)];
        expect(pieces.join("")).toBe(text);
        // a piece ends once it holds pieceSize characters, after the transfer that filled it
        for (const piece of pieces.slice(1, -1)) expect(piece.length).toBeGreaterThanOrEqual(pieceSize);
      }),
      { numRuns: 200 },
    );
  });
});
