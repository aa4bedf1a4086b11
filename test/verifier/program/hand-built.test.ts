/** Program checks on hand-built programs: relays through scratch, orders that deadlock under rendezvous, races within a nonblocking round. */
import { describe, expect, it } from "vitest";
import { CommplanError } from "../../../src/model/errors.js";
import { matrixFromData, matrixFromRows, type CommMatrix } from "../../../src/model/matrix.js";
import type { ProgramVariant } from "../../../src/model/program.js";
import { runRendezvous, matchOps } from "../../../src/verifier/program/index.js";
import { verifyProgram } from "../../../src/verifier/index.js";
import { defaultLayout, pack, type PlainOp } from "./program-fixture.js";

const row = (r: ReturnType<typeof verifyProgram>, id: string) => r.checks.find((c) => c.id === id)!;
const failing = (r: ReturnType<typeof verifyProgram>): string[] => r.checks.filter((c) => !c.holds).map((c) => c.id);
const send = (round: number, peer: number, pieces: [number, number, number][], tag = 0): PlainOp => ({
  round,
  kind: "send",
  peer,
  tag,
  pieces,
});
const recv = (round: number, peer: number, pieces: [number, number, number][], tag = 0): PlainOp => ({
  round,
  kind: "recv",
  peer,
  tag,
  pieces,
});

/** Rank 0 sends its two elements for rank 2 through rank 1's scratch buffer. */
const relayMatrix = matrixFromRows([
  [0, 0, 2],
  [0, 0, 0],
  [0, 0, 0],
]);
function relay(
  variant: ProgramVariant,
  scratchSize: number,
  rank1: PlainOp[],
  rounds: number,
  rank0?: PlainOp[],
  rank2?: PlainOp[],
) {
  const lay = defaultLayout(relayMatrix);
  return pack(relayMatrix, {
    variant,
    rounds,
    ...lay,
    scratchSize: [0, scratchSize, 0],
    ops: [rank0 ?? [send(0, 1, [[0, 0, 1]]), send(1, 1, [[0, 1, 1]])], rank1, rank2 ?? [recv(2, 1, [[1, 0, 2]])]],
  });
}

describe("relays through scratch", () => {
  it("a relay that keeps both elements in separate slots passes, nonblocking and blocking", () => {
    for (const variant of ["nonblocking", "blocking"] as const) {
      const prog = relay(variant, 2, [recv(0, 0, [[2, 0, 1]]), recv(1, 0, [[2, 1, 1]]), send(2, 2, [[2, 0, 2]])], 3);
      expect(failing(verifyProgram(relayMatrix, prog))).toEqual([]);
    }
  });

  it("scratch overlap: the second relayed element lands in the slot of the first before it is sent on", () => {
    for (const variant of ["nonblocking", "blocking"] as const) {
      const prog = relay(
        variant,
        1,
        [
          recv(0, 0, [[2, 0, 1]]),
          recv(1, 0, [[2, 0, 1]]),
          send(2, 2, [
            [2, 0, 1],
            [2, 0, 1],
          ]),
        ],
        3,
      );
      const report = verifyProgram(relayMatrix, prog);
      expect(failing(report)).toContain("program-scratch");
      expect(row(report, "program-scratch").witness).toBe(
        "rank 1, round 1: recv from 0 (tag 0, 1 element) writes (0, 2, 1) into scratch[0], which still holds (0, 2, 0), not yet sent on",
      );
      expect(failing(report)).toContain("program-delivery");
    }
  });

  it("a slot reused after its element has left is safe (a later round, or later in blocking program order)", () => {
    const ops0 = [send(0, 1, [[0, 0, 1]]), send(2, 1, [[0, 1, 1]])];
    const ops2 = [recv(1, 1, [[1, 0, 1]]), recv(3, 1, [[1, 1, 1]])];
    const later = [recv(0, 0, [[2, 0, 1]]), send(1, 2, [[2, 0, 1]]), recv(2, 0, [[2, 0, 1]]), send(3, 2, [[2, 0, 1]])];
    for (const variant of ["nonblocking", "blocking"] as const)
      expect(failing(verifyProgram(relayMatrix, relay(variant, 1, later, 4, ops0, ops2)))).toEqual([]);
    // Blocking: send the first element on, then receive the second into the same slot, in one round.
    const ops0b = [send(0, 1, [[0, 0, 1]]), send(1, 1, [[0, 1, 1]])];
    const ops2b = [recv(1, 1, [[1, 0, 1]]), recv(2, 1, [[1, 1, 1]])];
    const sameRound = [
      recv(0, 0, [[2, 0, 1]]),
      send(1, 2, [[2, 0, 1]]),
      recv(1, 0, [[2, 0, 1]]),
      send(2, 2, [[2, 0, 1]]),
    ];
    expect(failing(verifyProgram(relayMatrix, relay("blocking", 1, sameRound, 3, ops0b, ops2b)))).toEqual([]);
    // Nonblocking, the same round: the receive may land while the send still reads the slot.
    const report = verifyProgram(relayMatrix, relay("nonblocking", 1, sameRound, 3, ops0b, ops2b));
    expect(failing(report)).toEqual(expect.arrayContaining(["program-scratch", "program-races"]));
    expect(row(report, "program-races").witness).toBe(
      "rank 1, round 1: recv from 0 (tag 0, 1 element) touches scratch[0], which a send posted earlier in the same round reads",
    );
  });
});

