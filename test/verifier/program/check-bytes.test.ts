/**
 * The program checks' memory estimate: slots, table bytes and the estimate follow the program and the matrix, and
 * verify-program refuses, before checking, a program whose estimate passes --max-memory (and checks it under a budget
 * that holds it).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lowerSchedule } from "../../../src/lower/index.js";
import { toSparse } from "../../../src/model/matrix.js";
import type { Program } from "../../../src/model/program.js";
import { generatePattern } from "../../../src/patterns/index.js";
import { plan } from "../../../src/planner/registry.js";
import { programCheckBytes, programSlots, programTableBytes } from "../../../src/verifier/program/index.js";
import {
  CHECK_BYTES_PER_ELEMENT,
  CHECK_BYTES_PER_ENTRY,
  CHECK_BYTES_PER_OP,
  CHECK_BYTES_PER_SLOT,
} from "../../../src/verifier/program/check-bytes.js";
import { run } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/temp-dir.js";

/** Every typed array of a program (its tables). */
function arrays(prog: Program): ArrayBufferView[] {
  const out: ArrayBufferView[] = [];
  const visit = (x: unknown): void => {
    if (ArrayBuffer.isView(x)) out.push(x);
    else if (x !== null && typeof x === "object") for (const v of Object.values(x)) visit(v);
  };
  visit([prog.layout, prog.rankStart, prog.ops, prog.pieces, prog.after]);
  return out;
}

describe("program check bytes", () => {
  it("slots, table bytes and the estimate follow the program and the matrix, dense or sparse", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 500 }),
        fc.constantFrom("shift", "coloring", "two-stage"),
        fc.boolean(),
        (p, seed, algorithm, sparse) => {
          const dense = generatePattern("uniform", p, {}, seed);
          const m = sparse ? toSparse(dense) : dense;
          const prog = lowerSchedule(m, plan(m, algorithm, { payload: algorithm === "two-stage", seed })).program;
          let slots = 0,
            elements = 0,
            entries = 0;
          for (let r = 0; r < p; r++)
            slots += prog.layout.sendSize[r]! + prog.layout.recvSize[r]! + prog.layout.scratchSize[r]!;
          for (let i = 0; i < p; i++)
            for (let j = 0; j < p; j++) {
              const v = dense.data[i * p + j]!;
              elements += v;
              if (v > 0) entries++;
            }
          expect(programSlots(prog)).toBe(slots);
          // the tables' stores, each counted once (the lowering's columns are their own stores)
          const stores = new Set(arrays(prog).map((a) => a.buffer));
          expect(programTableBytes(prog)).toBe([...stores].reduce((a, b) => a + b.byteLength, 0));
          expect(programTableBytes(prog)).toBeGreaterThanOrEqual(
            arrays(prog).reduce((a, b) => a + b.byteLength, 0) / 2,
          );
          expect(programCheckBytes(m, prog)).toBe(
            CHECK_BYTES_PER_OP * prog.ops.rank.length +
              CHECK_BYTES_PER_SLOT * slots +
              CHECK_BYTES_PER_ELEMENT * elements +
              CHECK_BYTES_PER_ENTRY * entries,
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a view keeps its whole store: a program whose columns are views counts the spare room too", () => {
    const m = generatePattern("uniform", 5, {}, 1);
    const prog = lowerSchedule(m, plan(m, "shift")).program;
    const spare = new Uint32Array(prog.ops.rank.length * 2);
    spare.set(prog.ops.rank);
    const viewed: Program = { ...prog, ops: { ...prog.ops, rank: spare.subarray(0, prog.ops.rank.length) } };
    expect(programTableBytes(viewed) - programTableBytes(prog)).toBe(4 * prog.ops.rank.length);
  });

  it("verify-program refuses a program whose checks pass the budget, in one line naming the estimate; checks it under one that holds it", async () => {
    const dir = tempDir("check-bytes");
    const f = (name: string): string => join(dir, name);
    // P = 40, 500 elements a message: a small program whose checks hold 780,000 elements in 1.56 million slots
    const rows = Array.from({ length: 40 }, (_, i) => Array.from({ length: 40 }, (_, j) => (i === j ? 0 : 500)));
    writeFileSync(f("m.json"), JSON.stringify({ format: "commplan.matrix/v1", p: 40, rows }));
    expect((await run("plan", f("m.json"), "-a", "shift", "-o", f("s.json"))).code).toBe(0);
    expect((await run("export", f("s.json"), "-f", "program", "--matrix", f("m.json"), "-o", f("p.json"))).code).toBe(
      0,
    );
    // the reader's refusals come first: the budget rises to each refusal's figure until the checks' own refusal
    let budget = 1,
      refusal: RegExpExecArray | null = null;
    for (let k = 0; k < 8 && refusal === null; k++) {
      const r = await run("verify-program", f("p.json"), "-m", f("m.json"), "--max-memory", `${budget}M`);
      expect(r.code, r.err).toBe(2);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      refusal = /checking 3120 operations on P = 40 needs about ([\d.]+) MiB, past the memory budget of/.exec(r.err);
      budget = Math.ceil(Number(/needs about ([\d.]+) MiB/.exec(r.err)![1]) * 1.02);
    }
    expect(refusal).not.toBeNull();
    const need = Number(refusal![1]) * 2 ** 20;
    expect(need).toBeGreaterThan(CHECK_BYTES_PER_SLOT * 1_560_000 + CHECK_BYTES_PER_ELEMENT * 780_000);
    const ok = await run("verify-program", f("p.json"), "-m", f("m.json"), "--max-memory", `${budget}M`);
    expect([ok.code, ok.out.split("\n")[0]]).toEqual([0, "shift, P = 40: all checks hold"]);
  });
});
