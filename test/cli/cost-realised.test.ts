import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("cost-realised");
const f = (name: string): string => join(dir, name);

// docs/cost-model.md: a realised trace has a step per issue time; `cost` sums them as lock-step steps (21,951 us for a
// DRS_N run that took 3,362 us) and used to say nothing about it
describe("cost of a realised trace", () => {
  it("notes that the trace's steps are issue times and gives the trace's own end (the run's makespan)", async () => {
    expect((await run("gen", "wang-set2", "--p", "32", "--d", "8", "--seed", "2", "-o", f("m.json"))).code).toBe(0);
    const sim = await run(
      ...["simulate", "--protocol", "drs-n", f("m.json"), "--machine", "cm5-004", "--realised", f("r.json"), "--json"],
    );
    expect(sim.code).toBe(0);
    const makespan = (JSON.parse(sim.out) as { makespan: number }).makespan;
    const cost = await run("cost", f("r.json"), "--machine", "cm5-004");
    expect(cost.code).toBe(0);
    expect(cost.out).toMatch(/^blocking cost on cm5-004: 21,951 us /);
    expect(Math.round(makespan)).toBe(3362);
    expect(cost.err).toBe(
      "cost: note: a realised trace (its transfers carry start and end times): the flat model costs its 217 steps " +
        "(one per issue time) as lock-step steps; the trace itself ends at 3,362 us (docs/cost-model.md)\n",
    );
  });
  it("says nothing of the kind for a plan", async () => {
    expect((await run("gen", "uniform", "--p", "4", "-o", f("u.json"))).code).toBe(0);
    expect((await run("plan", f("u.json"), "-a", "shift", "-o", f("s.json"))).code).toBe(0);
    const cost = await run("cost", f("s.json"), "--machine", "cm5-004");
    expect([cost.code, cost.err]).toEqual([0, ""]);
  });
});
