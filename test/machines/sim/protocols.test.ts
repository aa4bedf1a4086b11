import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { findMachine } from "../../../src/machines/presets.js";
import { runProtocol } from "../../../src/machines/sim/protocols.js";
import { MIN_INQUIRY } from "../../../src/machines/sim/request.js";
import { NONE } from "../../../src/machines/sim/timeline.js";
import { isCommplanError } from "../../../src/model/errors.js";
import { matrixFromData } from "../../../src/model/matrix.js";
import { verifySchedule } from "../../../src/verifier/index.js";
import { buildMatrix, matrixRecipe } from "../../helpers/arbitraries.js";

const machine = findMachine("cm5-004");
const failing = (r: ReturnType<typeof verifySchedule>): string[] => r.checks.filter((c) => !c.holds).map((c) => c.id);

describe("run-time protocols (003 figs 2 and 5; 000 sec. 5): realised traces and the contention checks", () => {
  it("DRS_N's realised trace delivers everything and passes the node-contention check, with and without 000's improvements", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ maxP: 16, kinds: ["dense", "sparse", "spike", "permutation", "empty-rows", "zero"] }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (r, busyMeasure, earlyGoAhead, generateRecv) => {
          const m = buildMatrix({ ...r, maxEntry: Math.min(r.maxEntry, 100) });
          const res = runProtocol(m, machine, {
            protocol: "drs-n",
            seed: r.seed,
            busyMeasure,
            earlyGoAhead,
            generateRecv,
          });
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
        },
      ),
      { numRuns: 40 },
    );
  });

  it("AC's realised trace delivers everything but fails the contention checks on a dense matrix; the timed check names node, transfers and time", () => {
    const m = buildMatrix({ p: 16, kind: "dense", seed: 9, maxEntry: 100 });
    const res = runProtocol(m, machine, { protocol: "async", seed: 4 });
    const rep = verifySchedule(m, res.realised);
    expect(failing(rep)).toEqual(["node-contention", "timed-contention"]);
    expect(rep.checks.find((c) => c.id === "node-contention")!.witness).toMatch(
      /^step \d+: node \d+ receives \d+ messages/,
    );
    expect(rep.checks.find((c) => c.id === "timed-contention")!.witness).toMatch(
      /^node \d+ receives transfer \d+ \(\d+ -> \d+, [\d.e+]+\.\.[\d.e+]+ us\) while transfer \d+ \(\d+ -> \d+, [\d.e+]+\.\.[\d.e+]+ us\) is under way, at [\d.e+]+ us/,
    );
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
});

