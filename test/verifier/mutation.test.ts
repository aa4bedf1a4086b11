import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { matrixFromRows, type CommMatrix } from "../../src/model/matrix.js";
import { ScheduleBuilder, type Schedule } from "../../src/model/schedule.js";
import { matrixDigest } from "../../src/model/matrix.js";
import { plan } from "../../src/planner/index.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";
import { pack, unpack, type Chunk, type PlainStage, type PlainTransfer } from "../helpers/schedule-edit.js";

const failing = (m: CommMatrix, s: Schedule): string[] =>
  verifySchedule(m, s)
    .checks.filter((c) => !c.holds)
    .map((c) => c.id);

/** A mutation: returns the changed stages, or null when the plan has nothing to mutate. */
type Mutation = (st: PlainStage[], pick: number) => PlainStage[] | null;

const allTransfers = (st: PlainStage[]) =>
  st.flatMap((g) => g.steps.flatMap((s) => s.transfers.filter((t) => t.src !== t.dst)));

/** Removes transfers left with no elements. */
const dropEmpty = (st: PlainStage[]): void => {
  for (const g of st) for (const s of g.steps) s.transfers = s.transfers.filter((x) => x.size > 0);
};

/** Direct planners send every element once; relay planners (two-stage, four-stage) forward through intermediates. */
const DIRECT = ["linear-permutation", "shift"] as const,
  RELAY = ["two-stage", "four-stage"] as const;

/**
 * Each mutation with the checks that must catch it, on direct and on relay plans (null: does not
 * apply). Dropping a chunk of a relay plan's last hop leaves the elements short at their
 * destination; dropping one that is forwarded later makes the forwarder send what it never got.
 */
