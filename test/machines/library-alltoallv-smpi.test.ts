/**
 * The library mirrors of SMPI 3.32's other MPI_Alltoallv algorithms (bruck, pair, ring and their barrier variants, the
 * ompi, mpich, mvapich2 and impi selectors) against a rank-by-rank transcription of SimGrid's sources, written here as
 * MPI calls (alltoallv-*.cpp, smpi_*_selector.cpp, Request::sendrecv in smpi_request.cpp, barrier__ompi_basic_linear in
 * barrier-ompi.cpp, Comm::init_smp in smpi_comm.cpp and the collectives it calls), and their replays: every message of
 * the matrix delivered once, no deadlock.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { entry, toSparse, type CommMatrix } from "../../src/model/matrix.js";
import {
  LIBRARY_ALLTOALLV,
  libraryAlltoallvOps,
  libraryAlltoallvPick,
  replayLibraryAlltoallvAs,
} from "../../src/machines/program-replay/library-alltoallv-registry.js";
import { R_COPY, R_RECV, R_SEND, type ReplayOps } from "../../src/machines/program-replay/replay-ops.js";
import { findMachine } from "../../src/machines/presets.js";
import { findRuntimeModel, withRuntime } from "../../src/machines/runtime/runtime-model.js";
import { buildMatrix, matrixRecipe, type MatrixRecipe } from "../helpers/arbitraries.js";
import { CommplanError } from "../../src/model/errors.js";

/** One rank's MPI calls in SMPI's order, as tokens: "isend d bytes tag", "send! ...", "recv! ...", "copy b", "wait". */
type Calls = string[];

function transcribe(name: string, m: CommMatrix, r: number): Calls {
  const p = m.p;
  const b = (i: number, j: number): number => entry(m, i, j) * m.elementBytes;
  const out: Calls = [];
  const copy = (bytes: number): void => void (bytes > 0 && out.push(`copy ${bytes}`));
  // Request::sendrecv: with itself Datatype::copy; else isend_init, irecv_init, startall, waitall
  const sendrecv = (dst: number, sb: number, src: number, rb: number, tag = "a"): void => {
    if (dst === r && src === r) return copy(sb);
    out.push(`isend ${dst} ${sb} ${tag}`, `irecv ${src} ${rb} ${tag}`, "wait");
  };
  // barrier__ompi_basic_linear
  const barrier = (): void => {
    if (p === 1) return;
    if (r > 0) {
      out.push("send! 0 0 b", "wait", "recv! 0 0 b", "wait");
      return;
    }
    for (let i = 1; i < p; i++) out.push(`irecv ${i} 0 b`);
    out.push("wait");
    for (let i = 1; i < p; i++) out.push(`isend ${i} 0 b`);
    out.push("wait");
  };
  const pof2 = (p & (p - 1)) === 0;
  switch (name) {
    case "ompi":
      return transcribe(p < 4 || (p >= 64 && p < 128) || (p >= 256 && p < 1024) ? "pair" : "default", m, r);
    case "mpich":
      return transcribe("bruck", m, r);
    case "mvapich2":
      return transcribe("ring", m, r);
    case "impi": {
      // Comm::init_smp, one rank per host: allgather__ring of one int on the communicator, again on the leaders'
      // communicator (every rank leads its host), bcast__scatter_LR_allgather on one rank (nothing), then
      // allreduce__default: colls::ireduce to 0 and its wait, bcast__binomial_tree from 0; then Intel's pick for one
      // process per node (block_dsize 1): ompi_basic_linear
      for (let k = 0; k < 2; k++) for (let i = 0; i < p; i++) sendrecv((r + i) % p, 4, (r - i + p) % p, 4, "s");
      if (r === 0) {
        out.push("copy 4");
        for (let src = 1; src < p; src++) out.push(`irecv ${src} 4 s`);
      } else out.push("isend 0 4 s");
      out.push("wait");
      let mask = 1;
      for (; mask < p; mask <<= 1)
        if (r & mask) {
          out.push(`recv! ${r - mask} 4 s`, "wait");
          break;
        }
      for (mask >>= 1; mask > 0; mask >>= 1) if (r + mask < p) out.push(`send! ${r + mask} 4 s`, "wait");
      return [...out, "wait", ...transcribe("ompi_basic_linear", m, r)];
    }
    case "default":
    case "ompi_basic_linear":
      copy(b(r, r));
      for (let i = 0; i < p; i++) if (i !== r) out.push(`irecv ${i} ${b(i, r)} a`);
      for (let i = 0; i < p; i++) if (i !== r) out.push(`isend ${i} ${b(r, i)} a`);
      break;
    case "bruck":
      copy(b(r, r));
      for (let ii = 0; p > 1 && ii < p; ii += 4) {
        const ss = p - ii < 4 ? p - ii : 4;
        for (let i = 0; i < ss; i++) {
          const dst = (r + i + ii) % p;
          if (dst !== r) out.push(`irecv ${dst} ${b(dst, r)} a`);
        }
        for (let i = 0; i < ss; i++) {
          const dst = (r - i - ii + p) % p;
          if (dst !== r) out.push(`isend ${dst} ${b(r, dst)} a`);
        }
        out.push("wait");
      }
      break;
    case "pair":
    case "ring":
      for (let i = 0; i < p; i++) {
        const xor = name === "pair" || pof2;
        const src = xor ? r ^ i : (r - i + p) % p,
          dst = xor ? r ^ i : (r + i) % p;
        sendrecv(dst, b(r, dst), src, b(src, r));
      }
      break;
    case "pair_one_barrier":
    case "ring_one_barrier":
      barrier();
      for (let i = 0; i < p; i++) {
        const src = name === "pair_one_barrier" ? r ^ i : (r - i + p) % p,
          dst = name === "pair_one_barrier" ? r ^ i : (r + i) % p;
        sendrecv(dst, b(r, dst), src, b(src, r));
      }
      break;
    case "pair_mpi_barrier":
    case "ring_mpi_barrier":
      for (let i = 0; i < p; i++) {
        const src = name === "pair_mpi_barrier" ? r ^ i : (r - i + p) % p,
          dst = name === "pair_mpi_barrier" ? r ^ i : (r + i) % p;
        barrier();
        sendrecv(dst, b(r, dst), src, b(src, r));
      }
      break;
    case "pair_light_barrier":
      sendrecv(r, b(r, r), r, b(r, r));
      for (let i = 1; i < p; i++) {
        const partner = r ^ i;
        sendrecv(partner, b(r, partner), partner, b(partner, r));
        if (i + 1 < p) sendrecv(r ^ (i + 1), 1, r ^ (i + 1), 1);
      }
      break;
    case "ring_light_barrier":
      sendrecv(r, b(r, r), r, b(r, r));
      for (let i = 1; i < p; i++) {
        const src = (r - i + p) % p,
          dst = (r + i) % p;
        sendrecv(dst, b(r, dst), src, b(src, r));
        if (i + 1 < p) sendrecv((r - (i + 1) + p) % p, 1, (r + i + 1) % p, 1);
      }
      break;
    default:
      throw new Error(`no transcription of ${name}`);
  }
  return out;
}