describe("run-time protocols (003 figs 2 and 5; 000 sec. 5): DRS_N's accounts and inquiries", () => {
  it("DRS_N reports no contention, as its realised trace shows: the early go-ahead's wait is stalled time", () => {
    let goAheads = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const m = buildMatrix({ p: 16, kind: "dense", seed, maxEntry: 400 });
      for (const busyMeasure of [false, true]) {
        const res = runProtocol(m, machine, { protocol: "drs-n", seed, earlyGoAhead: true, busyMeasure });
        expect(res.realised.times).not.toBeNull();
        expect(verifySchedule(m, res.realised).checks.find((c) => c.id === "timed-contention")!.holds).toBe(true);
        expect(res.totalWait).toBe(0);
        expect(res.fnc).toBe(1);
        const tl = res.timeline;
        expect(tl.kind.some((k) => tl.kindNames[k] === "wait")).toBe(false);
        // go-aheads: stall intervals that end when a message starts (not an inquiry's return)
        for (let i = 0; i < tl.count; i++)
          if (tl.kindNames[tl.kind[i]!] === "stall" && tl.transfer[i] !== NONE) goAheads++;
        let stalled = 0;
        for (let i = 0; i < tl.count; i++)
          if (tl.kindNames[tl.kind[i]!] === "stall") stalled += tl.end[i]! - tl.start[i]!;
        expect(res.nodes.stalled.reduce((a, b) => a + b, 0)).toBeCloseTo(stalled, 6);
      }
    }
    expect(goAheads).toBeGreaterThan(0);
  });

  it("DRS_N's busy time per node is the union of its send and receive intervals, with and without the early go-ahead", () => {
    let checked = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const m = buildMatrix({ p: 12, kind: seed % 2 ? "dense" : "spike", seed, maxEntry: 400 });
      for (const earlyGoAhead of [false, true]) {
        const res = runProtocol(m, machine, { protocol: "drs-n", seed, earlyGoAhead, inquiry: 200 });
        const s = res.realised;
        for (let v = 0; v < m.p; v++) {
          const iv: [number, number][] = [];
          for (let x = 0; x < s.transferCount; x++)
            if (s.src[x] === v || s.dst[x] === v) iv.push([s.times!.start[x]!, s.times!.end[x]!]);
          iv.sort((a, b) => a[0] - b[0]);
          let union = 0,
            lo = -Infinity,
            hi = -Infinity;
          for (const [a, b] of iv) {
            if (a > hi) {
              union += hi - lo > 0 ? hi - lo : 0;
              lo = a;
              hi = b;
            } else hi = Math.max(hi, b);
          }
          union += hi - lo > 0 ? hi - lo : 0;
          expect(res.nodes.busy[v]!, `seed ${seed} early ${earlyGoAhead} node ${v}`).toBeCloseTo(union, 6);
          checked++;
        }
      }
    }
    expect(checked).toBe(12 * 2 * 12);
  });
});

describe("run-time protocols (003 figs 2 and 5; 000 sec. 5): seeds, topology, Generate_Recv, progress", () => {
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

  it("run on the CM-5 fat tree: each message takes T_s + m (t_c + t_d of its pair); the cm5-fat-tree preset uses it by default", () => {
    const m = buildMatrix({ p: 32, kind: "sparse", seed: 4, maxEntry: 300 });
    const ft = findMachine("cm5-fat-tree");
    for (const protocol of ["drs-n", "async"] as const) {
      const res = runProtocol(m, ft, { protocol, seed: 3 });
      expect(res.fabric).toBe("cm5-fat-tree");
      expect(res.realised.params["topology"]).toBe("cm5-fat-tree");
      const s = res.realised;
      const rate = (a: number, b: number): number => (a >> 2 === b >> 2 ? 20 : a >> 4 === b >> 4 ? 10 : 5);
      let crossing = 0;
      for (let x = 0; x < s.transferCount; x++) {
        const d = ft.ts + s.size[x]! * m.elementBytes * (ft.tc + 1 / rate(s.src[x]!, s.dst[x]!));
        if (protocol === "drs-n") expect(s.times!.end[x]! - s.times!.start[x]!).toBeCloseTo(d, 6);
        else expect(s.times!.end[x]! - s.times!.start[x]!).toBeGreaterThanOrEqual(d - 1e-6);
        if (rate(s.src[x]!, s.dst[x]!) !== 5) crossing++;
      }
      expect(crossing).toBeGreaterThan(0);
      expect(res.makespan).toBeLessThan(runProtocol(m, ft, { protocol, seed: 3, topology: "flat" }).makespan);
    }
  });

  it("with Generate_Recv first, the timeline starts after it, as the realised times do", () => {
    const m = buildMatrix({ p: 8, kind: "dense", seed: 2, maxEntry: 50 });
    for (const protocol of ["drs-n", "async"] as const) {
      const res = runProtocol(m, machine, { protocol, seed: 1, generateRecv: true });
      expect(res.generateRecvTime).toBeGreaterThan(0);
      const tl = res.timeline;
      const SEND = tl.kindNames.indexOf("send");
      for (let i = 0; i < tl.count; i++) {
        expect(tl.start[i]!).toBeGreaterThanOrEqual(res.generateRecvTime);
        if (tl.kind[i] === SEND) {
          const x = Array.from({ length: res.realised.transferCount }, (_, y) => y).find(
            (y) => res.realised.times!.end[y] === tl.end[i] && res.realised.src[y] === tl.node[i],
          );
          expect(x, `send interval ${i} matches a realised transfer`).toBeDefined();
        }
      }
    }
  });

  it("reports progress on long runs", () => {
    const m = buildMatrix({ p: 128, kind: "dense", seed: 1, maxEntry: 5 });
    const calls: [number, number][] = [];
    runProtocol(m, machine, { protocol: "drs-n", timeline: false, progress: (d, t) => void calls.push([d, t]) });
    expect(calls.length).toBeGreaterThan(0);
    for (const [d, t] of calls) {
      expect(t).toBe(128 * 127);
      expect(d).toBeLessThanOrEqual(t);
    }
  });
});

