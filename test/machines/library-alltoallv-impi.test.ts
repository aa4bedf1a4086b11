/**
 * SMPI's `impi` MPI_Alltoallv mirror (init_smp's collectives, then the basic linear algorithm) at small P, and
 * sequenceOps, which runs one library call after another.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { impiAlltoallvOps } from "../../src/machines/program-replay/library-alltoallv-impi.js";
import { linearAlltoallvOps } from "../../src/machines/program-replay/library-alltoallv.js";
import { blocksAlltoallvOps } from "../../src/machines/program-replay/library-alltoallv-blocks.js";
import { replayLibraryAlltoallvAs } from "../../src/machines/program-replay/library-alltoallv-registry.js";
import { roundsAlltoallvOps } from "../../src/machines/program-replay/library-alltoallv-rounds.js";
import { TAG_ALLTOALLV, TAG_INIT_SMP } from "../../src/machines/program-replay/library-ops-builder.js";
import { sequenceOps } from "../../src/machines/program-replay/library-ops-sequence.js";
import { R_COPY, R_RECV, R_SEND, type ReplayOps } from "../../src/machines/program-replay/replay-ops.js";
import { findMachine } from "../../src/machines/presets.js";
import { findRuntimeModel, withRuntime } from "../../src/machines/runtime/runtime-model.js";
import { CommplanError } from "../../src/model/errors.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";

/** Rank r's operations as [kind, peer, bytes, tag, blocking] rows. */
function rows(ops: ReplayOps, r: number, from = ops.rankStart[r]!, to = ops.rankStart[r + 1]!): number[][] {
  const out: number[][] = [];
  for (let x = from; x < to; x++) out.push([ops.kind[x]!, ops.peer[x]!, ops.bytes[x]!, ops.tag[x]!, ops.blocking[x]!]);
  return out;
}

/** The number of rank r's operations tagged `tag`. */
function tagged(ops: ReplayOps, r: number, tag: number): number {
  let n = 0;
  for (let x = ops.rankStart[r]!; x < ops.rankStart[r + 1]!; x++) if (ops.tag[x] === tag) n++;
  return n;
}

describe("impi alltoallv mirror", () => {
  it("runs init_smp's 4-byte messages at P = 4, 5 and 8: 2 (P^2 - 1) sends, then the linear alltoallv", () => {
    for (const p of [4, 5, 8]) {
      const m = buildMatrix({ p, kind: "dense", seed: p, maxEntry: 9 });
      const ops = impiAlltoallvOps(m);
      const linear = linearAlltoallvOps(m);
      let sends = 0;
      for (let r = 0; r < p; r++) {
        const init = tagged(ops, r, TAG_INIT_SMP);
        // two ring allgathers (a copy and P - 1 sendrecvs each), the reduce to 0, the binomial broadcast
        if (r !== 0) expect(init).toBe(2 * (1 + 2 * (p - 1)) + 1 + 1 + countBelow(r, p));
        else expect(init).toBe(2 * (1 + 2 * (p - 1)) + 1 + (p - 1) + Math.ceil(Math.log2(p)));
        const start = ops.rankStart[r]!;
        for (let x = start; x < start + init; x++) {
          expect(ops.tag[x]).toBe(TAG_INIT_SMP);
          expect(ops.kind[x] === R_COPY || ops.bytes[x] === 4).toBe(true);
          if (ops.kind[x] === R_SEND) sends++;
        }
        // the linear part, unchanged, after all of init_smp
        expect(rows(ops, r, start + init)).toEqual(rows(linear, r));
        for (let x = start + init; x < ops.rankStart[r + 1]!; x++) {
          expect(ops.tag[x]).toBe(TAG_ALLTOALLV);
          expect(ops.waitPrefix[x]).toBe(start + init);
        }
      }
      expect(sends).toBe(2 * (p * p - 1));
    }
  });

  it("runs the reduce and the binomial broadcast of rank 0 at P = 5 in SMPI's order", () => {
    const m = buildMatrix({ p: 5, kind: "dense", seed: 1, maxEntry: 3 });
    const ops = impiAlltoallvOps(m);
    const initRows = (r: number): number[][] =>
      rows(ops, r).filter((row) => row[3] === TAG_INIT_SMP && row[0] !== R_COPY);
    // rank 0: 8 ring sendrecvs (isend, irecv), the reduce's receives from 1 .. 4, blocking sends to 4, 2, 1
    const zero = initRows(0).slice(16);
    expect(zero).toEqual([
      [R_RECV, 1, 4, TAG_INIT_SMP, 0],
      [R_RECV, 2, 4, TAG_INIT_SMP, 0],
      [R_RECV, 3, 4, TAG_INIT_SMP, 0],
      [R_RECV, 4, 4, TAG_INIT_SMP, 0],
      [R_SEND, 4, 4, TAG_INIT_SMP, 1],
      [R_SEND, 2, 4, TAG_INIT_SMP, 1],
      [R_SEND, 1, 4, TAG_INIT_SMP, 1],
    ]);
    // the ring's first round: to r + 1, from r - 1
    expect(initRows(3).slice(0, 2)).toEqual([
      [R_SEND, 4, 4, TAG_INIT_SMP, 0],
      [R_RECV, 2, 4, TAG_INIT_SMP, 0],
    ]);
    expect(initRows(2).slice(16)).toEqual([
      [R_SEND, 0, 4, TAG_INIT_SMP, 0],
      [R_RECV, 0, 4, TAG_INIT_SMP, 1],
      [R_SEND, 3, 4, TAG_INIT_SMP, 1],
    ]);
    expect(initRows(3).slice(16)).toEqual([
      [R_SEND, 0, 4, TAG_INIT_SMP, 0],
      [R_RECV, 2, 4, TAG_INIT_SMP, 1],
    ]);
  });

  it("costs more than the basic linear algorithm it ends with, more with per-message overheads", () => {
    const machine = findMachine("ib-hdr-200");
    fc.assert(
      fc.property(matrixRecipe({ minP: 2, maxP: 16, kinds: ["dense", "sparse", "zero"] }), (recipe) => {
        const m = buildMatrix(recipe);
        const gap = (rt: string): number => {
          const runtime = withRuntime(findRuntimeModel(rt), { copies: false });
          const t = (name: string): number => replayLibraryAlltoallvAs(name, m, { machine, runtime }).makespanUs;
          return t("impi") - t("ompi_basic_linear");
        };
        const plain = gap("smpi");
        expect(plain).toBeGreaterThan(0);
        expect(gap("ib-hdr-200-mpi")).toBeGreaterThan(plain);
      }),
      { numRuns: 40 },
    );
  });
});