const MUTATIONS: Record<string, { mutate: Mutation; direct: string[] | null; relay: string[] | null }> = {
  "drop a chunk": {
    direct: ["delivery"],
    relay: ["sizes-add-up"],
    mutate: (st, pick) => {
      const ts = allTransfers(st);
      if (ts.length === 0) return null;
      const t = ts[pick % ts.length]!;
      const c = t.chunks!.pop()!;
      t.size -= c[3];
      dropEmpty(st);
      return st;
    },
  },
  "drop a chunk in a middle stage (one its receiver forwards later)": {
    direct: null,
    relay: ["causality", "sizes-add-up"],
    mutate: (st, pick) => {
      const ts = allTransfers(st).filter((t) => t.chunks!.some((c) => c[1] !== t.dst));
      if (ts.length === 0) return null;
      const t = ts[pick % ts.length]!;
      const [c] = t.chunks!.splice(
        t.chunks!.findIndex((x) => x[1] !== t.dst),
        1,
      );
      t.size -= c![3];
      dropEmpty(st);
      return st;
    },
  },
  "duplicate a chunk": {
    direct: ["causality"],
    relay: ["causality"],
    mutate: (st, pick) => {
      const ts = allTransfers(st);
      if (ts.length === 0) return null;
      const t = ts[pick % ts.length]!;
      const c = t.chunks![0]!;
      t.chunks!.push([...c]);
      t.size += c[3];
      return st;
    },
  },
  "forward before arrival": {
    direct: ["causality"],
    relay: ["causality"],
    mutate: (st, pick) => {
      // reroute one message i -> j through a relay k inside one step: k forwards what it has not received yet
      const steps = st.flatMap((g) => g.steps);
      const cands = steps.flatMap((s) => s.transfers.filter((t) => t.src !== t.dst).map((t) => ({ s, t })));
      if (cands.length === 0) return null;
      const { s, t } = cands[pick % cands.length]!;
      const p = Math.max(...steps.flatMap((x) => x.transfers.flatMap((y) => [y.src, y.dst]))) + 1;
      const k = [...Array(p + 1).keys()].find((n) => n !== t.src && n !== t.dst)!;
      s.transfers = s.transfers.filter((x) => x !== t);
      s.transfers.push(
        { src: t.src, dst: k, size: t.size, chunks: t.chunks },
        { src: k, dst: t.dst, size: t.size, chunks: t.chunks!.map((c) => [...c] as typeof c) },
      );
      return st;
    },
  },
  "forward a relayed chunk in the step it arrives": {
    direct: null,
    relay: ["causality"],
    mutate: (st, pick) => {
      // a chunk node u forwards in step t1 that reached u in step t0 < t1 moves into u's send of step t0 (or a new one)
      const steps = st.flatMap((g) => g.steps);
      const cands: { t: PlainTransfer; c: Chunk; t0: number }[] = [];
      steps.forEach((s, t1) => {
        for (const t of s.transfers) {
          if (t.src === t.dst) continue;
          for (const c of t.chunks!) {
            if (c[0] === t.src) continue;
            const t0 = steps.findIndex(
              (x, k) =>
                k < t1 &&
                x.transfers.some(
                  (a) =>
                    a.dst === t.src &&
                    a.src !== a.dst &&
                    a.chunks!.some((d) => d[0] === c[0] && d[1] === c[1] && d[2] <= c[2] && d[2] + d[3] >= c[2] + c[3]),
                ),
            );
            if (t0 >= 0) cands.push({ t, c, t0 });
          }
        }
      });
      if (cands.length === 0) return null;
      const { t, c, t0 } = cands[pick % cands.length]!;
      t.chunks = t.chunks!.filter((x) => x !== c);
      t.size -= c[3];
      const into = steps[t0]!.transfers.find((x) => x.src === t.src && x.src !== x.dst);
      if (into) {
        into.chunks!.push(c);
        into.size += c[3];
      } else steps[t0]!.transfers.push({ src: t.src, dst: t.dst, size: c[3], chunks: [c] });
      dropEmpty(st);
      return st;
    },
  },
  "two senders into one receiver": {
    direct: ["node-contention"],
    relay: ["node-contention"],
    mutate: (st, pick) => {
      // move a transfer into another step in which its receiver already receives
      const steps = st.flatMap((g) => g.steps);
      for (let a = 0; a < steps.length; a++) {
        for (const t of steps[(a + pick) % steps.length]!.transfers) {
          if (t.src === t.dst) continue;
          const from = steps[(a + pick) % steps.length]!;
          const into = steps.find(
            (s) => s !== from && s.transfers.some((x) => x.dst === t.dst && x.src !== t.src && x.src !== x.dst),
          );
          if (!into) continue;
          from.transfers = from.transfers.filter((x) => x !== t);
          into.transfers.push(t);
          return st;
        }
      }
      return null;
    },
  },
  "a size that does not match its chunks": {
    direct: ["well-formed"],
    relay: ["well-formed"],
    mutate: (st, pick) => {
      const ts = allTransfers(st);
      if (ts.length === 0) return null;
      ts[pick % ts.length]!.size += 1;
      return st;
    },
  },
};

describe("the verifier catches every mutant of a valid plan (DESIGN.md mutation test)", () => {
  for (const [name, { mutate, direct, relay }] of Object.entries(MUTATIONS)) {
    for (const [kind, algorithms, ids] of [
      ["direct", DIRECT, direct],
      ["relay", RELAY, relay],
    ] as const) {
      if (ids === null) continue;
      it(`${name} (${kind} plans: ${algorithms.join(", ")})`, () => {
        let mutants = 0;
        fc.assert(
          fc.property(
            matrixRecipe({ minP: 3, maxP: 24, kinds: ["dense", "sparse", "spike", "permutation", "empty-rows"] }),
            fc.constantFrom(...algorithms),
            fc.nat(),
            (r, algorithm, pick) => {
              const m = buildMatrix({ ...r, maxEntry: Math.min(r.maxEntry, 100) });
              const s = plan(m, algorithm, { payload: true });
              expect(verifySchedule(m, s).ok).toBe(true);
              const changed = mutate(unpack(s), pick);
              if (!changed) return;
              mutants++;
              const bad = failing(m, pack(s, changed));
              for (const id of ids) expect(bad, `${algorithm}`).toContain(id);
            },
          ),
          { numRuns: kind === "relay" ? 30 : 60 },
        );
        expect(mutants).toBeGreaterThan(10);
      });
    }
  }
});

