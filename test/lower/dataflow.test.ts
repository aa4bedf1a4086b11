// The dataflow variant: the nonblocking program's operations and pieces with dependencies that replace its round
// barriers; every planner's dataflow program passes the program checks (in both layout forms and through JSON, whole
// and split), direct plans have no dependencies, relays wait only for what they relay.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readProgramJson } from "../../src/io/program-json-read.js";
import { programToJsonText, writeProgramSplit } from "../../src/io/program-json-write.js";
import { dataflowAfter, lowerSchedule, scratchWithoutReuse } from "../../src/lower/index.js";
import { isCommplanError } from "../../src/model/errors.js";
import { toSparse, type CommMatrix } from "../../src/model/matrix.js";
import type { Program } from "../../src/model/program.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { PLANNERS, plan } from "../../src/planner/registry.js";
import { verifyProgram } from "../../src/verifier/program/index.js";
import { matrixArb } from "../helpers/arbitraries.js";
import { tempDir } from "../helpers/temp-dir.js";

const elementsOf = (m: CommMatrix): number => m.data.reduce((a, b) => a + b, 0);

function tryPlan(m: CommMatrix, name: string): ReturnType<typeof plan> | null {
  try {
    return plan(m, name, { payload: true });
  } catch (e) {
    if (isCommplanError(e) && (e.code === "UNSUPPORTED" || e.code === "BAD_OPTION")) return null;
    throw e;
  }
}

/** The operation and piece columns as plain arrays. */
function columns(prog: Program): number[][] {
  return [
    ...Object.values(prog.ops).map((c: ArrayLike<number>) => Array.from(c)),
    ...Object.values(prog.pieces).map((c: ArrayLike<number>) => Array.from(c)),
    Array.from(prog.rankStart),
  ];
}

const failing = (prog: Program, m: CommMatrix): string[] =>
  verifyProgram(m, prog)
    .checks.filter((c) => c.holds === false)
    .map((c) => `${c.id}: ${c.witness}`);

describe("dataflow programs", () => {
  for (const planner of PLANNERS) {
    it(`${planner.name}: the nonblocking operations and pieces, dependencies on earlier rounds of the rank, and the program checks pass in both layout forms`, () => {
      let lowered = 0;
      fc.assert(
        fc.property(
          matrixArb({ minP: 1, maxP: 9, kinds: ["dense", "sparse", "empty-rows", "permutation", "spike"] }).filter(
            (m) => elementsOf(m) <= 3000,
          ),
          (m) => {
            const s = tryPlan(m, planner.name);
            if (s === null) return;
            const nb = lowerSchedule(m, s, { variant: "nonblocking" }).program;
            const df = lowerSchedule(m, s, { variant: "dataflow" }).program;
            expect(df.variant).toBe("dataflow");
            expect(nb.after).toBeUndefined();
            expect(columns(df)).toEqual(columns(nb));
            expect(df.layout.scratchSize).toEqual(nb.layout.scratchSize);
            const { start, op } = df.after!;
            for (let x = 0; x < df.ops.kind.length; x++)
              for (let k = start[x]!; k < start[x + 1]!; k++) {
                expect(df.ops.rank[op[k]!]).toBe(df.ops.rank[x]);
                expect(df.ops.round[op[k]!]!).toBeLessThan(df.ops.round[x]!);
              }
            expect(failing(df, m)).toEqual([]);
            const peers = lowerSchedule(toSparse(m), s, { variant: "dataflow", form: "peers" }).program;
            expect(Array.from(peers.after!.op)).toEqual(Array.from(op));
            expect(failing(peers, toSparse(m))).toEqual([]);
            lowered++;
          },
        ),
        { numRuns: 12, seed: 11 },
      );
      expect(lowered).toBeGreaterThan(0);
    });
  }
});

