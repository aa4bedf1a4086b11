/**
 * What auto tells the user against MPI_Alltoallv's default on a runtime: the plan's time, the default's, the speed-up
 * (the vs-MPI bench's default / auto) and where it comes from, measured against what the library posts (a message to
 * every other rank, empty ones included), not against mpi-linear's plan; and a call-MPI answer that says when a plan
 * is faster, but by less than the margin.
 */
import { describe, expect, it } from "vitest";
import { mpiVerdict, planAuto, RUNTIME_MPI_MARGIN, type VerdictCandidate } from "../../src/auto/index.js";
import { autoAnswerLine } from "../../src/cli/commands/plan.js";
import { findMachine } from "../../src/machines/presets.js";
import { findRuntimeModel } from "../../src/machines/runtime/runtime-model.js";
import { matrixFromEntries, withElementBytes } from "../../src/model/matrix.js";
import { generatePattern } from "../../src/patterns/index.js";
import { findPlanner, plan } from "../../src/planner/index.js";

const machine = findMachine("ib-hdr-200");

/** A candidate of the verdict: `name`'s plan of `m` with the makespan `us`. */
const candidate = (name: string, m: ReturnType<typeof generatePattern>, us: number): VerdictCandidate => ({
  planner: findPlanner(name),
  label: name,
  simulated: us,
  schedule: plan(m, name),
});

