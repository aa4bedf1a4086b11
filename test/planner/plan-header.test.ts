/** The plan header records the seed only where the planner made a random choice: plans that no seed can change are the same bytes for every seed. */
import { describe, expect, it } from "vitest";
import { parseScheduleJsonText } from "../../src/io/schedule-json-read.js";
import { scheduleToJsonText } from "../../src/io/schedule-json-write.js";
import { generatePattern } from "../../src/patterns/index.js";
import { trackedRng } from "../../src/planner/plan-header.js";
import { findPlanner, PLANNERS, plan } from "../../src/planner/registry.js";
import { verifySchedule } from "../../src/verifier/index.js";

/** Every planner with the params that make it random (none: deterministic whatever the seed). */
const RANDOM: { readonly [name: string]: { readonly [k: string]: boolean } } = {
  "rs-n": {},
  "rs-nh": {},
  "te-valiant": {},
  "te-simple": {},
  "te-fast": {},
  "te-balanced": {},
};
const DETERMINISTIC = [
  "linear-permutation",
  "shift",
  "coloring",
  "split-coloring",
  "two-stage",
  "mesh-two-stage",
  "hierarchical",
  "four-stage",
  "te-direct",
  "te-offline",
  "mpi-linear",
  "mpi-pair",
  "mpi-ring",
  "mpi-scattered",
  "mpi-bruck",
  "mpi-ompi",
  "mpi-mpich",
  "mpi-mvapich2",
  "mpi-impi",
];

// P = 16 (a square, for mesh-two-stage), 6 random permutations: every planner accepts it
const m = generatePattern("h-relation", 16, { h: 6 }, 3);
// 40 permutations: every te-* protocol that can draw does (te-simple and te-balanced deliver m above without a random choice)
const heavy = generatePattern("h-relation", 16, { h: 40 }, 3);

describe("seed in the schedule header", () => {
  it("classifies every registered planner", () => {
    expect([...Object.keys(RANDOM), ...DETERMINISTIC].sort()).toEqual(PLANNERS.map((p) => p.name).sort());
  });

  for (const name of DETERMINISTIC) {
    it(`${name}: seeds 1 and 2 give byte-identical plans with seed null, which read back and verify`, () => {
      const a = scheduleToJsonText(plan(m, name, { seed: 1 }));
      const b = scheduleToJsonText(plan(m, name, { seed: 2 }));
      expect(b).toBe(a);
      expect(a).toContain('"seed":null');
      const s = parseScheduleJsonText(a);
      expect(s.seed).toBeNull();
      // MPI's linear and scattered plans post several messages per node at once: a many-port machine
      expect(verifySchedule(m, s, { ports: findPlanner(name).traits.mpi ? Infinity : 1 }).ok).toBe(true);
    });
  }

  it("two-stage without the reshuffle is deterministic; with it, the header records the seed", () => {
    expect(plan(m, "two-stage", { seed: 5 }).seed).toBeNull();
    const s = plan(m, "two-stage", { seed: 5, params: { reshuffle: true } });
    expect(s.seed).toBe(5);
    expect(verifySchedule(m, s).ok).toBe(true);
  });

  for (const [name, params] of Object.entries(RANDOM)) {
    it(`${name}: the header records the seed, and some seed changes the plan`, () => {
      const a = plan(heavy, name, { seed: 1, params });
      expect(a.seed).toBe(1);
      expect(plan(heavy, name, { seed: 2, params }).seed).toBe(2);
      const text = (s: number): string =>
        scheduleToJsonText(plan(heavy, name, { seed: s, params })).replace(/"seed":\d+/, "");
      const first = text(1);
      expect([2, 3, 4, 5].some((s) => text(s) !== first)).toBe(true);
      expect(verifySchedule(heavy, parseScheduleJsonText(scheduleToJsonText(a))).ok).toBe(true);
    });
  }

  it("a te-* protocol records the seed only when it drew from it: te-simple and te-balanced on 6 permutations make no random choice", () => {
    for (const name of ["te-simple", "te-balanced"]) {
      const a = scheduleToJsonText(plan(m, name, { seed: 1 }));
      expect(scheduleToJsonText(plan(m, name, { seed: 2 }))).toBe(a);
      expect(parseScheduleJsonText(a).seed).toBeNull();
    }
  });
});

describe("trackedRng", () => {
  it("draws the same stream as createRng and records the first draw", () => {
    const { rng, used } = trackedRng(9);
    const again = trackedRng(9).rng;
    expect(used()).toBe(false);
    expect(rng.int(1000)).toBe(again.int(1000));
    expect(used()).toBe(true);
    const t = trackedRng(9);
    t.rng.next();
    expect(t.used()).toBe(true);
    const u = trackedRng(9);
    u.rng.nextU32();
    expect(u.used()).toBe(true);
  });
});