describe("verifier on hand-made schedules", () => {
  const m = matrixFromRows([
    [0, 4, 0],
    [0, 0, 2],
    [3, 0, 0],
  ]);
  const header = { p: 3, algorithm: "hand", params: {}, seed: null, elementBytes: 8, matrixDigest: matrixDigest(m) };

  it("accepts a relay through an intermediate when the element arrives first", () => {
    const b = new ScheduleBuilder(header, true);
    b.stage("a").step();
    b.transfer(0, 2, 4);
    b.chunk(0, 1, 0, 4);
    b.transfer(1, 0, 2); // 1 sends its message for 2 to 0
    b.chunk(1, 2, 0, 2);
    b.step();
    b.transfer(2, 1, 4);
    b.chunk(0, 1, 0, 4);
    b.transfer(0, 2, 2);
    b.chunk(1, 2, 0, 2);
    b.step();
    b.transfer(2, 0, 3);
    b.chunk(2, 0, 0, 3);
    const r = verifySchedule(m, b.build());
    expect(r.checks.filter((c) => !c.holds)).toEqual([]);
    expect(r.ok).toBe(true);
    const peak = r.checks.find((c) => c.id === "peak-buffer")!;
    expect(peak.measured).toBe(7); // node 2 holds its own 3 plus 0's 4 after step 0
  });

  it("names an element that ends at the wrong node", () => {
    const b = new ScheduleBuilder(header, true);
    b.stage("a").step();
    b.transfer(0, 2, 4);
    b.chunk(0, 1, 0, 4);
    b.transfer(1, 0, 2);
    b.chunk(1, 2, 0, 2);
    b.step();
    b.transfer(2, 0, 3);
    b.chunk(2, 0, 0, 3);
    b.transfer(0, 2, 2);
    b.chunk(1, 2, 0, 2);
    const r = verifySchedule(m, b.build());
    const d = r.checks.find((c) => c.id === "delivery")!;
    expect(d.holds).toBe(false);
    expect(d.witness).toBe("elements 0..3 of message 0 -> 1 end at node 2, not 1");
    expect(r.checks.find((c) => c.id === "sizes-add-up")!.holds).toBe(false);
  });

  it("rejects a stalled node that sends (receiving is allowed), and a schedule for another matrix", () => {
    const b = new ScheduleBuilder(header, false);
    b.stage("a").step();
    b.transfer(0, 1, 4);
    b.stall(1);
    b.step();
    b.transfer(2, 0, 3);
    b.stall(0);
    b.step();
    b.stall(1);
    b.transfer(1, 2, 2);
    const ok = b.build();
    expect(verifySchedule(m, ok).checks.find((c) => c.id === "stalls")!.holds).toBe(false);
    const b2 = new ScheduleBuilder(header, false);
    b2.stage("a").step();
    b2.transfer(0, 1, 4);
    b2.stall(1);
    b2.step();
    b2.transfer(1, 2, 2);
    b2.transfer(2, 0, 3);
    const s = b2.build();
    expect(verifySchedule(m, s).checks.find((c) => c.id === "stalls")!.holds).toBe(true);
    expect(() =>
      verifySchedule(
        matrixFromRows([
          [0, 1],
          [1, 0],
        ]),
        s,
      ),
    ).toThrow(/P = 3, the matrix has P = 2/);
    expect(() =>
      verifySchedule(
        matrixFromRows([
          [0, 4, 0],
          [0, 0, 2],
          [3, 1, 0],
        ]),
        s,
      ),
    ).toThrow(/another matrix/);
  });

  it("message-level: a node that sends more than it holds fails sizes-add-up", () => {
    const b = new ScheduleBuilder(header, false);
    b.stage("a").step();
    b.transfer(1, 2, 5);
    b.step();
    b.transfer(0, 1, 4);
    b.transfer(2, 0, 3);
    const c = verifySchedule(m, b.build()).checks.find((x) => x.id === "sizes-add-up")!;
    expect(c.holds).toBe(false);
    expect(c.witness).toMatch(/step 0: node 1 sends 5 elements but holds only 2/);
  });
});