/** A blocking ring: rank i sends to i + 1 and receives from i - 1, each rank sending first. */
function sendFirstRing(p: number, variant: ProgramVariant): { m: CommMatrix; prog: ReturnType<typeof pack> } {
  const rows = Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => (j === (i + 1) % p ? 1 : 0)));
  const m = matrixFromRows(rows);
  const ops = rows.map((_, i) => [send(0, (i + 1) % p, [[0, 0, 1]]), recv(0, (i + p - 1) % p, [[1, 0, 1]])]);
  return { m, prog: pack(m, { variant, rounds: 1, ...defaultLayout(m), ops }) };
}

describe("deadlock freedom under rendezvous", () => {
  it("two ranks that both send first to each other: the witness is the cycle 0 -> 1 -> 0", () => {
    const { m, prog } = sendFirstRing(2, "blocking");
    const report = verifyProgram(m, prog);
    expect(failing(report)).toEqual(["program-delivery", "program-deadlock"]);
    const dl = row(report, "program-deadlock");
    expect(dl.measured).toBe(2);
    expect(dl.witness).toBe(
      "ranks 0 -> 1 -> 0 wait for each other: rank 0, round 0: send to 1 (tag 0, 1 element); rank 1, round 0: send to 0 (tag 0, 1 element)",
    );
  });

  it("a 3-cycle of send-first ranks: the witness names 0 -> 1 -> 2 -> 0", () => {
    const { m, prog } = sendFirstRing(3, "blocking");
    const dl = row(verifyProgram(m, prog), "program-deadlock");
    expect(dl.holds).toBe(false);
    expect(dl.witness).toMatch(/^ranks 0 -> 1 -> 2 -> 0 wait for each other: /);
    expect(runRendezvous(prog, matchOps(prog).partner).cycle).toEqual([0, 1, 2, 0]);
  });

  it("the same rings pass nonblocking (all of a round posted at once), and blocking once one rank receives first", () => {
    for (const p of [2, 3, 7]) {
      const nb = sendFirstRing(p, "nonblocking");
      expect(failing(verifyProgram(nb.m, nb.prog))).toEqual([]);
      const { m, prog } = sendFirstRing(p, "blocking");
      const ops = [...Array(p).keys()].map((i) => [
        send(0, (i + 1) % p, [[0, 0, 1]]),
        recv(0, (i + p - 1) % p, [[1, 0, 1]]),
      ]);
      ops[p - 1]!.reverse();
      expect(failing(verifyProgram(m, pack(m, { variant: "blocking", rounds: 1, ...defaultLayout(m), ops })))).toEqual(
        [],
      );
      expect(prog.variant).toBe("blocking");
    }
  });

  it("a long blocking chain resolves: rank i receives from i - 1, then sends to i + 1 (rank 0 only sends)", () => {
    const p = 1000;
    const data = new Float64Array(p * p);
    data[p - 1] = 1; // 0 -> p - 1: one element, relayed along the chain through scratch
    const m = matrixFromData(p, data);
    const lay = { ...defaultLayout(m), scratchSize: new Array<number>(p).fill(1) };
    const ops: PlainOp[][] = [];
    for (let i = 0; i < p; i++) {
      if (i === 0) ops.push([send(0, 1, [[0, 0, 1]])]);
      else if (i === p - 1) ops.push([recv(0, i - 1, [[1, 0, 1]])]);
      else ops.push([recv(0, i - 1, [[2, 0, 1]]), send(0, i + 1, [[2, 0, 1]])]);
    }
    expect(failing(verifyProgram(m, pack(m, { variant: "blocking", rounds: 1, ...lay, ops })))).toEqual([]);
    // Sending before receiving on the middle ranks does not deadlock (the chain unwinds from its end) but forwards empty slots.
    for (let i = 1; i < p - 1; i++) ops[i]!.reverse();
    const report = verifyProgram(m, pack(m, { variant: "blocking", rounds: 1, ...lay, ops }));
    expect(failing(report)).toEqual(["program-delivery", "program-reads"]);
    expect(row(report, "program-delivery").witness).toBe(
      `rank ${p - 1} recv[0] holds nothing, expected (0, ${p - 1}, 0)`,
    );
    expect(row(report, "program-reads").witness).toMatch(
      /^rank \d+, round 0: send to \d+ .*, operation 0 of rank \d+ reads scratch\[0\], which holds no element/,
    );
  });

  it("a blocking send to itself waits for itself", () => {
    const m = matrixFromRows([[1]]);
    const prog = pack(m, {
      variant: "blocking",
      rounds: 1,
      ...defaultLayout(m),
      ops: [[send(0, 0, [[0, 0, 1]]), recv(0, 0, [[1, 0, 1]])]],
    });
    expect(row(verifyProgram(m, prog), "program-deadlock").witness).toMatch(/^ranks 0 -> 0 wait for each other/);
    expect(failing(verifyProgram(m, { ...prog, variant: "nonblocking" }))).toEqual([]);
  });
});

