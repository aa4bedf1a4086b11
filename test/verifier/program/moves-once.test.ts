/** A program moves exactly the plan's messages, each once, and reads only slots something wrote: mutants of lowered programs. */
import { describe, expect, it } from "vitest";
import { lowerSchedule } from "../../../src/lower/index.js";
import { matrixFromRows, type CommMatrix } from "../../../src/model/matrix.js";
import type { ProgramVariant } from "../../../src/model/program.js";
import type { Report } from "../../../src/verifier/report.js";
import { plan } from "../../../src/planner/registry.js";
import { verifyProgram } from "../../../src/verifier/index.js";
import { pack, unpack, type PlainOp, type PlainProgram } from "./program-fixture.js";

const m = matrixFromRows([
  [2, 3, 1, 4],
  [1, 2, 5, 2],
  [3, 1, 2, 2],
  [2, 4, 1, 3],
]);

/** The plan of `algorithm` lowered to a plain program (payload plans relay through scratch). */
function lowered(algorithm: string, variant: ProgramVariant): PlainProgram {
  const s = plan(m, algorithm, { payload: true });
  return unpack(lowerSchedule(m, s, { variant }).program);
}

/** The failing rows of the report of a plain program. */
function failing(mat: CommMatrix, pl: PlainProgram): { ids: string[]; report: Report } {
  const report = verifyProgram(mat, pack(mat, pl));
  return { ids: report.checks.filter((c) => !c.holds).map((c) => c.id), report };
}

/** The witness of row `id`. */
const witness = (report: Report, id: string): string | null => report.checks.find((c) => c.id === id)!.witness;

/** The matching receive of send `o` of rank `r`: the first receive at its peer of the same round, source and tag. */
function partnerOf(pl: PlainProgram, r: number, o: PlainOp): { q: number; j: number } {
  const q = o.peer;
  const j = pl.ops[q]!.findIndex((z) => z.kind === "recv" && z.peer === r && z.round === o.round && z.tag === o.tag);
  expect(j).toBeGreaterThanOrEqual(0);
  return { q, j };
}

/** A deep copy of an op. */
const clone = (o: PlainOp): PlainOp => ({ ...o, pieces: o.pieces.map((pc) => [...pc] as [number, number, number]) });

describe("a program moves the plan's messages, each once", () => {
  it("the lowered programs hold every row", () => {
    for (const algorithm of ["shift", "two-stage", "four-stage"])
      for (const variant of ["nonblocking", "blocking"] as const)
        expect(failing(m, lowered(algorithm, variant)).ids, `${algorithm} ${variant}`).toEqual([]);
  });

  it("a send duplicated with its receive (blocking: delivery and matching still hold) fails program-once", () => {
    const pl = lowered("shift", "blocking");
    const r = 1;
    const i = pl.ops[r]!.findIndex((o) => o.kind === "send");
    const send = pl.ops[r]![i]!;
    const { q, j } = partnerOf(pl, r, send);
    pl.ops[r]!.splice(i + 1, 0, clone(send));
    pl.ops[q]!.splice(j + 1, 0, clone(pl.ops[q]![j]!));
    const { ids, report } = failing(m, pl);
    expect(ids).toEqual(["program-once"]);
    expect(witness(report, "program-once")).toMatch(
      new RegExp(
        `^rank ${r}, round ${send.round}: send to ${q} \\(.*\\), operation ${i + 1} of rank ${r} sends \\(${r}, ${q}, 0\\) \\(element 0 of the message\\), which rank ${r} has already sent on: it moves twice$`,
      ),
    );
  });

  for (const variant of ["nonblocking", "blocking"] as const)
    it(`a receive slot written twice (a self copy duplicated, ${variant}) fails program-once`, () => {
      const pl = lowered("shift", variant);
      const r = 2;
      const i = pl.ops[r]!.findIndex((o) => o.kind === "copy");
      expect(i).toBeGreaterThanOrEqual(0);
      const copy = pl.ops[r]![i]!;
      pl.ops[r]!.splice(i + 1, 0, clone(copy));
      const { ids, report } = failing(m, pl);
      expect(ids).toEqual(["program-once"]);
      const slot = copy.pieces[copy.split ?? copy.pieces.length / 2]![1];
      expect(witness(report, "program-once")).toBe(
        `rank ${r}, round ${copy.round}: copy (tag 0, 2 elements), operation ${i + 1} of rank ${r} writes (2, 2, 0) into recv[${slot}], which already holds (2, 2, 0), not sent on: a receive slot written twice`,
      );
    });

  it("a send of a slot nothing wrote (an extra message from fresh scratch; delivery holds) fails program-reads", () => {
    const pl = lowered("shift", "blocking");
    const a = 0,
      b = 3,
      last = pl.rounds - 1;
    const fresh = pl.scratchSize[a]!,
      into = pl.scratchSize[b]!;
    pl.scratchSize[a] = fresh + 1;
    pl.scratchSize[b] = into + 1;
    pl.ops[a]!.push({ round: last, kind: "send", peer: b, tag: 999, pieces: [[2, fresh, 1]] });
    pl.ops[b]!.push({ round: last, kind: "recv", peer: a, tag: 999, pieces: [[2, into, 1]] });
    const { ids, report } = failing(m, pl);
    expect(ids).toEqual(["program-reads"]);
    expect(witness(report, "program-reads")).toBe(
      `rank ${a}, round ${last}: send to ${b} (tag 999, 1 element), operation ${pl.ops[a]!.length - 1} of rank ${a} reads scratch[${fresh}], which holds no element: no earlier operation wrote one there`,
    );
  });

  it("a relay's send moved earlier than the receive that fills its scratch slot fails program-reads", () => {
    const pl = lowered("two-stage", "blocking");
    let found: { r: number; x: number; y: number; slot: number } | null = null;
    for (let r = 0; r < pl.ops.length && !found; r++) {
      const list = pl.ops[r]!;
      for (let x = 0; x < list.length && !found; x++) {
        const o = list[x]!;
        if (o.kind !== "send" || o.pieces[0]![0] !== 2) continue;
        const slot = o.pieces[0]![1];
        const y = list.findIndex(
          (z) =>
            z.kind === "recv" &&
            z.round < o.round &&
            z.pieces.some((pc) => pc[0] === 2 && pc[1] <= slot && slot < pc[1] + pc[2]),
        );
        if (y >= 0) found = { r, x, y, slot };
      }
    }
    expect(found).not.toBeNull();
    const { r, x, y, slot } = found!;
    const list = pl.ops[r]!;
    const send = list[x]!,
      { q, j } = partnerOf(pl, r, send);
    const recvAtQ = pl.ops[q]![j]!;
    const k1 = list[y]!.round;
    list.splice(x, 1);
    list.splice(y, 0, { ...send, round: k1 });
    pl.ops[q]!.splice(j, 1);
    const at = pl.ops[q]!.findIndex((z) => z.round >= k1);
    pl.ops[q]!.splice(at < 0 ? pl.ops[q]!.length : at, 0, { ...recvAtQ, round: k1 });
    const { ids, report } = failing(m, pl);
    expect(ids).toContain("program-reads");
    expect(witness(report, "program-reads")).toMatch(
      new RegExp(
        `^rank ${r}, round ${k1}: send to ${q} \\(.*\\), operation ${y} of rank ${r} reads scratch\\[${slot}\\], which holds no element`,
      ),
    );
  });
});
