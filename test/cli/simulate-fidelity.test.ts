/** commplan simulate --recv-order, --envelope and --no-stage-barriers, commplan cost --envelope: the options that match a replay to an MPI runtime. */
import { describe, expect, it } from "vitest";
import { validateWithSchema } from "../../src/io/json-schema.js";
import { join } from "node:path";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("sim-fidelity");
const f = (name: string): string => join(dir, name);

describe("simulate --recv-order, --envelope; cost --envelope", () => {
  it("step order gives the lock-step time of a linear permutation; the envelope adds bytes per message", async () => {
    expect((await run("gen", "uniform", "--p", "61", "--size", "500", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "-a", "linear-permutation", "-o", f("s.json"))).code).toBe(0);
    const sim = async (...extra: string[]): Promise<number> => {
      const r = await run("simulate", f("s.json"), "--machine", "t3d-004", "--barrier", "0", "--json", ...extra);
      expect(r.code, extra.join(" ")).toBe(0);
      return JSON.parse(r.out).makespan as number;
    };
    const lock = await sim("--lockstep");
    const step = await sim("--recv-order", "step");
    const arrival = await sim("--recv-order", "arrival");
    expect(Math.abs(step - lock)).toBeLessThan(1e-9 * lock);
    expect(arrival).toBeGreaterThan(lock);
    expect(await sim()).toBe(arrival);
    const text = await run("simulate", f("s.json"), "--machine", "t3d-004", "--recv-order", "step");
    expect(text.out).toMatch(/send waits: steps, receives in step order/);
    // 61 steps with network messages (the linear permutation of P = 61 has no step of local copies only), each message 16 bytes longer: 61 x 16 x 0.043 us more
    const env = await sim("--lockstep", "--envelope", "16");
    expect(env - lock).toBeCloseTo(61 * 16 * 0.043, 6);
    const cost = async (...extra: string[]): Promise<number> => {
      const r = await run("cost", f("s.json"), "--machine", "t3d-004", "--json", ...extra);
      expect(r.code).toBe(0);
      return JSON.parse(r.out).total as number;
    };
    expect((await cost("--envelope", "16")) - (await cost())).toBeCloseTo(61 * 16 * 0.043, 6);
    // --json records both options (schema: commplan.simulation/v1)
    for (const [extra, recvOrder, envelope] of [
      [[], "arrival", 0],
      [["--recv-order", "step", "--envelope", "16"], "step", 16],
    ] as const) {
      const r = await run("simulate", f("s.json"), "--machine", "t3d-004", "--json", ...extra);
      const doc = JSON.parse(r.out) as { recvOrder: string; envelope: number };
      expect(() => validateWithSchema("simulation", doc, "test")).not.toThrow();
      expect([doc.recvOrder, doc.envelope]).toEqual([recvOrder, envelope]);
    }
  });

  it("--no-stage-barriers runs the stages as one (no barrier charged), recorded in the JSON; composes where each node reaches its stage", async () => {
    expect((await run("gen", "uniform", "--p", "8", "--size", "2", "-o", f("u.json"))).code).toBe(0);
    expect((await run("plan", f("u.json"), "-a", "te-direct", "-o", f("te.json"))).code).toBe(0);
    const sim = async (...extra: string[]): Promise<{ makespan: number; stageBarriers: boolean }> => {
      const r = await run("simulate", f("te.json"), "--machine", "ib-hdr-200", "--json", ...extra);
      expect(r.code, r.err).toBe(0);
      const doc = JSON.parse(r.out) as { makespan: number; stageBarriers: boolean };
      expect(() => validateWithSchema("simulation", doc, "test")).not.toThrow();
      return doc;
    };
    const withB = await sim();
    const without = await sim("--no-stage-barriers");
    expect([withB.stageBarriers, without.stageBarriers]).toEqual([true, false]);
    const text = await run("simulate", f("te.json"), "--machine", "ib-hdr-200", "--no-stage-barriers");
    expect(text.out).toMatch(/send waits: steps, no stage barriers\)/);
    // te-direct has two stages, each charged ib-hdr-200's 1.2 us barrier; without the barriers neither is
    expect(without.makespan).toBeLessThanOrEqual(withB.makespan - 2 * 1.2 + 1e-9);
    expect((await run("plan", f("u.json"), "-a", "four-stage", "-o", f("four.json"))).code).toBe(0);
    // blocking: each node composes when it reaches a rearranging stage; nonblocking keeps the barriers
    const four = await run("simulate", f("four.json"), "--machine", "sp2-004", "--no-stage-barriers", "--json");
    expect(four.code, four.err).toBe(0);
    const withFour = await run("simulate", f("four.json"), "--machine", "sp2-004", "--json");
    expect(JSON.parse(four.out).makespan).toBeLessThan(JSON.parse(withFour.out).makespan);
    const nb = await run(
      "simulate",
      f("four.json"),
      "--machine",
      "sp2-004",
      "--mode",
      "nonblocking",
      "--send-waits",
      "steps",
      "--no-stage-barriers",
    );
    expect(nb.code).toBe(2);
    expect(nb.err).toMatch(/without the stage barriers only blocking mode places each node's compose/);
  });

  it("refuses --recv-order with --protocol, an unknown order and a bad envelope, in one line", async () => {
    const cases: [string[], RegExp][] = [
      [["simulate", "--protocol", "async", f("m.json"), "--recv-order", "step"], /--recv-order does not apply/],
      [
        ["simulate", f("s.json"), "--recv-order", "fifo"],
        /^simulate: option '--recv-order <order>': unknown value 'fifo'; known: arrival, step \(add/,
      ],
      [["simulate", f("s.json"), "--envelope", "-1"], /--envelope must be an integer in 0\.\./],
      [["cost", f("s.json"), "--envelope", "x"], /--envelope must be an integer in 0\.\./],
      [["simulate", f("s.json"), "--lockstep", "--topology", "ocpc", "--recv-order", "step"], /does not apply/],
      [["simulate", "--protocol", "async", f("m.json"), "--no-stage-barriers"], /--no-stage-barriers does not apply/],
      [["simulate", f("s.json"), "--lockstep", "--no-stage-barriers"], /lock-step already puts a barrier/],
    ];
    for (const [args, msg] of cases) {
      const r = await run(...args, "--machine", "t3d-004");
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toMatch(msg);
      expect(r.err.trim().split("\n")).toHaveLength(1);
    }
  });
});