describe("dataflow dependencies, JSON and scratch", () => {
  it("direct plans have no dependencies; a relay's send waits for the receives that brought what it sends", () => {
    const m = matrixArb({ minP: 8, maxP: 8, kinds: ["dense"] }).filter((x) => elementsOf(x) > 0);
    fc.assert(
      fc.property(m, (mat) => {
        for (const name of ["shift", "coloring", "linear-permutation"]) {
          const s = tryPlan(mat, name)!;
          expect(lowerSchedule(mat, s, { variant: "dataflow" }).program.after!.op.length, name).toBe(0);
        }
        const prog = lowerSchedule(mat, tryPlan(mat, "two-stage")!, { variant: "dataflow" }).program;
        const { ops, pieces } = prog;
        const { start, op } = prog.after!;
        let relays = 0;
        for (let x = 0; x < ops.kind.length; x++) {
          if (ops.kind[x] !== 0) continue;
          let scratch = false;
          for (let q = ops.pieceStart[x]!; q < ops.pieceStart[x + 1]!; q++) if (pieces.buffer[q] === 2) scratch = true;
          const waits = Array.from(op.subarray(start[x]!, start[x + 1]!));
          // a send from the send buffer alone waits for nothing; one that relays waits for receives only
          if (!scratch) expect(waits).toEqual([]);
          else {
            relays++;
            expect(waits.length).toBeGreaterThan(0);
            for (const d of waits) expect(ops.kind[d]).toBe(1);
          }
        }
        expect(relays).toBeGreaterThan(0);
      }),
      { numRuns: 5, seed: 3 },
    );
  });

  it("reads back from JSON, whole and split, with the same dependencies; the nonblocking JSON has none", async () => {
    const m = fc.sample(matrixArb({ minP: 6, maxP: 6, kinds: ["dense"] }), { numRuns: 1, seed: 5 })[0]!;
    const prog = lowerSchedule(m, tryPlan(m, "four-stage")!, { variant: "dataflow" }).program;
    expect(prog.after!.op.length).toBeGreaterThan(0);
    const dir = tempDir("dataflow");
    try {
      const text = programToJsonText(prog);
      const whole = join(dir, "p.json");
      writeFileSync(whole, text);
      const back = readProgramJson(whole).program;
      expect(Array.from(back.after!.start)).toEqual(Array.from(prog.after!.start));
      expect(Array.from(back.after!.op)).toEqual(Array.from(prog.after!.op));
      expect(programToJsonText(back)).toBe(text);
      await writeProgramSplit(prog, join(dir, "split"));
      const split = readProgramJson(join(dir, "split", "index.json")).program;
      expect(Array.from(split.after!.op)).toEqual(Array.from(prog.after!.op));
      expect(failing(split, m)).toEqual([]);
      const nb = lowerSchedule(m, tryPlan(m, "four-stage")!).program;
      expect(programToJsonText(prog)).toMatch(/\]\],\[[\d,]*\]\]$/m);
      expect(programToJsonText(nb)).not.toMatch(/\]\],\[[\d,]*\]\]$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the reader refuses dependencies on a later operation, and dependencies in a nonblocking program, naming the place", () => {
    const m = fc.sample(matrixArb({ minP: 4, maxP: 4, kinds: ["dense"] }), { numRuns: 1, seed: 9 })[0]!;
    const prog = lowerSchedule(m, tryPlan(m, "two-stage")!, { variant: "dataflow" }).program;
    const dir = tempDir("dataflow");
    try {
      const text = programToJsonText(prog);
      const later = text.replace(/\n(\[0,"send",[^\n]*),\[\]\]/, (_, a: string) => `\n${a},[99]]`);
      expect(later).not.toBe(text);
      writeFileSync(join(dir, "later.json"), later);
      expect(() => readProgramJson(join(dir, "later.json"))).toThrow(
        /^program: .*later\.json: \/ranks\/\d+\/ops\/\d+\/6\/0 waits for operation 99, which is not an earlier one of rank \d+$/,
      );
      writeFileSync(join(dir, "nb.json"), text.replace('"variant":"dataflow"', '"variant":"nonblocking"'));
      expect(() => readProgramJson(join(dir, "nb.json"))).toThrow(
        /lists operations it waits for, which only a dataflow program does/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("scratch: a layout without reuse needs at least the reusing layout's; where the layout reuses a slot, a receive waits for a send", () => {
    const m = generatePattern("uniform", 16, {}, 1);
    const reuse = (name: string): { more: boolean; receivesWaitForSends: number } => {
      const prog = lowerSchedule(m, tryPlan(m, name)!, { variant: "dataflow" }).program;
      const own = scratchWithoutReuse(prog);
      let more = false;
      for (let r = 0; r < prog.p; r++) {
        expect(own[r]!).toBeGreaterThanOrEqual(prog.layout.scratchSize[r]!);
        if (own[r]! > prog.layout.scratchSize[r]!) more = true;
      }
      const { start, op } = prog.after!;
      let receivesWaitForSends = 0;
      for (let x = 0; x < prog.ops.kind.length; x++)
        if (prog.ops.kind[x] === 1)
          for (let k = start[x]!; k < start[x + 1]!; k++) if (prog.ops.kind[op[k]!] === 0) receivesWaitForSends++;
      expect(dataflowAfter(prog).op.length).toBe(op.length);
      return { more, receivesWaitForSends };
    };
    // two-stage holds every relayed element in its own slot; four-stage reuses slots (20 elements instead of 30)
    expect(reuse("two-stage")).toEqual({ more: false, receivesWaitForSends: 0 });
    const four = reuse("four-stage");
    expect(four.more).toBe(true);
    expect(four.receivesWaitForSends).toBeGreaterThan(0);
  });
});
