/** verifyOrThrow, the matchers and the planner and runtime properties, against correct and buggy planners and executors. */
import { describe, expect, it } from "vitest";
import {
  asyncPlannerProperty,
  commplanMatchers,
  fc,
  matrixArb,
  matrixFromRows,
  planFailure,
  plannerProperty,
  replayFailure,
  scheduleFromOutput,
  runtimeProperty,
  ScheduleCheckError,
  trafficLowerBound,
  verifyOrThrow,
  type CommMatrix,
  type RuntimeInput,
} from "../../src/testing/index.js";
import { plan } from "../../src/planner/index.js";
import { matrixFromEntries, toSparse } from "../../src/model/matrix.js";
import { findMachine, scheduleCost } from "../../src/machines/index.js";
import { scheduleToJsonText } from "../../src/io/index.js";
import { plan as twoHop } from "../fixtures/planners/two-hop.mjs";
import { plan as forwardEarly } from "../fixtures/planners/forward-early.mjs";
import { plan as twoSenders } from "../fixtures/planners/two-senders.mjs";

expect.extend(commplanMatchers);
declare module "vitest" {
  interface Assertion {
    toBeValidScheduleFor(matrix: CommMatrix, options?: object): void;
  }
}

const m3 = matrixFromRows([
  [0, 0, 0],
  [1, 0, 0],
  [1, 0, 0],
]);

/** Runs a property; the failure's check, witness and counterexample. */
function failureOf(prop: fc.IProperty<[CommMatrix]>, seed = 1) {
  const r = fc.check(prop, { seed, numRuns: 200 });
  const e = r.errorInstance as ScheduleCheckError | undefined;
  return { failed: r.failed, check: e?.check, witness: e?.witness, m: r.counterexample?.[0] };
}