describe("verifyProgram input handling", () => {
  it("refuses a program for another matrix and buffers past maxElements", () => {
    const { m, prog } = sendFirstRing(3, "nonblocking");
    expect(() =>
      verifyProgram(
        matrixFromRows([
          [0, 2],
          [1, 0],
        ]),
        prog,
      ),
    ).toThrow(CommplanError);
    expect(() =>
      verifyProgram(
        matrixFromRows([
          [0, 1, 0],
          [0, 0, 1],
          [2, 0, 0],
        ]),
        prog,
      ),
    ).toThrow(/another matrix/);
    expect(() => verifyProgram(m, prog, { maxElements: 5 })).toThrow(/6 elements, more than maxElements = 5/);
    expect(verifyProgram(m, prog, { maxElements: 6 }).ok).toBe(true);
  });

  it("well-formed: overlapping displacements, a bad kind, a copy whose halves differ", () => {
    const m = matrixFromRows([
      [2, 1],
      [0, 3],
    ]);
    const lay = defaultLayout(m);
    const ops: PlainOp[][] = [
      [
        {
          round: 0,
          kind: "copy",
          peer: 0,
          tag: 0,
          pieces: [
            [0, 0, 2],
            [1, 0, 2],
          ],
          split: 1,
        },
        send(0, 1, [[0, 2, 1]]),
      ],
      [
        recv(0, 0, [[1, 0, 1]]),
        {
          round: 0,
          kind: "copy",
          peer: 1,
          tag: 0,
          pieces: [
            [0, 0, 3],
            [1, 1, 3],
          ],
          split: 1,
        },
      ],
    ];
    expect(verifyProgram(m, pack(m, { variant: "nonblocking", rounds: 1, ...lay, ops })).ok).toBe(true);
    const wf = (pl: Parameters<typeof pack>[1]) => row(verifyProgram(m, pack(m, pl)), "program-well-formed");
    expect(wf({ variant: "nonblocking", rounds: 1, ...lay, sendDispls: [0, 1, 0, 0], ops }).witness).toBe(
      "rank 0: send blocks of 0 and 1 overlap (at 0 and 1)",
    );
    const badCopy = ops.map((l) =>
      l.map((o) => ({ ...o, pieces: o.pieces.map((q) => [...q] as [number, number, number]) })),
    );
    badCopy[0]![0]!.pieces[1]![2] = 1;
    expect(wf({ variant: "nonblocking", rounds: 1, ...lay, ops: badCopy }).witness).toBe(
      "rank 0, round 0: copy (tag 0, 2 elements): source pieces carry 2, destination pieces 1 elements, the copy 2",
    );
    expect(wf({ variant: "nonblocking", rounds: 0, ...lay, ops }).witness).toBe(
      "rank 0, operation 0: round 0 is not in 0..-1",
    );
    const prog = pack(m, { variant: "nonblocking", rounds: 1, ...lay, ops });
    prog.ops.kind[1] = 3;
    expect(row(verifyProgram(m, prog), "program-well-formed").witness).toBe(
      "rank 0, operation 1: kind code 3 is not 0 (send), 1 (recv) or 2 (copy)",
    );
    expect(verifyProgram(m, prog).checks).toHaveLength(1);
  });
});
