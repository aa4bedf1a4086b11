// Dataflow program checks: mutants of valid lowered dataflow programs (a dependency dropped, a cycle added, a
// dependency on a later operation, a tag reused without an order) are caught by the check named for each, with a
// one-line witness naming the rank and the operation.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lowerSchedule } from "../../../src/lower/index.js";
import type { CommMatrix } from "../../../src/model/matrix.js";
import type { AfterTable, Program } from "../../../src/model/program.js";
import { generatePattern } from "../../../src/patterns/registry.js";
import { plan } from "../../../src/planner/registry.js";
import { verifyProgram } from "../../../src/verifier/index.js";
import { matrixArb } from "../../helpers/arbitraries.js";

/** The program with operation x's dependencies replaced by `deps` (program-wide indices). */
function withAfter(prog: Program, x: number, deps: readonly number[]): Program {
  const { start, op } = prog.after!;
  const list: number[][] = [];
  for (let y = 0; y < prog.ops.kind.length; y++)
    list.push(y === x ? [...deps] : Array.from(op.subarray(start[y]!, start[y + 1]!)));
  return { ...prog, after: tableOf(list) };
}

function tableOf(list: readonly (readonly number[])[]): AfterTable {
  const start = new Uint32Array(list.length + 1);
  list.forEach((l, x) => (start[x + 1] = start[x]! + l.length));
  return { start, op: Uint32Array.from(list.flat()) };
}

function failed(m: CommMatrix, prog: Program): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of verifyProgram(m, prog).checks) if (c.holds === false) out.set(c.id, c.witness ?? "");
  return out;
}

const relayMatrix = matrixArb({ minP: 4, maxP: 9, kinds: ["dense", "spike"] }).filter(
  (m) => m.data.reduce((a, b) => a + b, 0) <= 3000,
);

