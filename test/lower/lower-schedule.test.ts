// lowerSchedule: every planner's program delivers every element (reference interpreter), both variants; layout, scratch and refusals.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lowerSchedule, relayPeak, TAG_LIMIT } from "../../src/lower/index.js";
import { matrixFromData, matrixFromRows, type CommMatrix } from "../../src/model/matrix.js";
import { isCommplanError } from "../../src/model/errors.js";
import { PLANNERS, plan } from "../../src/planner/registry.js";
import { verifyProgram, verifySchedule } from "../../src/verifier/index.js";
import { ScheduleBuilder } from "../../src/model/schedule.js";
import { matrixDigest } from "../../src/model/matrix-digest.js";
import { matrixArb } from "../helpers/arbitraries.js";
import { runBlocking, runRounds } from "./program-interpreter.js";

const RELAY = new Set([
  "mpi-bruck",
  "two-stage",
  "mesh-two-stage",
  "hierarchical",
  "four-stage",
  "te-valiant",
  "te-simple",
  "te-fast",
  "te-balanced",
  "te-offline",
]);

/** Plans that a planner refuses (UNSUPPORTED shapes) are skipped by returning null. */
function tryPlan(m: CommMatrix, name: string, payload: boolean): ReturnType<typeof plan> | null {
  try {
    return plan(m, name, { payload });
  } catch (e) {
    if (isCommplanError(e) && (e.code === "UNSUPPORTED" || e.code === "BAD_OPTION")) return null;
    throw e;
  }
}

function elementsOf(m: CommMatrix): number {
  return m.data.reduce((a, b) => a + b, 0);
}

describe("lowerSchedule on every planner", () => {
  for (const planner of PLANNERS) {
    it(`${planner.name}: payload plans run and deliver (nonblocking and blocking)`, () => {
      fc.assert(
        fc.property(
          matrixArb({
            minP: 1,
            maxP: 9,
            kinds: ["dense", "sparse", "empty-rows", "zero", "permutation", "spike"],
          }).filter((m) => elementsOf(m) <= 3000),
          (m) => {
            const s = tryPlan(m, planner.name, true);
            if (s === null) return;
            const nb = lowerSchedule(m, s).program;
            expect(runRounds(m, nb)).toBe(elementsOf(m));
            const bl = lowerSchedule(m, s, { variant: "blocking" }).program;
            expect(runRounds(m, bl)).toBe(elementsOf(m));
            expect(runBlocking(m, bl).elements).toBe(elementsOf(m));
          },
        ),
        { numRuns: 25 },
      );
    });
    it(`${planner.name}: message-level plans lower when direct, else are refused`, () => {
      fc.assert(
        fc.property(
          matrixArb({ minP: 1, maxP: 9, kinds: ["dense", "sparse", "permutation", "spike"] }).filter(
            (m) => elementsOf(m) <= 3000,
          ),
          (m) => {
            const s = tryPlan(m, planner.name, false);
            if (s === null) return;
            let prog;
            try {
              prog = lowerSchedule(m, s, { variant: "blocking" }).program;
            } catch (e) {
              expect(RELAY.has(planner.name)).toBe(true);
              expect((e as Error).message).toMatch(
                new RegExp(`^lower: ${planner.name} relays elements: plan with the option payload`),
              );
              return;
            }
            expect(runRounds(m, prog)).toBe(elementsOf(m));
            expect(runBlocking(m, prog).elements).toBe(elementsOf(m));
          },
        ),
        { numRuns: 20 },
      );
    });
  }
  it("relay planners' message-level plans of a dense matrix are refused with one line", () => {
    const m = matrixFromRows(
      Array.from({ length: 9 }, (_, i) => Array.from({ length: 9 }, (_, j) => 1 + ((i * 3 + j) % 4))),
    );
    for (const name of ["two-stage", "mesh-two-stage", "four-stage", "te-valiant", "te-fast", "te-balanced"]) {
      const s = tryPlan(m, name, false);
      if (s === null) continue;
      expect(() => lowerSchedule(m, s)).toThrow(
        new RegExp(`^lower: ${name} relays elements: plan with the option payload`),
      );
    }
  });
});

