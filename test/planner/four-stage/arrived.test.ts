/** Elements that reach their destination before Stage IV: held there (arrived=hold) or routed on as 004 does. */
import { describe, expect, it } from "vitest";
import { matrixFromData, type CommMatrix } from "../../../src/model/matrix.js";
import { createRng } from "../../../src/model/rng.js";
import type { Schedule } from "../../../src/model/schedule.js";
import { plan } from "../../../src/planner/index.js";
import { verifySchedule } from "../../../src/verifier/index.js";

/** Off-diagonal entries 1..20 (dense), 50 P within a row of the node array and 0..2 across it (row-heavy), or 20 %. */
function family(kind: "dense" | "row-heavy" | "sparse", p: number, seed: number): CommMatrix {
  const rng = createRng(seed * 1000 + p);
  const c = Math.ceil(Math.sqrt(p));
  const d = new Float64Array(p * p);
  for (let i = 0; i < p; i++)
    for (let j = 0; j < p; j++) {
      if (i === j) continue;
      if (kind === "dense") d[i * p + j] = 1 + rng.int(20);
      else if (kind === "row-heavy") d[i * p + j] = Math.floor(i / c) === Math.floor(j / c) ? 50 * p : rng.int(3);
      else if (rng.next() < 0.2) d[i * p + j] = 1 + rng.int(5);
    }
  return matrixFromData(p, d);
}

/** Every off-diagonal entry P. */
function uniform(p: number): CommMatrix {
  const d = new Float64Array(p * p);
  for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) if (i !== j) d[i * p + j] = p;
  return matrixFromData(p, d);
}

const row = (r: ReturnType<typeof verifySchedule>, id: string) => r.checks.find((c) => c.id === id)!;
const four = (m: CommMatrix, arrived: string, payload = true) =>
  plan(m, "four-stage", { payload, params: { arrived } });

/** Elements per (stage, sender, receiver): key stage * P^2 + src * P + dst. */
function messageSizes(s: Schedule): Map<number, number> {
  const out = new Map<number, number>();
  s.stages.forEach((st, k) => {
    for (let x = s.stepStart[st.firstStep]!; x < s.stepStart[st.firstStep + st.stepCount]!; x++) {
      const key = k * s.p * s.p + s.src[x]! * s.p + s.dst[x]!;
      out.set(key, (out.get(key) ?? 0) + s.size[x]!);
    }
  });
  return out;
}

describe("four-stage: elements at their destination (arrived=hold, the default, against 004's forward)", () => {
  it("hold: no element leaves its destination, every check holds; forward: some leave on every dense matrix", () => {
    for (const kind of ["dense", "row-heavy", "sparse"] as const)
      for (let p = 3; p <= 16; p++)
        for (const seed of [1, 2]) {
          const m = family(kind, p, seed);
          const what = `${kind}, P = ${p}, seed ${seed}`;
          const hold = verifySchedule(m, four(m, "hold"));
          expect(
            hold.checks.filter((c) => !c.holds).map((c) => c.id),
            what,
          ).toEqual([]);
          expect(row(hold, "pass-through").measured, what).toBe(0);
          const forward = verifySchedule(m, four(m, "forward"));
          expect(forward.ok, what).toBe(true);
          if (kind === "dense") expect(row(forward, "pass-through").measured!, what).toBeGreaterThan(0);
        }
  });

  it("the default is hold, and a plan's header says which rule the verifier's Stage II check applies", () => {
    const m = family("dense", 7, 1);
    const byDefault = plan(m, "four-stage", { payload: true });
    expect(Array.from(byDefault.size)).toEqual(Array.from(four(m, "hold").size));
    // the header always names the rule; a plan without it is 004's (forward), as plans made before the rule existed
    expect(byDefault.params["arrived"]).toBe("hold");
    const forward = four(m, "forward");
    expect(forward.params["arrived"]).toBe("forward");
    const old = { ...forward, params: {} };
    expect(verifySchedule(m, old).checks.filter((c) => !c.holds)).toEqual([]);
    // a forward plan verified as if it held (its header edited) fails only the exact Stage II check
    const relabelled = { ...forward, params: { arrived: "hold" } };
    const bad = verifySchedule(m, relabelled).checks.filter((c) => !c.holds);
    expect(bad.map((c) => c.id)).toEqual(["four-stage-II-exact"]);
    // and a hold plan whose header lost the rule is checked as forward, and fails it
    const lost = { ...byDefault, params: {} };
    expect(
      verifySchedule(m, lost)
        .checks.filter((c) => !c.holds)
        .map((c) => c.id),
    ).toEqual(["four-stage-II-exact"]);
  });

  it("every message of every stage is at most the same message under forward, so no per-stage bound can break", () => {
    for (const kind of ["dense", "row-heavy", "sparse"] as const)
      for (let p = 2; p <= 30; p++) {
        const m = family(kind, p, 3);
        const hold = messageSizes(four(m, "hold", false)),
          forward = messageSizes(four(m, "forward", false));
        for (const [key, size] of hold)
          expect(size, `${kind}, P = ${p}, key ${key}`).toBeLessThanOrEqual(forward.get(key)!);
      }
  });

  it("uniform matrices (every entry P, P >= 3): one step fewer (stage IV's local-copy step is empty), a smaller time term and traffic", () => {
    for (let p = 3; p <= 40; p++) {
      const m = uniform(p);
      const h = four(m, "hold", false),
        f = four(m, "forward", false);
      const rh = verifySchedule(m, h),
        rf = verifySchedule(m, f);
      expect(rh.ok && rf.ok, `P = ${p}`).toBe(true);
      expect(h.stages.map((x) => x.stepCount)).toEqual(f.stages.map((x, k) => x.stepCount - (k === 3 ? 1 : 0)));
      expect(row(rh, "four-stage-time").measured!, `P = ${p}`).toBeLessThan(row(rf, "four-stage-time").measured!);
      expect(row(rh, "four-stage-traffic").measured!, `P = ${p}`).toBeLessThan(row(rf, "four-stage-traffic").measured!);
    }
    // the figures of docs/algorithms/four-stage.md: P = 3 and P = 16
    const at = (p: number, arrived: string) => {
      const r = verifySchedule(uniform(p), four(uniform(p), arrived, false));
      return ["time", "traffic", "buffer"].map((id) => row(r, `four-stage-${id}`).measured);
    };
    expect(at(3, "forward")).toEqual([44, 28, 10]);
    expect(at(3, "hold")).toEqual([31, 20, 11]);
    expect(at(16, "forward")).toEqual([960, 960, 240]);
    expect(at(16, "hold")).toEqual([855, 855, 240]);
  });

  it("the peak buffer can rise (a node keeps what it would have sent on), and stays within Theorem 1's bound", () => {
    const m = uniform(3);
    const hold = row(verifySchedule(m, four(m, "hold", false)), "four-stage-buffer"),
      forward = row(verifySchedule(m, four(m, "forward", false)), "four-stage-buffer");
    expect([forward.measured, hold.measured, hold.bound]).toEqual([10, 11, 16]);
    expect(hold.holds).toBe(true);
  });
});
