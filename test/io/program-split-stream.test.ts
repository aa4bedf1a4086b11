/**
 * A split program is read one rank file at a time into the program's columns: it reads to the same program as the
 * whole document and verifies the same, and a fault in a rank file is reported as in the whole document, naming the
 * rank file and the field within it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readProgramJson } from "../../src/io/program-json-read.js";
import { programToJsonText, rankFileName, writeProgramSplit } from "../../src/io/program-json-write.js";
import { lowerSchedule } from "../../src/lower/index.js";
import type { LayoutForm, Program, ProgramVariant } from "../../src/model/program.js";
import { generatePattern } from "../../src/patterns/index.js";
import { plan } from "../../src/planner/registry.js";
import { verifyProgram } from "../../src/verifier/program/index.js";
import { tempDir } from "../helpers/temp-dir.js";

const tmp = (): string => tempDir("split-stream");

/** Every table of a program as plain arrays (views and copies compare alike). */
function tables(prog: Program): unknown {
  const plain = (x: unknown): unknown =>
    ArrayBuffer.isView(x)
      ? Array.from(x as Float64Array)
      : x !== null && typeof x === "object"
        ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)]))
        : x;
  return plain(prog);
}

/** The message a reading throws. */
function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("expected the reading to fail");
}

const CASES = fc.record({
  p: fc.integer({ min: 1, max: 10 }),
  seed: fc.integer({ min: 0, max: 1000 }),
  planner: fc.constantFrom(["shift", false], ["coloring", false], ["four-stage", true], ["two-stage", true]),
  variant: fc.constantFrom<ProgramVariant>("nonblocking", "blocking", "dataflow"),
  form: fc.constantFrom<LayoutForm>("full", "peers"),
});

function lowered(c: {
  p: number;
  seed: number;
  planner: readonly (string | boolean)[];
  variant: ProgramVariant;
  form: LayoutForm;
}) {
  const m = generatePattern("uniform", c.p, {}, c.seed);
  const s = plan(m, c.planner[0] as string, { payload: c.planner[1] as boolean, seed: c.seed });
  return { m, prog: lowerSchedule(m, s, { variant: c.variant, form: c.form }).program };
}

describe("split program streaming", () => {
  it("reads to the same program as the whole document and verifies the same, over random matrices and planners", async () => {
    await fc.assert(
      fc.asyncProperty(CASES, async (c) => {
        const { m, prog } = lowered(c);
        const d = tmp();
        writeFileSync(join(d, "whole.json"), programToJsonText(prog));
        await writeProgramSplit(prog, join(d, "split"));
        const whole = readProgramJson(join(d, "whole.json"));
        const split = readProgramJson(join(d, "split", "index.json"));
        expect(split.ranks).toEqual(whole.ranks);
        expect(tables(split.program)).toEqual(tables(whole.program));
        expect(tables(whole.program)).toEqual(tables(prog));
        const a = verifyProgram(m, whole.program),
          b = verifyProgram(m, split.program);
        expect(a.ok).toBe(true);
        expect(b).toEqual(a);
      }),
      { numRuns: 40 },
    );
  });

  it("a fault in rank r is reported in its rank file as in the whole document: same text, that file, /ranks/0", async () => {
    // each mutation of one rank's document, and whether the program has operations it needs
    const MUTATIONS: [string, (rd: { [k: string]: unknown }, p: number) => boolean][] = [
      ["rank past p", (rd, p) => ((rd["rank"] = p + 3), true)],
      ["send size", (rd) => ((rd["sendSize"] = 0), (rd["sendCounts"] as number[]).some((x) => x > 0))],
      [
        "peer past p",
        (rd, p) => {
          const op = (rd["ops"] as unknown[][]).find((o) => o[1] !== "copy");
          if (op !== undefined) op[2] = p + 7;
          return op !== undefined;
        },
      ],
      [
        "round past rounds",
        (rd) => {
          const ops = rd["ops"] as number[][];
          if (ops.length > 0) ops[ops.length - 1]![0] = 1e6;
          return ops.length > 0;
        },
      ],
      [
        "piece count",
        (rd) => {
          const op = (rd["ops"] as unknown[][])[0];
          if (op === undefined) return false;
          const pieces = op[op[1] === "copy" ? 3 : 5] as number[][];
          pieces[0]![2]! += 1;
          return true;
        },
      ],
    ];
    await fc.assert(
      fc.asyncProperty(CASES, fc.nat(), fc.nat(MUTATIONS.length - 1), async (c, pick, which) => {
        const { prog } = lowered(c);
        const r = pick % c.p;
        const [name, mutate] = MUTATIONS[which]!;
        const d = tmp();
        const whole = JSON.parse(programToJsonText(prog)) as { ranks: { [k: string]: unknown }[] };
        if (!mutate(whole.ranks[r]!, c.p)) return;
        writeFileSync(join(d, "whole.json"), JSON.stringify(whole));
        await writeProgramSplit(prog, join(d, "split"));
        const rankFile = join(d, "split", rankFileName(r));
        const part = JSON.parse(readFileSync(rankFile, "utf8")) as { ranks: { [k: string]: unknown }[] };
        mutate(part.ranks[0]!, c.p);
        writeFileSync(rankFile, JSON.stringify(part));
        const a = errorOf(() => readProgramJson(join(d, "whole.json")));
        const b = errorOf(() => readProgramJson(join(d, "split", "index.json")));
        expect(a, name).toMatch(new RegExp(`^program: .*whole\\.json: /ranks/${r}/`));
        expect(b, name).toBe(a.replace(join(d, "whole.json"), rankFile).replace(`/ranks/${r}/`, "/ranks/0/"));
      }),
      { numRuns: 60 },
    );
  });
});