/** Calls without leading, repeated or trailing waits (a wait on nothing new changes nothing). */
function normalised(calls: Calls): Calls {
  const out: Calls = [];
  for (const c of calls) if (c !== "wait" || (out.length > 0 && out[out.length - 1] !== "wait")) out.push(c);
  while (out.length > 0 && out[out.length - 1] === "wait") out.pop();
  return out;
}

/** Rank r's operations as calls: a wait before an operation whose prefix moved (it waits for everything before). */
function rendered(ops: ReplayOps, r: number): Calls {
  const out: Calls = [];
  const start = ops.rankStart[r]!;
  for (let x = start; x < ops.rankStart[r + 1]!; x++) {
    const w = ops.waitPrefix[x]!;
    if (x > start && w !== ops.waitPrefix[x - 1]) {
      expect(w).toBe(x);
      out.push("wait");
    }
    expect(ops.depStart[x + 1]).toBe(ops.depStart[x]);
    const tag = "abs"[ops.tag[x]!];
    const k = ops.kind[x];
    if (k === R_COPY) out.push(`copy ${ops.bytes[x]}`);
    else {
      const verb = (k === R_SEND ? "send" : "recv") + (ops.blocking[x] ? "!" : "");
      out.push(`${ops.blocking[x] ? verb : "i" + verb.slice(0, 4)} ${ops.peer[x]} ${ops.bytes[x]} ${tag}`);
    }
  }
  return out;
}

/** Matrices at a power-of-two P (1 to 32) or any P up to 20, dense and sparse kinds. */
const recipes = (powerOfTwo: boolean): fc.Arbitrary<MatrixRecipe> =>
  fc
    .tuple(
      matrixRecipe({ maxP: 20, kinds: ["dense", "sparse", "empty-rows", "zero", "spike", "permutation"] }),
      powerOfTwo ? fc.constantFrom(1, 2, 4, 8, 16, 32) : fc.integer({ min: 1, max: 20 }),
    )
    .map(([recipe, p]) => ({ ...recipe, p }));

const needsPowerOfTwo = (name: string, p: number): boolean => libraryAlltoallvPick(name, p).startsWith("pair");

