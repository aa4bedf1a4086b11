/** Delivery of message-level plans (issue 11 items 11, 12): decided where it can be, marked unproven where it cannot, never wrong. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { matrixDigest, matrixFromRows, type CommMatrix } from "../../src/model/matrix.js";
import type { Schedule } from "../../src/model/schedule.js";
import { PLANNERS, plan } from "../../src/planner/index.js";
import { verifySchedule, type Report } from "../../src/verifier/index.js";
import { formatReport } from "../../src/cli/commands/verify.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";
import { handSchedule, pack, unpack } from "../helpers/schedule-edit.js";

const row = (r: Report, id: string) => r.checks.find((c) => c.id === id);

/** A hand-made message-level schedule for m: one array of [src, dst, size] per step. */
function hand(m: CommMatrix, steps: [number, number, number][][], algorithm = "my-router"): Schedule {
  return handSchedule(m.p, steps, { algorithm, elementBytes: 8, matrixDigest: matrixDigest(m) });
}

/** The same schedule without payload chunks. */
const messageLevel = (s: Schedule): Schedule =>
  pack(
    { ...s, chunks: null },
    unpack(s).map((g) => ({
      ...g,
      steps: g.steps.map((t) => ({ ...t, transfers: t.transfers.map((x) => ({ ...x, chunks: null })) })),
    })),
  );

describe("item 11: a schedule with no transfers does not pass", () => {
  const m = matrixFromRows([
    [0, 1],
    [1, 0],
  ]);

  it("[[0,1],[1,0]] with both two-stage stages emptied fails delivery", () => {
    const s = plan(m, "two-stage");
    expect(s.chunks).toBeNull();
    const emptied = pack(
      s,
      unpack(s).map((g) => ({ ...g, steps: g.steps.map((t) => ({ ...t, transfers: [] })) })),
    );
    const r = verifySchedule(m, emptied);
    expect(r.ok).toBe(false);
    expect(row(r, "delivery")!.holds).toBe(false);
    expect(row(r, "delivery")!.witness).toMatch(
      /no element is relayed; transfers 0 -> 1 carry 0 elements, M\[0\]\[1\] = 1/,
    );
    expect(row(r, "sizes-add-up")!.holds).toBe(true); // the hole: counts alone add up
  });

  it("every planner's plan of a uniform or circulant matrix, emptied, fails (unknown algorithm names too)", () => {
    const uniform = matrixFromRows(
      Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => (i === j ? 0 : 2))),
    );
    const circulant = matrixFromRows(
      Array.from({ length: 5 }, (_, i) => Array.from({ length: 5 }, (_, j) => ((j - i + 5) % 5 === 1 ? 3 : 0))),
    );
    const tried = new Set<string>();
    const ones = matrixFromRows(
      Array.from({ length: 4 }, (_, i) => Array.from({ length: 4 }, (_, j) => (i === j ? 0 : 1))),
    );
    for (const mm of [uniform, circulant, ones]) {
      for (const pl of PLANNERS) {
        let s: Schedule;
        try {
          s = plan(mm, pl.name);
        } catch {
          continue; // a planner that refuses this matrix (e.g. te-* on non-0/1 entries)
        }
        tried.add(pl.name);
        const emptied = pack(
          s,
          unpack(s).map((g) => ({ ...g, steps: g.steps.map((t) => ({ ...t, transfers: [] })) })),
        );
        for (const e of [emptied, { ...emptied, algorithm: "unknown-router" }]) {
          const r = verifySchedule(mm, e);
          expect(r.ok, `${pl.name}`).toBe(false);
          expect(row(r, "delivery")?.holds, `${pl.name}`).toBe(false);
        }
      }
    }
    expect([...tried]).toEqual(expect.arrayContaining(["two-stage", "mesh-two-stage", "four-stage", "shift"]));
    expect(tried.size).toBe(PLANNERS.length);
  });
});

