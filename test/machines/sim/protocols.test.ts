import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { findMachine } from "../../../src/machines/presets.js";
import { runProtocol } from "../../../src/machines/sim/protocols.js";
import { verifySchedule } from "../../../src/verifier/index.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";

const machine = findMachine("cm5-004");
const failing = (r: ReturnType<typeof verifySchedule>): string[] => r.checks.filter((c) => !c.holds).map((c) => c.id);

describe("run-time protocols (003 figs 2 and 5; 000 sec. 5)", () => {
  it("DRS_N's realised trace delivers everything and passes the node-contention check, with and without 000's improvements", () => {
    fc.assert(
      fc.property(matrixRecipe({ maxP: 16, kinds: ["dense", "sparse", "spike", "permutation", "empty-rows", "zero"] }), fc.boolean(), fc.boolean(), fc.boolean(), (r, busyMeasure, earlyGoAhead, generateRecv) => {
        const m = buildMatrix({ ...r, maxEntry: Math.min(r.maxEntry, 100) });
        const res = runProtocol(m, machine, { protocol: "drs-n", seed: r.seed, busyMeasure, earlyGoAhead, generateRecv });
        const rep = verifySchedule(m, res.realised);
        expect(failing(rep)).toEqual([]);
        expect(rep.checks.find((c) => c.id === "timed-contention")!.holds).toBe(true);
        expect(res.realised.times).not.toBeNull();
        // no two transfers into one node overlap in time
        const s = res.realised;
        const byDst = new Map<number, [number, number][]>();
        for (let x = 0; x < s.transferCount; x++) {
          const l = byDst.get(s.dst[x]!) ?? [];
          l.push([s.times!.start[x]!, s.times!.end[x]!]);
          byDst.set(s.dst[x]!, l);
        }
        for (const l of byDst.values()) {
          l.sort((a, b) => a[0] - b[0]);
          for (let q = 1; q < l.length; q++) expect(l[q]![0]).toBeGreaterThanOrEqual(l[q - 1]![1]);
        }
        if (generateRecv && s.transferCount > 0) expect(res.generateRecvTime).toBeGreaterThan(0);
        expect(res.makespan).toBeGreaterThanOrEqual(res.generateRecvTime);
      }),
      { numRuns: 40 },
    );
  });

  it("AC's realised trace delivers everything but fails the contention checks on a dense matrix; the timed check names node, transfers and time", () => {
    const m = buildMatrix({ p: 16, kind: "dense", seed: 9, maxEntry: 100 });
    const res = runProtocol(m, machine, { protocol: "async", seed: 4 });
    const rep = verifySchedule(m, res.realised);
    expect(failing(rep)).toEqual(["node-contention", "timed-contention"]);
    expect(rep.checks.find((c) => c.id === "node-contention")!.witness).toMatch(/^step \d+: node \d+ receives \d+ messages/);
    expect(rep.checks.find((c) => c.id === "timed-contention")!.witness).toMatch(/^node \d+ receives transfer \d+ \(\d+ -> \d+, [\d.e+]+\.\.[\d.e+]+ us\) while transfer \d+ \(\d+ -> \d+, [\d.e+]+\.\.[\d.e+]+ us\) is under way, at [\d.e+]+ us/);
    expect(res.totalWait).toBeGreaterThan(0);
    expect(res.fnc).toBeGreaterThan(1);
  });

  it("the timed check catches AC's overlaps after time 0, which the per-step check cannot see", () => {
    // A permutation-like sparse matrix: for some seeds no two nodes pick the same first destination.
    const m = buildMatrix({ p: 12, kind: "sparse", seed: 5, maxEntry: 100 });
    let seen = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const rep = verifySchedule(m, runProtocol(m, machine, { protocol: "async", seed }).realised);
      if (!rep.checks.find((c) => c.id === "node-contention")!.holds) continue;
      seen++;
      expect(rep.checks.find((c) => c.id === "timed-contention")!.holds, `seed ${seed}`).toBe(false);
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("DRS_N's trace with every message stretched to overlap the next one fails the timed check only", () => {
    const m = buildMatrix({ p: 16, kind: "dense", seed: 3, maxEntry: 100 });
    const s = runProtocol(m, machine, { protocol: "drs-n", seed: 2 }).realised;
    expect(failing(verifySchedule(m, s))).toEqual([]);
    const end = s.times!.end.slice();
    for (let x = 0; x < s.transferCount; x++) end[x] = s.times!.start[x]! + 1e7;
    const rep = verifySchedule(m, { ...s, times: { start: s.times!.start, end } });
    expect(failing(rep)).toEqual(["timed-contention"]);
  });

  it("AC and DRS_N are deterministic for a seed and differ across seeds", () => {
    const m = buildMatrix({ p: 12, kind: "dense", seed: 2, maxEntry: 100 });
    for (const protocol of ["async", "drs-n"] as const) {
      const a = runProtocol(m, machine, { protocol, seed: 5 });
      const b = runProtocol(m, machine, { protocol, seed: 5 });
      expect(a.makespan).toBe(b.makespan);
      expect(Array.from(a.realised.dst)).toEqual(Array.from(b.realised.dst));
      const c = runProtocol(m, machine, { protocol, seed: 6 });
      expect(Array.from(c.realised.dst)).not.toEqual(Array.from(a.realised.dst));
    }
  });

  it("000's first improvement cuts the number of inquiries", () => {
    const m = buildMatrix({ p: 16, kind: "spike", seed: 3, maxEntry: 5000 });
    const base = runProtocol(m, machine, { protocol: "drs-n", seed: 1 });
    const improved = runProtocol(m, machine, { protocol: "drs-n", seed: 1, busyMeasure: true });
    expect(improved.inquiries).toBeLessThan(base.inquiries);
  });

  it("rejects unknown protocols and a zero inquiry time", () => {
    const m = buildMatrix({ p: 4, kind: "dense", seed: 1, maxEntry: 3 });
    expect(() => runProtocol(m, machine, { protocol: "nope" as "async" })).toThrow(/unknown protocol/);
    expect(() => runProtocol(m, machine, { protocol: "drs-n", inquiry: 0 })).toThrow(/inquiry/);
  });
});
