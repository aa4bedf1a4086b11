/** Program mutation test: every mutant of a valid lowered program is caught by the check named for it. */
import { describe, expect, it } from "vitest";
import type { CommMatrix } from "../../../src/model/matrix.js";
import type { ProgramVariant } from "../../../src/model/program.js";
import { plan } from "../../../src/planner/registry.js";
import { verifyProgram } from "../../../src/verifier/index.js";
import { buildMatrix } from "../../helpers/arbitraries.js";
import { lowerDirect, pack, unpack, type PlainOp, type PlainProgram } from "./program-fixture.js";

/** A mutation: changes the plain program in place, or returns false when it has nothing to mutate. */
type Mutation = (pl: PlainProgram, pick: number) => boolean;

/** The ops of kind `kind` (optionally filtered), with their rank and index. */
function opsOf(
  pl: PlainProgram,
  kind: PlainOp["kind"],
  keep: (o: PlainOp, r: number) => boolean = () => true,
): { r: number; i: number; o: PlainOp }[] {
  return pl.ops
    .flatMap((list, r) => list.map((o, i) => ({ r, i, o })))
    .filter(({ o, r }) => o.kind === kind && keep(o, r));
}

const MUTANTS: Record<string, { check: string; mutate: Mutation; blockingOnly?: boolean }> = {
  "an order that deadlocks (blocking: every rank sends before it receives in each round)": {
    check: "program-deadlock",
    blockingOnly: true,
    mutate: (pl) => {
      const first = { copy: 0, send: 1, recv: 2 } as const;
      for (const list of pl.ops) list.sort((a, b) => a.round - b.round || first[a.kind] - first[b.kind]);
      return pl.ops.some((list) => list.some((o) => o.kind === "send"));
    },
  },
  "wrong offset (a receive lands one element off)": {
    check: "program-delivery",
    mutate: (pl, pick) => {
      const cands = opsOf(pl, "recv");
      if (cands.length === 0) return false;
      const { r, o } = cands[pick % cands.length]!;
      const piece = o.pieces[0]!;
      piece[1] += piece[1] + piece[2] < pl.recvSize[r]! ? 1 : -1;
      return piece[1] >= 0;
    },
  },
  "missing receive": {
    check: "program-matching",
    mutate: (pl, pick) => {
      const cands = opsOf(pl, "recv");
      if (cands.length === 0) return false;
      const { r, i } = cands[pick % cands.length]!;
      pl.ops[r]!.splice(i, 1);
      return true;
    },
  },
  "tag mismatch": {
    check: "program-matching",
    mutate: (pl, pick) => {
      const cands = opsOf(pl, "send");
      if (cands.length === 0) return false;
      cands[pick % cands.length]!.o.tag += 1000;
      return true;
    },
  },
  "count mismatch (a send one element short)": {
    check: "program-matching",
    mutate: (pl, pick) => {
      const cands = opsOf(pl, "send", (o) => o.count! >= 2);
      if (cands.length === 0) return false;
      const { o } = cands[pick % cands.length]!;
      o.count! -= 1;
      o.pieces[0]![2] -= 1;
      return true;
    },
  },
  "piece outside its buffer": {
    check: "program-well-formed",
    mutate: (pl, pick) => {
      const cands = opsOf(pl, "send");
      if (cands.length === 0) return false;
      const { r, o } = cands[pick % cands.length]!;
      o.pieces[0]![1] = pl.sendSize[r]! - o.pieces[0]![2] + 1;
      return true;
    },
  },
  "dropped copy of the self message": {
    check: "program-delivery",
    mutate: (pl, pick) => {
      const cands = opsOf(pl, "copy");
      if (cands.length === 0) return false;
      const { r, i } = cands[pick % cands.length]!;
      pl.ops[r]!.splice(i, 1);
      return true;
    },
  },
};

const PLANNERS = ["linear-permutation", "shift", "rs-n", "coloring"] as const;
const VARIANTS: readonly ProgramVariant[] = ["nonblocking", "blocking"];
/** Dense matrices (every entry 1..7, the diagonal included) of a few sizes. */
const MATRICES: readonly CommMatrix[] = [3, 5, 8].map((p, k) =>
  buildMatrix({ p, kind: "dense", seed: 11 + k, maxEntry: 7 }),
);

describe("program mutation test", () => {
  for (const [name, { check, mutate, blockingOnly }] of Object.entries(MUTANTS)) {
    it(`${name}: caught by ${check}`, () => {
      let mutants = 0;
      for (const m of MATRICES) {
        for (const algorithm of PLANNERS) {
          for (const variant of blockingOnly ? (["blocking"] as const) : VARIANTS) {
            const valid = lowerDirect(m, plan(m, algorithm), variant);
            expect(verifyProgram(m, valid).ok).toBe(true);
            for (const pick of [0, 7, 23]) {
              const pl = unpack(valid);
              if (!mutate(pl, pick)) continue;
              mutants++;
              const report = verifyProgram(m, pack(m, pl, algorithm));
              const failed = report.checks.filter((c) => !c.holds);
              expect(
                failed.map((c) => c.id),
                `${name} on ${algorithm} ${variant} P=${m.p} pick ${pick}`,
              ).toContain(check);
              const row = failed.find((c) => c.id === check)!;
              expect(row.witness).toMatch(
                check === "program-deadlock"
                  ? /^ranks (\d+) -> (\d+ -> )*\1 wait for each other: rank \1, round \d+: send to/
                  : /rank \d+/,
              );
            }
          }
        }
      }
      expect(mutants).toBeGreaterThanOrEqual(3 * 4 * (blockingOnly ? 1 : 2) * 3);
    });
  }

  it("the matching witness names the first unmatched op: rank, round, kind, peer, tag, count", () => {
    const m = MATRICES[0]!;
    const pl = unpack(lowerDirect(m, plan(m, "shift"), "nonblocking"));
    const send = opsOf(pl, "send")[0]!.o;
    send.tag = 99;
    const row = verifyProgram(m, pack(m, pl)).checks.find((c) => c.id === "program-matching")!;
    expect(row.measured).toBe(2);
    expect(row.witness).toBe(
      `rank 0, round ${send.round}: send to ${send.peer} (tag 99, ${send.count} elements) has no matching receive`,
    );
  });

  it("a count mismatch names the op whose count differs", () => {
    const m = MATRICES[1]!;
    const pl = unpack(lowerDirect(m, plan(m, "linear-permutation"), "blocking"));
    const { o } = opsOf(pl, "send", (x) => x.count! >= 2)[0]!;
    o.count! -= 1;
    o.pieces[0]![2] -= 1;
    const row = verifyProgram(m, pack(m, pl)).checks.find((c) => c.id === "program-matching")!;
    expect(row.witness).toMatch(
      /has no matching (receive|send) \(rank \d+, round \d+: (recv from|send to) \d+ \(tag \d+, \d+ elements\) differs in count\)/,
    );
  });
});