describe("item 12: message-level delivery is decided or marked unproven", () => {
  const m = matrixFromRows([
    [0, 1, 0],
    [0, 0, 1],
    [1, 0, 0],
  ]);

  it("a 3-node cycle sent the wrong way round in one step fails", () => {
    const r = verifySchedule(
      m,
      hand(m, [
        [
          [1, 0, 1],
          [2, 1, 1],
          [0, 2, 1],
        ],
      ]),
    );
    expect(r.ok).toBe(false);
    expect(row(r, "delivery")!.witness).toMatch(/transfers 0 -> 1 carry 0 elements, M\[0\]\[1\] = 1/);
  });

  it("the same cycle over three steps (relays possible) is unproven: exit-0 report that says so", () => {
    const r = verifySchedule(m, hand(m, [[[1, 0, 1]], [[2, 1, 1]], [[0, 2, 1]]]));
    expect(r.ok).toBe(true);
    expect(row(r, "delivery")).toBeUndefined();
    expect(r.unproven).toEqual([
      expect.objectContaining({
        id: "delivery",
        reason: "at message level",
        howToProve: "plan with the option payload to prove it",
      }),
    ]);
    expect(r.unproven![0]!.detail).toMatch(/node 0 receives in step 0 and sends in step 2/);
    const text = formatReport(r);
    expect(text).toMatch(/all checks hold; delivery unproven at message level: plan with --payload to prove it/);
    expect(text).not.toMatch(/all checks hold\n/);
  });

  it("the right way round is proven in one step or three; fewer elements than the messages need fails", () => {
    for (const steps of [
      [
        [
          [0, 1, 1],
          [1, 2, 1],
          [2, 0, 1],
        ],
      ],
      [[[0, 1, 1]], [[1, 2, 1]], [[2, 0, 1]]],
    ] as [number, number, number][][][]) {
      const r = verifySchedule(m, hand(m, steps));
      expect(r.ok).toBe(true);
      expect(row(r, "delivery")!.holds).toBe(true);
      expect(r.unproven).toBeUndefined();
    }
    const short = verifySchedule(m, hand(m, [[[0, 1, 1]], [[1, 2, 1]]]));
    expect(row(short, "delivery")!.holds).toBe(false);
  });

  it("a relay at message level that delivers is unproven, not failed", () => {
    const m2 = matrixFromRows([
      [0, 1, 1],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    const r = verifySchedule(m2, hand(m2, [[[0, 1, 2]], [[1, 2, 1]]]));
    expect(r.ok).toBe(true);
    expect(r.unproven?.map((u) => u.id)).toEqual(["delivery"]);
  });
});

describe("every registered planner's message-level plans: proven or unproven, never wrong", () => {
  for (const pl of PLANNERS) {
    it(pl.name, () => {
      let planned = 0;
      fc.assert(
        fc.property(
          matrixRecipe({ minP: 2, maxP: 12, kinds: ["dense", "sparse", "spike", "permutation", "empty-rows", "zero"] }),
          (r) => {
            const m = buildMatrix({ ...r, maxEntry: Math.min(r.maxEntry, 20) });
            let s: Schedule;
            try {
              s = plan(m, pl.name, { payload: true });
            } catch {
              return; // planners refuse some matrices (te-* take 0/1 entries only)
            }
            planned++;
            // MPI's linear and scattered plans post several messages per node at once: a many-port machine
            const ports = pl.traits.mpi ? Infinity : 1;
            expect(verifySchedule(m, s, { ports }).ok).toBe(true); // the payload plan is the ground truth: it delivers
            for (const ml of [messageLevel(s), plan(m, pl.name)]) {
              const rep = verifySchedule(m, ml, { ports });
              expect(rep.ok, pl.name).toBe(true);
              const d = row(rep, "delivery");
              expect(d === undefined ? rep.unproven?.map((u) => u.id) : d.holds, pl.name).toEqual(
                d === undefined ? ["delivery"] : true,
              );
            }
          },
        ),
        { numRuns: 25 },
      );
      expect(planned).toBeGreaterThan(0);
    });
  }
});
