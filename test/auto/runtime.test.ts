/** auto for a runtime of today's networks: finalists predicted by replaying their lowered programs, in the best variant. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { hasMessages, planAuto, RUNTIME_MPI_MARGIN } from "../../src/auto/index.js";
import { findMachine } from "../../src/machines/presets.js";
import { replayProgram } from "../../src/machines/program-replay/replay-program.js";
import { replayLibraryAlltoallv } from "../../src/machines/program-replay/library-alltoallv.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { scheduleJsonPieces } from "../../src/io/schedule-json-write.js";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { fail, isCommplanError } from "../../src/model/errors.js";
import { PLANNERS } from "../../src/planner/index.js";
import type { Planner } from "../../src/planner/types.js";
import { matrixFromRows } from "../../src/model/matrix.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";

const machine = findMachine("ib-hdr-200");

describe("planAuto on a runtime", () => {
  it("predicts each finalist by its program's replay, never answers slower than MPI_Alltoallv's default", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ minP: 2, maxP: 12, kinds: ["dense", "sparse", "spike", "permutation"] }),
        fc.constantFrom("smpi", "ib-hdr-200-mpi"),
        (r, runtime) => {
          const m = buildMatrix(r);
          const { schedule, report } = planAuto(m, machine, { runtime, payload: true });
          expect(report.runtime?.name).toBe(runtime);
          const variant = report.runtime!.variant;
          expect(["nonblocking", "dataflow"]).toContain(variant);
          // the winner's time is its program's replay in the variant auto names
          const winner = report.candidates.find((c) => c.note === "winner")!;
          const t = replayProgram(lowerSchedule(m, schedule, { variant }).program, { machine, runtime }).makespanUs;
          expect(winner.simulated).toBeCloseTo(t, 2);
          // MPI_Alltoallv's default as the library runs it: every pair's message, empty ones included, at once
          const lib = replayLibraryAlltoallv(m, { machine, runtime }).makespanUs;

          expect(report.mpi.mpiSimulated).toBeCloseTo(lib, 2);

          // no messages between ranks: MPI_Alltoallv (NO_MESSAGES_REASON), whatever the replays charge
          const callMpi = !hasMessages(m) || lib <= t * (1 + RUNTIME_MPI_MARGIN);
          expect(report.mpi.answer).toBe(callMpi ? "call MPI_Alltoallv" : "use the plan");
          // the plan is answered only where it is predicted faster than the library by the margin
          if (report.mpi.answer === "use the plan") expect(t * (1 + RUNTIME_MPI_MARGIN)).toBeLessThan(lib);
          // the plan verifies on unlimited ports, and the header (with auto.runtime) is a valid schedule document
          expect(verifySchedule(m, schedule, { ports: Infinity }).ok).toBe(true);
          const text = [...scheduleJsonPieces(schedule)].join("");
          expect(() => validateWithSchema("schedule", JSON.parse(text) as unknown, "test")).not.toThrow();
        },
      ),
      { numRuns: 25, seed: 7 },
    );
  });

  it("the library's default runs as SMPI's: own block, receives then sends to ranks 0 .. P - 1, then a wait", () => {
    // nothing to send: every rank still posts P - 1 empty receives and sends (0.3 us each side); every rank sends to
    // rank P - 1 last, so that rank's messages all arrive after its own sends and it pays its receive overheads then
    const p = 6;
    const m = matrixFromRows(Array.from({ length: p }, () => new Array<number>(p).fill(0)));
    const r = replayLibraryAlltoallv(m, { machine, runtime: "ib-hdr-200-mpi" });
    const o = 0.3,
      envelope = 16 * (machine.tc + machine.td);
    expect(r.messages).toBe(p * (p - 1));
    // its last message leaves at (P - 1) o and crosses T_s; the P - 1 envelopes arriving together share its link
    const last = (p - 1) * o + machine.ts;
    expect(r.rankFinishUs[p - 1]).toBeGreaterThan(last + envelope + (p - 1) * o);
    expect(r.rankFinishUs[p - 1]).toBeLessThan(last + p * envelope + (p - 1) * o);
    // rank 0 gets its messages first from every sender: they have arrived when its sends are posted
    expect(r.rankFinishUs[0]).toBeCloseTo(2 * (p - 1) * o, 6);
    expect(r.makespanUs).toBe(r.rankFinishUs[p - 1]);
  });

  it("aggregation wins where per-message overheads dominate: small messages, P = 64", () => {
    // every pair 8 bytes: 63 messages per rank at 0.3 us of overhead each; a log-round plan sends 6
    const rows = Array.from({ length: 64 }, (_, i) => Array.from({ length: 64 }, (_, j) => (i === j ? 0 : 1)));
    const m = matrixFromRows(rows);
    const plain = planAuto(m, machine, { runtime: "smpi" }).report;
    const over = planAuto(m, machine, { runtime: "ib-hdr-200-mpi" }).report;
    expect(over.mpi.answer).toBe("use the plan");
    expect(over.mpi.gain!).toBeGreaterThan((100 * RUNTIME_MPI_MARGIN) / (1 + RUNTIME_MPI_MARGIN));
    // without overheads the runtime's default posts everything at once and nothing beats it by 1 %
    expect(plain.mpi.answer).toBe("call MPI_Alltoallv");
  });

  it("MPI_Alltoallv's default pays the overheads of its empty messages, which a plan leaves out", () => {
    // 16 ranks, one neighbour each: the library still posts 15 sends and 15 receives per rank (0.3 us each)
    const rows = Array.from({ length: 16 }, (_, i) =>
      Array.from({ length: 16 }, (_, j) => (j === (i + 1) % 16 ? 1 : 0)),
    );
    const m = matrixFromRows(rows);
    const lib = replayLibraryAlltoallv(m, { machine, runtime: "ib-hdr-200-mpi" }).makespanUs;
    expect(lib).toBeGreaterThanOrEqual(30 * 0.3);
    const { report } = planAuto(m, machine, { runtime: "ib-hdr-200-mpi" });
    expect(report.mpi.answer).toBe("use the plan");
    expect(report.mpi.mpiSimulated).toBeCloseTo(lib, 2);
  });

  it("refuses an unknown runtime by name with a suggestion", () => {
    const m = matrixFromRows([
      [0, 1, 1],
      [1, 0, 1],
      [1, 1, 0],
    ]);
    try {
      planAuto(m, machine, { runtime: "smpj" });
      expect.unreachable();
    } catch (e) {
      expect(isCommplanError(e) && e.message).toMatch(/unknown runtime model 'smpj'.*smpi/);
    }
  });
});

describe("planAuto on a runtime, a planner refusing payload", () => {
  it("leaves out a relaying finalist whose payload plan its planner refuses, with the reason, not the whole run", () => {
    // two-stage refuses payload plans past 2^24 chunks (liu-pattern3 at P = 256); here the relaying planners refuse all
    const RELAYING = ["two-stage", "mesh-two-stage", "hierarchical", "four-stage", "mpi-bruck"];
    const refusing: Planner[] = PLANNERS.map((p) =>
      !RELAYING.includes(p.name)
        ? p
        : {
            ...p,
            plan: (m, o) => {
              if (o.payload === true) throw fail("planner", "UNSUPPORTED", `${p.name}: too many chunks (limit 0)`);
              return p.plan(m, o);
            },
          },
    );
    const m = buildMatrix({ p: 16, kind: "dense", seed: 2, maxEntry: 4 });
    const base = planAuto(m, machine, { runtime: "ib-hdr-200-mpi", payload: true });
    const relayed = base.report.candidates.filter((c) => c.simulated !== null && RELAYING.includes(c.algorithm));
    expect(relayed.length).toBeGreaterThan(0);
    const { schedule, report } = planAuto(m, machine, { runtime: "ib-hdr-200-mpi", payload: true, planners: refusing });
    for (const c of relayed) {
      const row = report.candidates.find(
        (x) => x.algorithm === c.algorithm && JSON.stringify(x.params) === JSON.stringify(c.params),
      )!;
      expect(row.simulated).toBeNull();
      expect(row.note).toMatch(
        /^finalist, not predicted on the runtime: .* relays and cannot be planned with payload chunks \(planner: .*too many chunks/,
      );
    }
    expect(verifySchedule(m, schedule, { ports: Infinity }).ok).toBe(true);
  });
});