describe("run-time protocols (003 figs 2 and 5; 000 sec. 5): errors", () => {
  it("DRS_N never lets simulated time stand still: an inquiry floor, a stop when time cannot advance, a cap on inquiries", () => {
    const m = buildMatrix({ p: 4, kind: "dense", seed: 1, maxEntry: 3 });
    const isError = (f: () => unknown, re: RegExp): void => {
      try {
        f();
      } catch (e) {
        expect(isCommplanError(e)).toBe(true);
        expect(String((e as Error).message)).toMatch(re);
        return;
      }
      throw new Error("no error");
    };
    isError(
      () => runProtocol(m, machine, { protocol: "drs-n", inquiry: 1e-13 }),
      new RegExp(`inquiry must be a finite time >= ${MIN_INQUIRY}`),
    );
    expect(
      runProtocol(m, machine, { protocol: "drs-n", inquiry: MIN_INQUIRY, timeline: false }).makespan,
    ).toBeGreaterThan(0);
    // node 0 holds node 1 for ~8e14 us; node 2 sleeps (busy measure) until then, and at t = 8e14 an
    // inquiry of 1e-3 us is below the spacing of doubles: time would stop.
    const d = new Float64Array(9);
    d[0 * 3 + 1] = 1e6;
    d[2 * 3 + 1] = 1;
    const slow = { ...machine, td: 1e8 };
    isError(
      () =>
        runProtocol(matrixFromData(3, d, { elementBytes: 8 }), slow, {
          protocol: "drs-n",
          inquiry: MIN_INQUIRY,
          busyMeasure: true,
          timeline: false,
        }),
      /simulated time stopped advancing/,
    );
    // without the busy measure node 2 keeps inquiring: the cap stops it
    isError(
      () =>
        runProtocol(matrixFromData(3, d, { elementBytes: 8 }), slow, {
          protocol: "drs-n",
          inquiry: MIN_INQUIRY,
          maxInquiries: 1000,
          timeline: false,
        }),
      /more than 1000 inquiries/,
    );
    isError(() => runProtocol(m, machine, { protocol: "drs-n", maxInquiries: 0 }), /maxInquiries/);
  });

  it("rejects unknown protocols and a zero inquiry time", () => {
    const m = buildMatrix({ p: 4, kind: "dense", seed: 1, maxEntry: 3 });
    expect(() => runProtocol(m, machine, { protocol: "nope" as "async" })).toThrow(/unknown protocol/);
    expect(() => runProtocol(m, machine, { protocol: "drs-n", inquiry: 0 })).toThrow(/inquiry/);
    expect(() => runProtocol(m, machine, { protocol: "async", busyMeasure: true })).toThrow(
      /busyMeasure is a drs-n option/,
    );
    expect(() => runProtocol(m, machine, { protocol: "async", inquiry: 5 })).toThrow(/inquiry is a drs-n option/);
    expect(() => runProtocol(m, machine, { protocol: "drs-n", topology: "ocpc" })).toThrow(/ocpc/);
  });
});