/** A non-root rank r's blocking sends in a binomial broadcast from 0: r + mask < P for each mask below r's low bit. */
function countBelow(r: number, p: number): number {
  let n = 0;
  for (let mask = (r & -r) >> 1; mask > 0; mask >>= 1) if (r + mask < p) n++;
  return n;
}

describe("sequenceOps", () => {
  it("runs each rank's operations of the first call, then of the second, which wait for all of the first", () => {
    fc.assert(
      fc.property(matrixRecipe({ minP: 1, maxP: 12 }), (recipe) => {
        const m = buildMatrix(recipe);
        const a = blocksAlltoallvOps(m),
          b = roundsAlltoallvOps(m, "ring", "one");
        const s = sequenceOps(a, b);
        expect(s.kind.length).toBe(a.kind.length + b.kind.length);
        for (let r = 0; r < m.p; r++) {
          const na = a.rankStart[r + 1]! - a.rankStart[r]!;
          const start = s.rankStart[r]!;
          expect(rows(s, r)).toEqual([...rows(a, r), ...rows(b, r)]);
          for (let i = 0; i < na; i++)
            expect(s.waitPrefix[start + i]! - start).toBe(a.waitPrefix[a.rankStart[r]! + i]! - a.rankStart[r]!);
          for (let i = 0; i < b.rankStart[r + 1]! - b.rankStart[r]!; i++)
            expect(s.waitPrefix[start + na + i]! - start - na).toBe(
              b.waitPrefix[b.rankStart[r]! + i]! - b.rankStart[r]!,
            );
        }
      }),
      { numRuns: 60 },
    );
  });

  it("moves explicit dependencies with their operations and refuses different P or ready queues", () => {
    const one = (p: number, n: number, deps: number[][]): ReplayOps => {
      const rankStart = Uint32Array.from({ length: p + 1 }, (_, r) => r * n);
      const depStart = new Uint32Array(p * n + 1);
      for (let x = 0; x < p * n; x++) depStart[x + 1] = depStart[x]! + (deps[x] ?? []).length;
      return {
        p,
        rankStart,
        kind: new Uint8Array(p * n).fill(R_COPY),
        peer: Uint32Array.from({ length: p * n }, (_, x) => Math.floor(x / n)),
        tag: new Uint32Array(p * n),
        bytes: Float64Array.from({ length: p * n }, (_, x) => x + 1),
        blocking: new Uint8Array(p * n),
        waitPrefix: Uint32Array.from({ length: p * n }, (_, x) => Math.floor(x / n) * n),
        depStart,
        deps: Uint32Array.from(deps.flat()),
      };
    };
    // rank 1's second operation waits for its first, in each part
    const a = one(2, 2, [[], [], [], [2]]),
      b = one(2, 3, [[], [], [], [], [3], [4]]);
    const s = sequenceOps(a, b);
    expect(Array.from(s.rankStart)).toEqual([0, 5, 10]);
    // rank 1: a's 2, 3 at 5, 6; b's 3, 4, 5 at 7, 8, 9
    expect(Array.from(s.deps.subarray(s.depStart[6], s.depStart[7]))).toEqual([5]);
    expect(Array.from(s.deps.subarray(s.depStart[8], s.depStart[9]))).toEqual([7]);
    expect(Array.from(s.deps.subarray(s.depStart[9], s.depStart[10]))).toEqual([8]);
    expect(s.depStart[10]).toBe(3);
    expect(Array.from(s.waitPrefix)).toEqual([0, 0, 2, 2, 2, 5, 5, 7, 7, 7]);
    expect(() => sequenceOps(a, one(3, 1, []))).toThrow(CommplanError);
    expect(() => sequenceOps(a, { ...b, readyQueue: true })).toThrow(/cannot sequence/);
  });
});