describe("library mirrors of SMPI's alltoallv algorithms", () => {
  it("post each algorithm's calls in SimGrid's order, zero-byte messages and barriers included", () => {
    fc.assert(
      fc.property(
        fc.boolean().chain((pow2) => fc.tuple(recipes(pow2), fc.constantFrom(...LIBRARY_ALLTOALLV), fc.boolean())),
        ([recipe, name, sparse]) => {
          const dense = buildMatrix(recipe);
          if (needsPowerOfTwo(name, dense.p) && (dense.p & (dense.p - 1)) !== 0) return;
          const ops = libraryAlltoallvOps(name, sparse ? toSparse(dense) : dense);
          expect(ops.p).toBe(dense.p);
          for (let r = 0; r < dense.p; r++)
            expect(normalised(rendered(ops, r))).toEqual(normalised(transcribe(name, dense, r)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("send every pair's block once, from its source to its destination, and replay without a deadlock", () => {
    const machine = findMachine("ib-hdr-200");
    fc.assert(
      fc.property(
        recipes(true),
        fc.constantFrom(...LIBRARY_ALLTOALLV),
        fc.constantFrom("smpi", "ib-hdr-200-mpi"),
        (recipe, name, rt) => {
          const m = buildMatrix(recipe);
          const ops = libraryAlltoallvOps(name, m);
          const sent: number[][] = Array.from({ length: m.p * m.p }, () => []);
          for (let r = 0; r < m.p; r++)
            for (let x = ops.rankStart[r]!; x < ops.rankStart[r + 1]!; x++) {
              if (ops.tag[x] !== 0 || ops.kind[x] === R_RECV) continue;
              sent[r * m.p + (ops.kind[x] === R_COPY ? r : ops.peer[x]!)]!.push(ops.bytes[x]!);
            }
          // each pair's block once (an empty self block is not copied); besides, only the light barriers' one-byte
          // exchanges, P - 2 per rank
          let extra = 0;
          for (let i = 0; i < m.p; i++)
            for (let j = 0; j < m.p; j++) {
              const want = entry(m, i, j) * m.elementBytes;
              const got = sent[i * m.p + j]!;
              if (!(i === j && want === 0)) {
                expect(got).toContain(want);
                got.splice(got.indexOf(want), 1);
              }
              expect(got.every((b) => b === 1)).toBe(true);
              extra += got.length;
            }
          expect(extra).toBe(name.endsWith("light_barrier") ? m.p * Math.max(0, m.p - 2) : 0);
          const runtime = withRuntime(findRuntimeModel(rt), { copies: false });
          const res = replayLibraryAlltoallvAs(name, m, { machine, runtime });
          expect(Number.isFinite(res.makespanUs)).toBe(true);
          expect(res.makespanUs).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 120 },
    );
  });

  it("resolve the selectors by P as SMPI 3.32's selectors pick", () => {
    const ompi = [2, 3, 4, 63, 64, 127, 128, 255, 256, 1023, 1024].map((p) => libraryAlltoallvPick("ompi", p));
    expect(ompi).toEqual([
      "pair",
      "pair",
      "ompi_basic_linear",
      "ompi_basic_linear",
      "pair",
      "pair",
      "ompi_basic_linear",
      "ompi_basic_linear",
      "pair",
      "pair",
      "ompi_basic_linear",
    ]);
    expect(libraryAlltoallvPick("mpich", 16)).toBe("bruck");
    expect(libraryAlltoallvPick("mvapich2", 16)).toBe("ring");
  });

  it("refuse an unknown name listing the known ones, and the pair algorithms off a power of two", () => {
    const m = buildMatrix({ p: 6, kind: "dense", seed: 1, maxEntry: 7 });
    expect(() => libraryAlltoallvOps("bogus", m)).toThrow(CommplanError);
    expect(() => libraryAlltoallvOps("bogus", m)).toThrow(
      /unknown algorithm 'bogus' \(known: default, ompi, .*, impi\)/,
    );
    expect(() => libraryAlltoallvOps("pairs", m)).toThrow(
      /unknown algorithm 'pairs' \(did you mean pair\?\) \(known: /,
    );
    expect(() => libraryAlltoallvOps("constructor", m)).toThrow(/unknown algorithm/);
    for (const name of ["pair", "pair_light_barrier", "pair_mpi_barrier", "pair_one_barrier"])
      expect(() => libraryAlltoallvOps(name, m)).toThrow(/power-of-two P, got 6/);
    // ring, its variants, bruck and mpich run at any P
    for (const name of ["ring", "ring_light_barrier", "bruck", "mpich", "mvapich2", "ompi", "impi"])
      expect(libraryAlltoallvOps(name, m).p).toBe(6);
  });

  it("the barrier variants cost more than the plain rounds they wrap: 16 ranks, 1 KiB blocks, with overheads", () => {
    const m = buildMatrix({ p: 16, kind: "dense", seed: 3, maxEntry: 1 });
    const opts = { machine: findMachine("ib-hdr-200"), runtime: "ib-hdr-200-mpi" };
    const t = (name: string): number => replayLibraryAlltoallvAs(name, m, opts).makespanUs;
    for (const base of ["pair", "ring"])
      for (const v of ["light_barrier", "one_barrier", "mpi_barrier"])
        expect(t(`${base}_${v}`)).toBeGreaterThan(t(base));
    // an MPI_Barrier every round costs more than one before the rounds
    expect(t("pair_mpi_barrier")).toBeGreaterThan(t("pair_one_barrier"));
  });
});