describe("program structure", () => {
  const m = matrixFromRows([
    [3, 1, 0, 2],
    [0, 4, 5, 1],
    [2, 2, 0, 3],
    [1, 0, 6, 2],
  ]);
  it("direct plans: one piece per message side, self messages copied in round 0 before anything else", () => {
    const { program: prog } = lowerSchedule(m, plan(m, "linear-permutation"));
    const { ops, rankStart } = prog;
    for (let r = 0; r < 4; r++) {
      const first = rankStart[r]!;
      if (m.data[r * 4 + r]! > 0) {
        expect(ops.kind[first]).toBe(2);
        expect(ops.round[first]).toBe(0);
      }
    }
    for (let x = 0; x < ops.kind.length; x++)
      expect(ops.pieceStart[x + 1]! - ops.pieceStart[x]!).toBe(ops.kind[x] === 2 ? 2 : 1);
    expect(prog.layout.scratchSize.every((v) => v === 0)).toBe(true);
    expect(runRounds(m, prog)).toBe(elementsOf(m));
  });
  it("default displacements are prefix sums in peer order", () => {
    const { program: prog } = lowerSchedule(m, plan(m, "shift"));
    expect(Array.from(prog.layout.sendDispls.subarray(4, 8))).toEqual([0, 0, 4, 9]);
    expect(Array.from(prog.layout.recvDispls.subarray(8, 12))).toEqual([0, 0, 5, 5]);
    expect(Array.from(prog.layout.sendSize)).toEqual([6, 10, 7, 9]);
    expect(Array.from(prog.layout.recvSize)).toEqual([6, 7, 11, 8]);
  });
  it("user displacements (reversed blocks with gaps) are honoured and checked", () => {
    const p = 4;
    const sd = new Float64Array(p * p),
      rd = new Float64Array(p * p);
    const size = new Float64Array(p).fill(100);
    for (let r = 0; r < p; r++)
      for (let j = 0; j < p; j++) {
        sd[r * p + j] = 90 - 20 * j;
        rd[r * p + j] = 3 + 20 * (p - 1 - j);
      }
    const s = plan(m, "two-stage", { payload: true });
    const { program: prog } = lowerSchedule(m, s, { sendDispls: sd, recvDispls: rd, sendSize: size, recvSize: size });
    expect(runRounds(m, prog)).toBe(elementsOf(m));
    const bad = sd.slice();
    bad[1] = bad[0]! + 1; // rank 0: block of 1 overlaps the block of 0 (M[0][0] = 3)
    expect(() => lowerSchedule(m, s, { sendDispls: bad })).toThrow(
      /^lower: sendDispls of rank 0: the blocks of 0 and 1 overlap/,
    );
    expect(() => lowerSchedule(m, s, { sendDispls: sd, sendSize: new Float64Array(p).fill(50) })).toThrow(
      /^lower: sendDispls of rank 0 reach element 93, past its buffer of 50 elements/,
    );
  });
  it("a schedule for another matrix is refused", () => {
    const other = matrixFromRows([
      [0, 1],
      [1, 0],
    ]);
    expect(() => lowerSchedule(other, plan(m, "shift"))).toThrow(
      /^lower: the schedule is for P = 4, the matrix has P = 2/,
    );
  });
  it("tags stay below 32768, equal on both sides, one message per (src, dst) and round", () => {
    const p = 6;
    const big = matrixFromData(p, new Float64Array(p * p).fill(1));
    const { program: prog } = lowerSchedule(big, plan(big, "te-direct"));
    const seen = new Set<string>();
    for (let x = 0; x < prog.ops.kind.length; x++) {
      expect(prog.ops.tag[x]).toBeLessThan(TAG_LIMIT);
      if (prog.ops.kind[x] !== 0) continue;
      const key = `${prog.ops.round[x]}:${prog.ops.rank[x]}>${prog.ops.peer[x]}`;
      expect(seen.has(key)).toBe(false);
      seen.add(key);
    }
  });
});