describe("verifyOrThrow and toBeValidScheduleFor", () => {
  it("return the report for a valid schedule, whether a Schedule, its JSON text or a plain object without header", () => {
    const s = plan(m3, "linear-permutation", { payload: true });
    expect(verifyOrThrow(m3, s).ok).toBe(true);
    expect(verifyOrThrow(m3, scheduleToJsonText(s)).ok).toBe(true);
    expect(verifyOrThrow(m3, twoHop(m3)).ok).toBe(true);
    expect(s).toBeValidScheduleFor(m3);
    expect(twoSenders(m3)).not.toBeValidScheduleFor(m3);
  });

  it("throw the failed check's name and its witness", () => {
    let e: unknown;
    try {
      verifyOrThrow(m3, twoSenders(m3));
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(ScheduleCheckError);
    expect((e as ScheduleCheckError).check).toBe("node-contention");
    expect((e as ScheduleCheckError).witness).toMatch(/node 0 receives 2 messages/);
    // the message starts with the module, as the kit's other errors ("testing: matrixArb: ...") do
    expect((e as ScheduleCheckError).message).toMatch(
      /^testing: check 'node-contention' fails \(.*\): step 0: node 0 /,
    );
    expect(() => expect(twoSenders(m3)).toBeValidScheduleFor(m3)).toThrow(
      /3 x 3 matrix: check 'node-contention' fails .*node 0 receives 2 messages/,
    );
  });

  it("name unreadable output, a schedule for another matrix and the stated bounds", () => {
    expect(() => verifyOrThrow(m3, { stages: [{ steps: [{ transfers: [{ src: 9, dst: 0, size: 1 }] }] }] })).toThrow(
      /check 'schedule-json' fails .*src/,
    );
    expect(() => verifyOrThrow(m3, "{")).toThrow(/check 'schedule-json'/);
    const other = matrixFromRows([
      [0, 2, 0],
      [1, 0, 0],
      [1, 0, 0],
    ]);
    expect(() => verifyOrThrow(other, plan(m3, "linear-permutation"))).toThrow(/check 'made-for'/);
    expect(() => verifyOrThrow(m3, twoHop(m3), { maxSteps: 0 })).toThrow(/check 'max-steps' fails .*2 steps/);
    expect(() => verifyOrThrow(m3, twoHop(m3), { maxBuffer: 1 })).toThrow(/check 'max-buffer' fails .*node 0 holds 2/);
  });

  it("say what the planner returned instead of a schedule: a matrix document, an object's keys, an array, a number", () => {
    const said = (out: unknown): string => {
      try {
        scheduleFromOutput(out, m3);
      } catch (e) {
        return (e as Error).message;
      }
      return "accepted";
    };
    expect(said({ format: "commplan.matrix/v1", p: 3, rows: [] })).toMatch(
      /returned a 'commplan\.matrix\/v1' document, not a schedule/,
    );
    expect(said({ a: 1, b: 2, c: 3, d: 4, e: 5 })).toMatch(
      /returned an object with 'a', 'b', 'c', 'd', \.\.\. but no 'stages', not a schedule/,
    );
    expect(said({})).toMatch(/returned an empty object, not/);
    expect(said([1, 2])).toMatch(/returned an array of 2, not/);
    expect(said(7)).toMatch(/returned a number, not/);
    expect(said(null)).toMatch(/returned null, not/);
    expect(said(undefined)).toMatch(/returned undefined, not/);
    // a sync property given an async planner: the Promise is named, not read as an empty object
    expect(said(Promise.resolve({ stages: [] }))).toMatch(
      /returned a Promise \(an async planner: .*asyncPlannerProperty\)/,
    );
  });

  it("fail a relaying plan without payloads as unproven delivery unless allowUnproven", () => {
    const rows = matrixFromRows([
      [0, 0, 1],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    const s = twoHop(rows) as { stages: { steps: { transfers: { chunks?: unknown }[] }[] }[] };
    for (const st of s.stages) for (const sp of st.steps) for (const t of sp.transfers) delete t.chunks;
    expect(() => verifyOrThrow(rows, s)).toThrow(/check 'delivery' fails .*unproven at message level/);
    expect(verifyOrThrow(rows, s, { allowUnproven: true }).ok).toBe(true);
  });
});

describe("plannerProperty", () => {
  it("passes a correct planner and shrinks each bug to a 3-node counterexample with its check", () => {
    expect(fc.check(plannerProperty(twoHop), { seed: 1, numRuns: 150 }).failed).toBe(false);
    const early = failureOf(plannerProperty(forwardEarly));
    expect(early).toMatchObject({ failed: true, check: "causality" });
    expect(early.m!.p).toBe(3);
    const two = failureOf(plannerProperty(twoSenders));
    expect(two).toMatchObject({ failed: true, check: "node-contention" });
    expect(two.m!.p).toBe(3);
    expect(Array.from(two.m!.data).filter((v) => v > 0)).toEqual([1, 1]);
  });

  it("a planner that throws fails check 'planner'; the async form awaits a promise", async () => {
    const boom = failureOf(
      plannerProperty(() => {
        throw new Error("no plan today");
      }),
    );
    expect(boom).toMatchObject({ failed: true, check: "planner", witness: "no plan today" });
    const r = await fc.check(
      asyncPlannerProperty(async (m) => twoSenders(m)),
      { seed: 1, numRuns: 100 },
    );
    expect((r.errorInstance as ScheduleCheckError).check).toBe("node-contention");
  });

  it("replayFailure takes the synchronous planner of plannerProperty too (typed PlanFn, checked by tsc)", async () => {
    const sync = (m: CommMatrix): unknown => twoSenders(m);
    const r = fc.check(plannerProperty(sync), { seed: 1, numRuns: 100 });
    expect(r.failed).toBe(true);
    expect(await replayFailure(sync, r.counterexample![0])).toMatchObject({ check: "node-contention" });
    expect(await replayFailure(async (m) => twoSenders(m), r.counterexample![0])).toMatchObject({
      check: "node-contention",
    });
  });

  it("the traffic bound is below the modelled time of commplan's planners, and a time factor catches a slow planner", () => {
    const machine = findMachine("t3d-004");
    fc.assert(
      fc.property(matrixArb({ maxP: 7 }), (m) => {
        for (const a of ["linear-permutation", "shift"]) {
          const s = plan(m, a);
          for (const mode of ["blocking", "nonblocking"] as const)
            expect(scheduleCost(s, machine, mode).total).toBeGreaterThanOrEqual(trafficLowerBound(m, machine));
        }
      }),
      { seed: 7, numRuns: 100 },
    );
    // the two-hop planner sends every element twice: within 1.0 x the bound it fails
    const slow = failureOf(plannerProperty(twoHop, { time: { machine: "t3d-004", factor: 1 } }));
    expect(slow).toMatchObject({ failed: true, check: "modelled-time" });
    expect(slow.witness).toMatch(/us on t3d-004 \(nonblocking\), bound/);
  });

  it("trafficLowerBound takes a preset name as the time bound does, and refuses a bad machine in one line", () => {
    const t3d = findMachine("t3d-004");
    expect(trafficLowerBound(m3, "t3d-004")).toBeGreaterThan(t3d.barrier);
    expect(trafficLowerBound(m3, "t3d-004")).toBe(trafficLowerBound(m3, t3d));
    expect(() => trafficLowerBound(m3, "t3d")).toThrow(/^machines: unknown machine 't3d' \(did you mean t3d-004/);
    const bad = "testing: trafficLowerBound: machine must be a MachineModel or a preset name: ";
    expect(() => trafficLowerBound(m3, 42 as never)).toThrow(`${bad}the machine is not a machine model object`);
    expect(() => trafficLowerBound(m3, { ...t3d, td: Number.NaN })).toThrow(
      `${bad}machine t3d-004: td = NaN is not a finite number >= 0`,
    );
  });

  it("trafficLowerBound and the time bound read a sparse matrix's entries, with no dense copy of it", () => {
    expect(trafficLowerBound(toSparse(m3), "t3d-004")).toBe(trafficLowerBound(m3, "t3d-004"));
    // P = 200000: a dense copy (298 GiB) was refused past the memory budget
    const big = matrixFromEntries(200000, [
      [0, 1, 5],
      [1, 0, 3],
      [2, 2, 9],
    ]);
    const t3d = findMachine("t3d-004");
    expect(trafficLowerBound(big, t3d)).toBe(t3d.barrier + (5 * 8 * t3d.td) / Math.max(1, t3d.ports));
    const swap = {
      stages: [
        {
          steps: [
            {
              transfers: [
                { src: 0, dst: 1, size: 5 },
                { src: 1, dst: 0, size: 3 },
              ],
            },
          ],
        },
      ],
    };
    expect(verifyOrThrow(big, swap, { time: { machine: t3d, factor: 100 } }).ok).toBe(true);
  });
});

/** A direct planner (step k: i -> i + k) that zeroes each entry of its input as it schedules it. */
function zeroing(m: CommMatrix) {
  const { p } = m;
  const s = m.sparse;
  const steps: { transfers: { src: number; dst: number; size: number }[] }[] = [];
  for (let k = 1; k < p; k++) {
    const transfers = [];
    for (let i = 0; i < p; i++) {
      const j = (i + k) % p;
      let n = 0;
      if (s === undefined) {
        n = m.data[i * p + j]!;
        m.data[i * p + j] = 0;
      } else
        for (let x = s.rowStart[i]!; x < s.rowStart[i + 1]!; x++)
          if (s.col[x] === j) {
            n = s.val[x]!;
            s.val[x] = 0;
          }
      if (n > 0) transfers.push({ src: i, dst: j, size: n });
    }
    steps.push({ transfers });
  }
  return { algorithm: "zeroing", stages: [{ steps }] };
}

describe("plannerProperty: the planner's input", () => {
  it("is a copy: a planner that clears it fails 'input-unchanged', and the drawn matrix keeps its entries", () => {
    const clobber = (m: CommMatrix) => {
      m.data.fill(0);
      return { stages: [] };
    };
    const r = failureOf(plannerProperty(clobber, { matrices: matrixArb({ maxP: 6 }) }));
    expect(r).toMatchObject({ failed: true, check: "input-unchanged" });
    expect(r.witness).toBe("the planner changed its input (P = 2, dense storage): M[0][1] was 1, is 0 after the call");
    expect(Array.from(r.m!.data)).toEqual([0, 1, 0, 0]);
    const before = Array.from(m3.data);
    expect(planFailure(clobber, m3)?.check).toBe("input-unchanged");
    expect(Array.from(m3.data)).toEqual(before);
  });

  it("a planner that zeroes entries as it schedules fails 'input-unchanged' (not 'deterministic'), dense or sparse", async () => {
    const dense = failureOf(plannerProperty(zeroing, { matrices: matrixArb({ maxP: 6 }) }));
    expect(dense).toMatchObject({ failed: true, check: "input-unchanged" });
    expect(dense.witness).toMatch(/^the planner changed its input \(P = 2, dense storage\): M\[\d\]\[\d\] was 1, is 0/);
    const sparse = failureOf(plannerProperty(zeroing, { matrices: matrixArb({ maxP: 6, storage: "sparse" }) }));
    expect(sparse).toMatchObject({ failed: true, check: "input-unchanged" });
    expect(sparse.witness).toMatch(
      /\(P = 2, sparse storage\): sparse entry 0 was M\[\d\]\[\d\] = 1, is M\[\d\]\[\d\] = 0 /,
    );
    expect(sparse.m!.sparse!.val[0]).toBe(1);
    // a sparse matrix's data is a dense copy of its storage, made on first read: a change there is seen too
    const viaData = failureOf(
      plannerProperty((m) => zeroing({ p: m.p, elementBytes: m.elementBytes, data: m.data }), {
        matrices: matrixArb({ maxP: 6, storage: "sparse" }),
      }),
    );
    expect(viaData.witness).toMatch(/is 0 after the call \(in its data, the dense copy of its sparse storage\)$/);
    const r = await fc.check(
      asyncPlannerProperty(async (m) => zeroing(m), { matrices: matrixArb({ maxP: 6, storage: "mixed" }) }),
      { seed: 1, numRuns: 100 },
    );
    expect((r.errorInstance as ScheduleCheckError).check).toBe("input-unchanged");
    // the same planner on a copy it may change passes: the schedule is verified against the drawn matrix
    const copying = (m: CommMatrix) => zeroing({ p: m.p, elementBytes: m.elementBytes, data: m.data.slice() });
    expect(fc.check(plannerProperty(copying), { seed: 1, numRuns: 100 }).failed).toBe(false);
  });
});

/** An executor that runs step s in [s, s + 1): what a correct runtime does. */
const byStep = ({ schedule: s }: RuntimeInput) => {
  const start: number[] = [],
    end: number[] = [];
  for (let st = 0; st < s.stepCount; st++)
    for (let x = s.stepStart[st]!; x < s.stepStart[st + 1]!; x++) {
      start.push(st);
      end.push(st + 1);
    }
  return { start, end };
};

describe("runtimeProperty", () => {
  it("passes an executor that keeps the steps apart", async () => {
    expect((await fc.check(runtimeProperty(byStep), { seed: 1, numRuns: 60 })).failed).toBe(false);
  });

  it("finds an executor that starts every transfer at once (timed contention) and one that returns too few times", async () => {
    const r = await fc.check(
      runtimeProperty(({ schedule }) => ({
        start: new Array<number>(schedule.transferCount).fill(0),
        end: new Array<number>(schedule.transferCount).fill(5),
      })),
      { seed: 1, numRuns: 100 },
    );
    expect((r.errorInstance as ScheduleCheckError).check).toBe("timed-contention");
    expect(r.counterexample![0].p).toBe(3);
    const short = await fc.check(
      runtimeProperty(() => ({ start: [], end: [] })),
      { seed: 1, numRuns: 100 },
    );
    expect((short.errorInstance as ScheduleCheckError).witness).toMatch(/0 start and 0 end times for 1 transfers/);
  });

  it("finds a relay that forwards before the data arrived in time (timed causality), with a two-hop plan", async () => {
    const early = ({ schedule: s }: RuntimeInput) => {
      // the gather step (step 0) is late: it runs after everything else
      const t = byStep({ schedule: s } as RuntimeInput);
      const n0 = s.stepCount > 0 ? s.stepStart[1]! : 0;
      for (let x = 0; x < n0; x++) {
        t.start[x] = s.stepCount + 1;
        t.end[x] = s.stepCount + 2;
      }
      return t;
    };
    const r = await fc.check(runtimeProperty(early, { plan: (m) => scheduleFromOutput(twoHop(m), m) }), {
      seed: 1,
      numRuns: 100,
    });
    expect((r.errorInstance as ScheduleCheckError).check).toBe("timed-causality");
    expect((r.errorInstance as ScheduleCheckError).witness).toMatch(/forwarding elements of message/);
    expect((r.errorInstance as ScheduleCheckError).message).toMatch(/^testing: check 'timed-causality' fails /);
    expect(r.counterexample![0].p).toBe(3);
  });

  it("checks the plan option's schedule before lowering it: a malformed one fails the run, the executor is never called", async () => {
    let calls = 0;
    const exec = (input: RuntimeInput) => {
      calls++;
      return byStep(input);
    };
    // a hand-built schedule whose stall offsets pass the end of its stall table
    const broken = (m: Parameters<typeof plan>[0]) => ({ ...plan(m, "shift", {}), stallStart: new Uint32Array(0) });
    const r = await fc.check(runtimeProperty(exec, { plan: broken }), { seed: 1, numRuns: 20 });
    expect((r.errorInstance as ScheduleCheckError).check).toBe("well-formed");
    expect((r.errorInstance as ScheduleCheckError).witness).toMatch(/^stallStart has 0 entries, not \d+$/);
    expect(calls).toBe(0);
  });

  it("the plan option may return what a planner under test does: a plain schedule object (header left out)", async () => {
    // it was taken for a Schedule: 'verify: the schedule is for P = undefined'
    const shift = ({ p, data }: CommMatrix) => {
      const steps = [];
      for (let k = 1; k < p; k++) {
        const transfers = [];
        for (let i = 0; i < p; i++) {
          const j = (i + k) % p;
          const n = data[i * p + j]!;
          if (n > 0) transfers.push({ src: i, dst: j, size: n, chunks: [[i, j, 0, n] as const] });
        }
        steps.push({ transfers });
      }
      return { algorithm: "user-shift", stages: [{ steps }] };
    };
    const r = await fc.check(runtimeProperty(byStep, { plan: shift, matrices: matrixArb({ maxP: 5 }) }), {
      seed: 1,
      numRuns: 30,
    });
    expect(r.failed).toBe(false);
    const text = await fc.check(runtimeProperty(byStep, { plan: (m) => JSON.stringify(shift(m)) }), {
      seed: 1,
      numRuns: 10,
    });
    expect(text.failed).toBe(false);
  });

  it("refuses bad options up front in one line (ports, variant, options not an object), not in every run", () => {
    const exec = () => ({ start: [], end: [] });
    expect(() => runtimeProperty(exec, { ports: 0 })).toThrow(/^testing: ports must be a positive integer/);
    expect(() => runtimeProperty(exec, { variant: "eager" as "blocking" })).toThrow(
      /^testing: variant must be nonblocking, blocking, dataflow, got "eager"$/,
    );
    expect(() => runtimeProperty(exec, null as unknown as object)).toThrow(/^testing: options must be an object/);
    expect(() => runtimeProperty(exec, { ports: Infinity, variant: "dataflow" })).not.toThrow();
    // a planner or executor that is not a function failed every run with 'plan is not a function'
    expect(() => runtimeProperty("exec.mjs" as never)).toThrow(
      /^testing: runtimeProperty: exec must be a function, got "exec\.mjs"$/,
    );
    expect(() => plannerProperty(undefined as never)).toThrow(/^testing: plannerProperty: plan must be a function/);
    expect(() => asyncPlannerProperty({} as never)).toThrow(/^testing: asyncPlannerProperty: plan must be a function/);
  });
});