describe("auto's answer against MPI_Alltoallv on a runtime", () => {
  it("halo at P = 16 with overheads (the vs-MPI bench's case): times, speed-up, and the library's empty messages", () => {
    // bench/results/vs-mpi.json, halo|flat-ib-hdr-200|16|large|overheads: SMPI's default 16.214 us, auto 13.206 us
    const m = withElementBytes(generatePattern("halo", 16, { nx: 8, ny: 8, nz: 8 }, 1), 1024);
    const { report } = planAuto(m, machine, { runtime: "ib-hdr-200-mpi", payload: true });
    const v = report.mpi;
    const winner = report.candidates.find((c) => c.note === "winner")!;
    expect(v.answer).toBe("use the plan");
    expect(v.planSimulated).toBe(winner.simulated);
    expect([v.mpiSimulated, v.planSimulated, v.speedup]).toEqual([16.214, 13.206, 1.228]);
    // before, the effect compared with mpi-linear's plan (4 messages per node, no empty ones) and spoke of ports,
    // which a runtime does not limit: "fewer messages per node at once (1 vs 4): less contention at each node's ports"
    expect(v.effect).not.toMatch(/ports/);
    expect(v.effect).toBe(
      "fewer messages: 4 at the busiest rank (a mean of 3.5 per rank) vs the library's 15 at every rank (it posts " +
        "the empty ones too); the library's 11 more cost the busiest rank about 6.608 us (ib-hdr-200-mpi's " +
        "per-message overheads, 0.3 us to send and 0.3 us to receive, and a 16-byte envelope each)",
    );
    expect(autoAnswerLine(v)).toBe(
      "use the plan: predicted 13.206 us against 16.214 us for MPI_Alltoallv's default (mpi-linear: SMPI default, " +
        `Open MPI basic linear, Intel MPI 1; as the library runs it), 1.228x as fast (18.552 % of its time saved): ${v.effect}`,
    );
  });

  it("a plan with as many messages as the library is faster by its order, and says so", () => {
    const m = generatePattern("uniform", 16, {}, 1);
    const v = mpiVerdict(candidate("linear-permutation", m, 8), candidate("mpi-linear", m, 10), null, 0.05, true, {
      p: 16,
      runtime: findRuntimeModel("smpi"),
      variant: "dataflow",
      usPerByte: machine.tc + machine.td,
    });
    expect([v.answer, v.gain, v.planSimulated, v.speedup]).toEqual(["use the plan", 20, 8, 1.25]);
    expect(v.effect).toBe(
      "the same 15 messages at every rank, posted in the plan's order instead of the library's (every rank posts " +
        "to rank 0 first and to rank 15 last): less sharing of the links",
    );
  });

  it("the messages are counted at the busiest rank, with the mean where ranks send fewer", () => {
    // one rank sends to all the others, the rest to one: before, "the same 15 messages per rank" as if every rank did
    const m = matrixFromEntries(16, [
      ...Array.from({ length: 15 }, (_, k): [number, number, number] => [0, k + 1, 1]),
      ...Array.from({ length: 15 }, (_, k): [number, number, number] => [k + 1, (k + 2) % 16, 1]),
    ]);
    const v = mpiVerdict(candidate("linear-permutation", m, 8), candidate("mpi-linear", m, 10), null, 0.05, true, {
      p: 16,
      runtime: findRuntimeModel("smpi"),
      variant: "dataflow",
      usPerByte: machine.tc + machine.td,
    });
    expect(v.effect).toBe(
      "the same 15 messages at the busiest rank (a mean of 1.9 per rank), posted in the plan's order instead of " +
        "the library's (every rank posts to rank 0 first and to rank 15 last): less sharing of the links",
    );
  });

  it("call MPI_Alltoallv: a plan faster by less than the margin is not called slower, and the line names the default", () => {
    const m = generatePattern("uniform", 16, {}, 1);
    const def = candidate("mpi-linear", m, 100);
    const within = mpiVerdict(candidate("shift", m, 98), def, null, RUNTIME_MPI_MARGIN, true);
    expect([within.answer, within.gain, within.speedup]).toEqual(["call MPI_Alltoallv", 2, 1.02]);
    // before: "no plan is predicted faster than MPI_Alltoallv's default", while shift was predicted 2 % faster
    expect(within.effect).toBe(
      "no plan is predicted more than 5 % faster than MPI_Alltoallv's default (the best plan: shift, 98 us)",
    );
    expect(autoAnswerLine(within)).toBe(
      `call MPI_Alltoallv (its default, mpi-linear: SMPI default, Open MPI basic linear, Intel MPI 1; predicted 100 us): ${within.effect}`,
    );
    const slower = mpiVerdict(candidate("shift", m, 101), def, null, RUNTIME_MPI_MARGIN, true);
    expect(slower.effect).toBe(
      "no plan is predicted faster than MPI_Alltoallv's default (the best plan: shift, 101 us)",
    );
  });
  it("gain and speed-up agree in every answer; auto's pick being the default itself is said first, not as a gain", () => {
    const m = generatePattern("uniform", 16, {}, 1);
    const def = candidate("mpi-linear", m, 100);
    const cases = [
      // [winner, its time, answer]: the default's own plan slower, faster within the margin, faster past it; another
      mpiVerdict(candidate("mpi-linear", m, 101), def, "shift, 130 us", undefined, true),
      mpiVerdict(candidate("mpi-linear", m, 99.5), def, null, undefined, true),
      mpiVerdict(candidate("mpi-linear", m, 80), def, null, undefined, true),
      mpiVerdict(candidate("shift", m, 99.5), def, null, undefined, true),
      mpiVerdict(candidate("shift", m, 125), def, null, undefined, true),
      mpiVerdict(candidate("shift", m, 80), def, null, undefined, true),
    ];
    expect(cases.map((v) => [v.answer, v.gain, v.speedup])).toEqual([
      ["call MPI_Alltoallv", -1, 0.99],
      // before: gain 0 beside a speed-up of 1.005 (the default's own plan had its gain set to 0)
      ["call MPI_Alltoallv", 0.5, 1.005],
      ["use the plan", 20, 1.25],
      ["call MPI_Alltoallv", 0.5, 1.005],
      ["call MPI_Alltoallv", -25, 0.8],
      ["use the plan", 20, 1.25],
    ]);
    for (const v of cases) expect(Math.sign(v.gain!), v.effect).toBe(Math.sign(v.speedup! - 1));
    // the default's own plan: call MPI_Alltoallv or run the plan, the same messages; never "no plan is faster"
    expect(cases[0]!.effect).toBe(
      "auto's pick, mpi-linear, is MPI_Alltoallv's default itself: call MPI_Alltoallv or run this plan, the same " +
        "messages (the best other plan: shift, 130 us)",
    );
    expect(autoAnswerLine(cases[1]!)).toMatch(
      /^call MPI_Alltoallv \(its default, mpi-linear: .*; predicted 100 us\): auto's pick, mpi-linear, is MPI_Alltoallv's default itself: call MPI_Alltoallv or run this plan, the same messages$/,
    );
    // use the plan with the default's own algorithm: the words come before the times (before: "use the plan:
    // predicted 80 us against 100 us ..., 1.25x as fast" read as a gain of the default over itself)
    expect(autoAnswerLine(cases[2]!)).toMatch(
      /^use the plan: auto's pick, mpi-linear, is MPI_Alltoallv's default itself: the same messages as calling MPI_Alltoallv, predicted faster only as the plan runs them .*; predicted 80 us against 100 us for MPI_Alltoallv's default .*, 1\.25x as fast \(20 % of its time saved\)$/,
    );
    expect(autoAnswerLine(cases[5]!)).toMatch(/^use the plan: predicted 80 us against 100 us .*1\.25x as fast/);
    expect(cases[3]!.effect).toMatch(/^no plan is predicted more than 1 % faster than MPI_Alltoallv's default/);
    expect(cases[4]!.effect).toMatch(/^no plan is predicted faster than MPI_Alltoallv's default/);
  });
});