describe("dataflow program checks", () => {
  it("dropping a dependency of a relay's send: program-dependencies fails, naming the rank and both operations", () => {
    let mutants = 0;
    fc.assert(
      fc.property(relayMatrix, fc.nat(), fc.constantFrom("two-stage", "four-stage", "te-valiant"), (m, pick, name) => {
        const prog = lowerSchedule(m, plan(m, name, { payload: true }), { variant: "dataflow" }).program;
        expect(failed(m, prog)).toEqual(new Map());
        const { start } = prog.after!;
        const waiting: number[] = [];
        for (let x = 0; x < prog.ops.kind.length; x++) if (start[x + 1]! > start[x]!) waiting.push(x);
        if (waiting.length === 0) return;
        const x = waiting[pick % waiting.length]!;
        const kept = Array.from(prog.after!.op.subarray(start[x]!, start[x + 1]!));
        const dropped = kept.splice(pick % kept.length, 1)[0]!;
        const bad = failed(m, withAfter(prog, x, kept));
        expect(bad.has("program-dependencies"), `${name}: op ${x} without ${dropped}`).toBe(true);
        expect(bad.get("program-dependencies")).toMatch(
          /^rank \d+, round \d+: (send to \d+|recv from \d+|copy) .*operation \d+ of rank \d+ (reads|overwrites) (recv|scratch)\[\d+\] without waiting for rank \d+, round \d+: .*operation \d+ of rank \d+$/,
        );
        expect(bad.get("program-dependencies")).not.toMatch(/\n/);
        mutants++;
      }),
      { numRuns: 25, seed: 4 },
    );
    expect(mutants).toBeGreaterThan(10);
  });

  it("a cycle: every send of a shift waiting for its rank's receive of the same round deadlocks (program-deadlock)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 9 }), fc.integer({ min: 1, max: 5 }), (p, seed) => {
        const m = generatePattern("uniform", p, {}, seed);
        const prog = lowerSchedule(m, plan(m, "shift"), { variant: "dataflow" }).program;
        expect(prog.after!.op.length).toBe(0);
        const { ops } = prog;
        const list: number[][] = [];
        for (let x = 0; x < ops.kind.length; x++) {
          const deps: number[] = [];
          if (ops.kind[x] === 0)
            for (let y = prog.rankStart[ops.rank[x]!]!; y < x; y++)
              if (ops.kind[y] === 1 && ops.round[y] === ops.round[x]) deps.push(y);
          list.push(deps);
        }
        const bad = failed(m, { ...prog, after: tableOf(list) });
        expect([...bad.keys()]).toContain("program-deadlock");
        expect(bad.get("program-deadlock")).toMatch(
          /^operations wait for each other in a cycle: rank \d+, round \d+: /,
        );
        // the same dependencies across rounds (each send after the previous round's receive) are fine
        const shifted = list.map((_, x) => {
          if (ops.kind[x] !== 0) return [];
          const deps: number[] = [];
          for (let y = prog.rankStart[ops.rank[x]!]!; y < x; y++)
            if (ops.kind[y] === 1 && ops.round[y]! < ops.round[x]!) deps.push(y);
          return deps;
        });
        expect(failed(m, { ...prog, after: tableOf(shifted) })).toEqual(new Map());
      }),
      { numRuns: 12, seed: 1 },
    );
  });

  it("well-formed: a dependency on a later operation or another rank's, dependencies on a nonblocking program, none on a dataflow one", () => {
    const m = generatePattern("uniform", 4, {}, 1);
    const prog = lowerSchedule(m, plan(m, "two-stage", { payload: true }), { variant: "dataflow" }).program;
    const wf = (q: Program): string | undefined => failed(m, q).get("program-well-formed");
    const later = withAfter(prog, 1, [2]);
    expect(wf(later)).toMatch(
      /^rank 0, round \d+: .*operation 1 of rank 0 waits for operation 2, which is not an earlier operation of rank 0$/,
    );
    const other = withAfter(prog, prog.rankStart[1]! + 1, [0]);
    expect(wf(other)).toMatch(
      /operation 1 of rank 1 waits for operation 0, which is not an earlier operation of rank 1$/,
    );
    const nb = lowerSchedule(m, plan(m, "two-stage", { payload: true })).program;
    expect(wf({ ...nb, after: prog.after! })).toBe(
      "a nonblocking program carries dependencies (after): only dataflow does",
    );
    const { after: _, ...bare } = prog;
    expect(wf(bare)).toBe("a dataflow program needs its dependencies (after)");
  });

  it("two sends to one peer with one tag, neither waiting for the other: program-dependencies fails (MPI could match them either way)", () => {
    const m = generatePattern("uniform", 6, {}, 2);
    const prog = lowerSchedule(m, plan(m, "two-stage", { payload: true }), { variant: "dataflow" }).program;
    const { ops } = prog;
    // two sends of rank r to the same peer in different rounds, from the send buffer (no dependencies)
    let pair: [number, number] | null = null;
    for (let x = 0; x < ops.kind.length && pair === null; x++)
      for (let y = x + 1; y < prog.rankStart[ops.rank[x]! + 1]! && pair === null; y++)
        if (
          ops.kind[x] === 0 &&
          ops.kind[y] === 0 &&
          ops.peer[x] === ops.peer[y] &&
          prog.after!.start[y + 1] === prog.after!.start[y]
        )
          pair = [x, y];
    expect(pair).not.toBeNull();
    const [x, y] = pair!;
    const tag = Uint32Array.from(ops.tag);
    // the second message (both sides) takes the first one's tag
    for (let z = 0; z < ops.kind.length; z++)
      if (
        ops.round[z] === ops.round[y] &&
        ops.tag[z] === ops.tag[y] &&
        (z === y || (ops.kind[z] === 1 && ops.rank[z] === ops.peer[y] && ops.peer[z] === ops.rank[y]))
      )
        tag[z] = ops.tag[x]!;
    const bad = failed(m, { ...prog, ops: { ...ops, tag } });
    expect(bad.get("program-dependencies")).toMatch(/have the same peer and tag but neither waits for the other/);
  });
});