describe("scratch", () => {
  it("relay plans: scratch at least the live peak, and the peak within the elements a node holds across a round", () => {
    fc.assert(
      fc.property(
        matrixArb({ minP: 2, maxP: 12, kinds: ["dense", "sparse", "spike"] }).filter((m) => elementsOf(m) <= 4000),
        fc.constantFrom("two-stage", "mesh-two-stage", "four-stage", "te-valiant"),
        (m, name) => {
          const s = tryPlan(m, name, true);
          if (s === null) return;
          const { program: prog, scratchPeak } = lowerSchedule(m, s);
          const report = verifySchedule(m, s);
          for (let r = 0; r < m.p; r++) {
            expect(prog.layout.scratchSize[r]).toBeGreaterThanOrEqual(scratchPeak[r]!);
            // Relayed elements live from the round they arrive to the round they leave, both included:
            // at most what the node holds at two consecutive step boundaries (the verifier's peak, twice).
            expect(scratchPeak[r]).toBeLessThanOrEqual(2 * report.peakBufferPerNode![r]!);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
  it("relayPeak, from the chunks alone, is lowering's scratch peak, or null where an element comes back to its origin", () => {
    const relaying = [...RELAY].filter((n) => PLANNERS.some((q) => q.name === n));
    fc.assert(
      fc.property(
        matrixArb({ minP: 1, maxP: 12, kinds: ["dense", "sparse", "spike", "empty-rows"] }).filter(
          (m) => elementsOf(m) <= 3000,
        ),
        fc.constantFrom(...relaying, "shift", "coloring"),
        (m, name) => {
          const s = tryPlan(m, name, true);
          if (s === null) return;
          const peak = relayPeak(s);
          const { scratchPeak } = lowerSchedule(m, s);
          let returns = false;
          const c = s.chunks!;
          for (let x = 0; x < s.transferCount; x++)
            for (let k = c.start[x]!; k < c.start[x + 1]!; k++)
              if (s.dst[x] === c.origin[k] && s.dst[x] !== c.dest[k]) returns = true;
          if (returns) expect(peak).toBeNull();
          else expect(Array.from(peak!)).toEqual(Array.from(scratchPeak));
        },
      ),
      { numRuns: 150 },
    );
    expect(relayPeak(plan(matrixFromData(2, new Float64Array([0, 1, 1, 0])), "shift"))).toBeNull(); // no chunks
  });
  it("two-stage on a uniform matrix: scratch equals the live peak", () => {
    const p = 8;
    const m = matrixFromData(p, new Float64Array(p * p).fill(3));
    const { program: prog, scratchPeak } = lowerSchedule(m, plan(m, "two-stage", { payload: true }));
    expect(Array.from(prog.layout.scratchSize)).toEqual(Array.from(scratchPeak));
    expect(runRounds(m, prog)).toBe(3 * p * p);
  });
  it("chunks of a message relayed in any element order: forward, reverse and interleaved walks of its ranges", () => {
    // 0 -> 2 carries 12 elements through relay 1, one chunk each, in `into` order; 1 forwards them in `out` order
    const orders: [string, number[]][] = [
      ["forward", [...Array(12).keys()]],
      ["reverse", [...Array(12).keys()].reverse()],
      ["interleaved", [11, 0, 10, 1, 9, 2, 8, 3, 7, 4, 6, 5]],
    ];
    const m = matrixFromRows([
      [0, 0, 12],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    for (const [inName, into] of orders)
      for (const [outName, out] of orders) {
        const b = new ScheduleBuilder(
          {
            p: 3,
            algorithm: "hand",
            params: {},
            seed: null,
            elementBytes: m.elementBytes,
            matrixDigest: matrixDigest(m),
          },
          true,
        );
        b.stage("relay").step();
        b.transfer(0, 1, 12);
        for (const a of into) b.chunk(0, 2, a, 1);
        b.step();
        // in two steps, so that the relay's departures split its holds
        b.transfer(1, 2, 5);
        for (const a of out.slice(0, 5)) b.chunk(0, 2, a, 1);
        b.step();
        b.transfer(1, 2, 7);
        for (const a of out.slice(5)) b.chunk(0, 2, a, 1);
        const s = b.build();
        expect(verifySchedule(m, s).ok, `${inName} / ${outName}`).toBe(true);
        for (const variant of ["nonblocking", "blocking"] as const) {
          const { program: prog, scratchPeak } = lowerSchedule(m, s, { variant });
          expect(runRounds(m, prog), `${inName} / ${outName} ${variant}`).toBe(12);
          expect(verifyProgram(m, prog).ok, `${inName} / ${outName} ${variant}`).toBe(true);
          expect(scratchPeak[1]).toBe(12);
          expect(prog.layout.scratchSize[1]).toBe(12);
        }
      }
  });
});

/** The pieces of operation x as [buffer, offset, count] triples. */
function piecesOf(prog: ReturnType<typeof lowerSchedule>["program"], x: number): number[][] {
  const out: number[][] = [];
  for (let q = prog.ops.pieceStart[x]!; q < prog.ops.pieceStart[x + 1]!; q++)
    out.push([prog.pieces.buffer[q]!, prog.pieces.offset[q]!, prog.pieces.count[q]!]);
  return out;
}

describe("elements that stay", () => {
  it("a copy d -> d of elements already in d's receive buffer copies only those that are not", () => {
    const m = matrixFromRows([
      [4, 1],
      [0, 0],
    ]);
    const b = new ScheduleBuilder(
      { p: 2, algorithm: "hand", params: {}, seed: null, elementBytes: m.elementBytes, matrixDigest: matrixDigest(m) },
      true,
    );
    b.stage("s").step();
    b.transfer(0, 0, 2);
    b.chunk(0, 0, 1, 2); // elements 1, 2 reach their place
    b.step();
    b.transfer(0, 0, 4);
    b.chunk(0, 0, 0, 4); // 0 and 3 move, 1 and 2 stay
    b.transfer(0, 1, 1);
    b.chunk(0, 1, 0, 1);
    b.step();
    b.transfer(0, 0, 2);
    b.chunk(0, 0, 1, 2); // nothing moves: no operation
    const s = b.build();
    expect(verifySchedule(m, s).ok).toBe(true);
    for (const variant of ["nonblocking", "blocking"] as const) {
      const { program: prog } = lowerSchedule(m, s, { variant });
      const copies = [...prog.ops.kind.keys()].filter((x) => prog.ops.kind[x] === 2);
      expect(copies.map((x) => [prog.ops.round[x], prog.ops.count[x]])).toEqual([
        [0, 2],
        [1, 2],
      ]);
      expect(piecesOf(prog, copies[1]!)).toEqual([
        [0, 0, 1],
        [0, 3, 1],
        [1, 0, 1],
        [1, 3, 1],
      ]);
      expect(verifyProgram(m, prog).ok).toBe(true);
      expect(runRounds(m, prog)).toBe(5);
    }
  });
  it("relay planners' programs never copy a range onto itself", () => {
    fc.assert(
      fc.property(
        matrixArb({ minP: 2, maxP: 12, kinds: ["dense", "sparse", "spike"] }).filter((m) => elementsOf(m) <= 4000),
        fc.constantFrom(...[...RELAY].filter((n) => PLANNERS.some((q) => q.name === n))),
        (m, name) => {
          const s = tryPlan(m, name, true);
          if (s === null) return;
          const { program: prog } = lowerSchedule(m, s);
          for (let x = 0; x < prog.ops.kind.length; x++) {
            if (prog.ops.kind[x] !== 2) continue;
            const all = piecesOf(prog, x),
              split = prog.ops.copySplit[x]!;
            expect(all.slice(split), `${name}: copy ${x}`).not.toEqual(all.slice(0, split));
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("blocking variant", () => {
  it("a shift step takes at most 3 sub-phases (P odd and even), not P", () => {
    for (const p of [7, 8, 33]) {
      const m = matrixFromData(p, new Float64Array(p * p).fill(2));
      const s = plan(m, "shift");
      const { program: prog, maxClasses } = lowerSchedule(m, s, { variant: "blocking" });
      expect(maxClasses).toBeLessThanOrEqual(3);
      const { waves } = runBlocking(m, prog);
      expect(waves).toBeLessThanOrEqual(3 * s.stepCount);
    }
  });
  it("the nonblocking order (receives first) deadlocks under rendezvous on a shift, the blocking order does not", () => {
    const p = 5;
    const m = matrixFromData(p, new Float64Array(p * p).fill(1));
    const s = plan(m, "shift");
    expect(() => runBlocking(m, lowerSchedule(m, s).program)).toThrow(/deadlock/);
    expect(runBlocking(m, lowerSchedule(m, s, { variant: "blocking" }).program).elements).toBe(p * p);
  });
});

describe("blocking variant with many messages per rank in a round", () => {
  it("colours past 32 classes (a rank in 40 messages of one round) and every operation is written", () => {
    // mpi-linear: one round in which each of 24 ranks sends 23 and receives 23 messages (degree 46 > 32 colours)
    const p = 24;
    const m = matrixFromRows(
      Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, j) => (i === j ? 0 : 1 + ((i + j) % 5)))),
    );
    const s = plan(m, "mpi-linear");
    const { program, maxClasses } = lowerSchedule(m, s, { variant: "blocking" });
    expect(maxClasses).toBeGreaterThan(32);
    for (let x = 0; x < program.ops.kind.length; x++) expect(program.ops.count[x]).toBeGreaterThan(0);
    expect(verifyProgram(m, program).ok).toBe(true);
    expect(runBlocking(m, program).elements).toBeGreaterThan(0);
  });
});

describe("a message-level plan with distinct pairs and the matrix's total", () => {
  // M = [[0, 2, 1], [0, 0, 0], [0, 0, 0]]: the counts of 0 -> 1 and 0 -> 2 swapped keep the pairs distinct and
  // the total 3, so only the per-message comparison (made where the lean path reads rank 0's row) finds them
  const m = matrixFromRows([
    [0, 2, 1],
    [0, 0, 0],
    [0, 0, 0],
  ]);
  const planOf = (sizes: readonly [number, number]) => {
    const b = new ScheduleBuilder(
      { p: 3, algorithm: "hand", params: {}, seed: null, elementBytes: m.elementBytes, matrixDigest: matrixDigest(m) },
      false,
    );
    b.stage("s").step();
    b.transfer(0, 1, sizes[0]);
    b.step();
    b.transfer(0, 2, sizes[1]);
    return b.build();
  };
  it("is refused when a message carries other than its pair's count, as by the general path", () => {
    for (const variant of ["nonblocking", "blocking", "dataflow"] as const)
      expect(() => lowerSchedule(m, planOf([1, 2]), { variant })).toThrow(
        /^lower: hand relays elements: plan with the option payload \(its transfers 0 -> 1 carry 1 elements, M\[0\]\[1\] = 2\)$/,
      );
  });
  it("is lowered when every message carries its pair's count", () => {
    for (const variant of ["nonblocking", "blocking"] as const) {
      const { program: prog } = lowerSchedule(m, planOf([2, 1]), { variant });
      expect([...prog.ops.kind]).toEqual([0, 0, 1, 1]);
      expect([...prog.pieces.offset]).toEqual([0, 2, 0, 0]);
      expect(verifyProgram(m, prog).ok).toBe(true);
      expect(runRounds(m, prog)).toBe(3);
    }
  });
});

describe("a message-level plan whose messages share a pair", () => {
  /** A plan of M whose steps hold the given transfers [src, dst, size], one step each. */
  const planOf = (m: CommMatrix, steps: readonly (readonly [number, number, number])[]) => {
    const b = new ScheduleBuilder(
      {
        p: m.p,
        algorithm: "hand",
        params: {},
        seed: null,
        elementBytes: m.elementBytes,
        matrixDigest: matrixDigest(m),
      },
      false,
    );
    b.stage("s");
    for (const [a, c, z] of steps) {
      b.step();
      b.transfer(a, c, z);
    }
    return b.build();
  };
  it("is refused when its pair gets twice its count, though each message carries it and the total is the matrix's", () => {
    // M = [[0, 1, 1], [0, 0, 0], [0, 0, 0]]: 0 -> 1 twice, 0 -> 2 never (the emitter finds the repeated pair)
    const m = matrixFromRows([
      [0, 1, 1],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    for (const form of ["full", "peers"] as const)
      for (const variant of ["nonblocking", "blocking", "dataflow"] as const)
        expect(() =>
          lowerSchedule(
            m,
            planOf(m, [
              [0, 1, 1],
              [0, 1, 1],
            ]),
            { variant, form },
          ),
        ).toThrow(/^lower: hand relays elements: plan with the option payload \(its transfers 0 -> 1 carry 2 elements/);
  });
});

describe("a schedule whose transfers are not well formed", () => {
  // groupTransfers checks the transfers of a plan without chunks in its own pass over them (lowerSchedule makes no
  // pass of its own): a node sending twice in a step ends that pass early, and the merging loop checks the rest
  const m = matrixFromRows([
    [0, 1, 2, 3],
    [1, 0, 1, 1],
    [2, 2, 0, 1],
    [1, 1, 1, 0],
  ]);
  const s = plan(m, "shift");
  interface Cols {
    src: Uint32Array;
    dst: Uint32Array;
    size: Float64Array;
  }
  /** The shift plan with its columns copied, changed by `edits` in turn. */
  const broken = (...edits: ((c: Cols) => void)[]) => {
    const c = { src: s.src.slice(), dst: s.dst.slice(), size: s.size.slice() };
    for (const edit of edits) edit(c);
    return { ...s, ...c };
  };
  const last = s.transferCount - 1;
  const bad: readonly (readonly [(c: Cols) => void, string])[] = [
    [(c) => (c.dst[last] = 9), `transfer ${last}: node 9 is not in 0..3`],
    [(c) => (c.size[last] = 0), `transfer ${last}: size 0 is not a positive integer`],
    [(c) => (c.size[1] = 1.5), "transfer 1: size 1.5 is not a positive integer"],
  ];
  it("is refused with checkSchedule's line, found in the pass over its transfers", () => {
    for (const [edit, what] of bad)
      for (const variant of ["nonblocking", "blocking"] as const)
        expect(() => lowerSchedule(m, broken(edit), { variant })).toThrow(
          `lower: the schedule is not well formed: ${what}`,
        );
  });
  it("is refused when the bad transfer comes after a node that sends twice in a step (the merging loop)", () => {
    // step 0's first two transfers from one node: groupTransfers merges instead of taking every transfer as a message
    expect(s.stepStart[1]).toBeGreaterThan(1);
    const twice = (c: Cols) => (c.src[1] = c.src[0]!);
    // well formed, but a transfer from src[0] to dst[1] relays: refused for that and nothing else
    expect(() => lowerSchedule(m, broken(twice))).toThrow(/^lower: shift relays elements/);
    for (const [edit, what] of bad.slice(0, 2))
      expect(() => lowerSchedule(m, broken(twice, edit))).toThrow(`lower: the schedule is not well formed: ${what}`);
  });
});
