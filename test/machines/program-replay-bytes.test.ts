/**
 * The program replay's memory estimate (replayWorkBytes): above what a finished replay holds, on random programs of
 * every variant, on the flat cluster and on networks, with and without the timeline; and simulate --program and
 * --library refuse a replay past --max-memory in one line before it runs.
 */
import fc from "fast-check";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lowerSchedule } from "../../src/lower/index.js";
import { findMachine } from "../../src/machines/presets.js";
import { flatClusterNetwork } from "../../src/machines/program-replay/cluster-network.js";
import { replayHeldBytes } from "../../src/machines/program-replay/replay-engine.js";
import { replayWorkBytes } from "../../src/machines/program-replay/replay-bytes.js";
import { replayOpsOf } from "../../src/machines/program-replay/replay-ops.js";
import { findRuntimeModel } from "../../src/machines/runtime/runtime-model.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { plan } from "../../src/planner/registry.js";
import { buildTopology, compileRoutes } from "../../src/topology/index.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const machine = findMachine("ib-hdr-200");

describe("replayWorkBytes", () => {
  it("is above what a replay holds, and within a few times of it on programs of a thousand operations or more", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 80 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.constantFrom("shift", "two-stage", "mpi-linear", "coloring"),
        fc.constantFrom("nonblocking", "blocking", "dataflow"),
        fc.constantFrom("flat", "fat-tree:k=8,oversub=4", "dragonfly"),
        fc.boolean(),
        (p, seed, name, variant, net, timeline) => {
          const m = generatePattern("random", p, { density: 0.5, max: 500 }, seed);
          const prog = lowerSchedule(m, plan(m, name, { payload: true }), {
            variant: variant as "nonblocking",
          }).program;
          const ops = replayOpsOf(prog);
          const cluster = flatClusterNetwork(p, machine);
          const routes = net === "flat" ? cluster.routes : compileRoutes(buildTopology(net, p, machine));
          const held = replayHeldBytes(ops, {
            network: routes,
            ...(net === "flat" ? { fatpipe: cluster.fatpipe } : {}),
            runtime: findRuntimeModel("ib-hdr-200-mpi"),
            copyUsPerByte: machine.tm,
            timeline,
          });
          const estimate = replayWorkBytes(ops, routes, timeline);
          expect(estimate).toBeGreaterThanOrEqual(held);
          if (ops.kind.length >= 1000) expect(estimate).toBeLessThan(3 * held);
        },
      ),
      { numRuns: 40, seed: 5 },
    );
  });
});

describe("simulate --program and --library under --max-memory", () => {
  it("refuse a replay past the budget in one line naming its estimate, and run it under one that holds it", async () => {
    const dir = tempDir("replay-bytes");
    const f = (name: string): string => join(dir, name);
    expect((await run("gen", "uniform", "--ranks", "40", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "-a", "two-stage", "--payload", "-o", f("s.json"))).code).toBe(0);
    expect((await run("export", f("s.json"), "-m", f("m.json"), "-f", "program", "-o", f("p.json"))).code).toBe(0);
    for (const args of [
      ["--program", f("p.json")],
      [f("m.json"), "--library", "default"],
    ]) {
      const sim = (budget: number) =>
        run("simulate", ...args, "--machine", "ib-hdr-200", "--svg", f("g.svg"), "--max-memory", `${budget}M`);
      // the readers' refusals come first: the budget rises to each refusal's figure until the replay's own refusal
      let budget = 1,
        over = { code: 0, out: "", err: "" };
      for (let k = 0; k < 8 && !/replaying/.test(over.err); k++) {
        over = await sim(budget);
        expect(over.code, over.err).toBe(2);
        expect(over.err.trim().split("\n")).toHaveLength(1);
        budget = Math.ceil(Number(/needs about ([\d.]+) MiB/.exec(over.err)![1]) * 1.02);
      }
      expect(over.err).toMatch(
        /replaying (\d+ operations|MPI_Alltoallv) on P = 40.* needs about [\d.]+ MiB, past the memory budget/,
      );
      const ok = await sim(Math.ceil(Number(/needs about ([\d.]+) MiB/.exec(over.err)![1])) + 8);
      expect(ok.code, ok.err).toBe(0);
    }
  });
});
