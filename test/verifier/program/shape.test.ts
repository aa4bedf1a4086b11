/** program-well-formed refuses a hand-built program object whose tables are not the IR's typed arrays, by name, before any other check reads them. */
import { describe, expect, it } from "vitest";
import type { CommMatrix } from "../../../src/model/matrix.js";
import type { Program } from "../../../src/model/program.js";
import { lowerSchedule } from "../../../src/lower/index.js";
import { plan } from "../../../src/planner/index.js";
import { verifyProgram } from "../../../src/verifier/index.js";

const m: CommMatrix = {
  p: 4,
  elementBytes: 8,
  data: Float64Array.from({ length: 16 }, (_, k) => (k % 5 === 0 ? 0 : 2)),
};
const direct = lowerSchedule(m, plan(m, "shift", {})).program;
const relay = lowerSchedule(m, plan(m, "four-stage", { payload: true })).program;

/** The failing rows of the program's report, and the well-formed row's witness. */
function verdict(prog: object): { failing: string[]; witness: string | null } {
  const r = verifyProgram(m, prog as Program);
  const row = r.checks.find((c) => c.id === "program-well-formed")!;
  return { failing: r.checks.filter((c) => !c.holds).map((c) => c.id), witness: row.witness ?? null };
}

describe("the shape of a program object", () => {
  it("holds for lowered programs", () => {
    expect(verdict(direct).failing).toEqual([]);
    expect(verdict(relay).failing).toEqual([]);
  });

  const cases: [string, () => object, string][] = [
    // before: the checks after well-formedness looped forever on an undefined rank offset
    [
      "a plain array with a hole for rankStart",
      () => ({ ...direct, rankStart: Array.from(direct.rankStart, (v, r) => (r === 1 ? undefined : v)) }),
      "rankStart is not a Uint32Array",
    ],
    // before: a TypeError (an element of buffer 1.5 read a size of no buffer)
    [
      "a fractional buffer code in a plain array",
      () => ({ ...relay, pieces: { ...relay.pieces, buffer: Array.from(relay.pieces.buffer, (b) => b + 0.5) } }),
      "pieces.buffer is not a Uint8Array",
    ],
    [
      "counts as integers",
      () => ({ ...direct, ops: { ...direct.ops, count: Uint32Array.from(direct.ops.count) } }),
      "ops.count is not a Float64Array",
    ],
    [
      "a peer index of plain arrays",
      () => ({ ...direct, layout: { ...direct.layout, sendPeers: { start: [0], peer: [] } } }),
      "layout.sendPeers.start is not a Uint32Array",
    ],
    ["no piece table", () => ({ ...direct, pieces: null }), "pieces is not a piece table"],
  ];
  for (const [what, make, witness] of cases)
    it(`refuses ${what}`, () => {
      const v = verdict(make());
      expect(v.failing).toEqual(["program-well-formed"]);
      expect(v.witness).toBe(witness);
    });

  it("refuses a copy with a tag (copies carry tag 0)", () => {
    const x = relay.ops.kind.indexOf(2);
    expect(x).toBeGreaterThanOrEqual(0);
    const tag = relay.ops.tag.slice();
    tag[x] = 7;
    const v = verdict({ ...relay, ops: { ...relay.ops, tag } });
    expect(v.failing).toEqual(["program-well-formed"]);
    expect(v.witness).toMatch(/: a copy's tag must be 0$/);
  });
});
