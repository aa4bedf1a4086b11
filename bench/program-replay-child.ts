/**
 * The program-replay bench's timing process: reads the cases (JSON, `ReplayCase[]`) on stdin, warms up, times each
 * case's replays (best of three, wall and CPU) and prints their predictions, events and times as JSON on stdout, in the
 * cases' order. It spawns nothing: Node forks to spawn, which leaves every writable page of the process copy-on-write,
 * and the replays after it fault on each page they write (docs/simulator.md), so smpirun runs in the parent
 * (bench/program-replay.ts). Every module is imported statically, so tsx's transforms (and its esbuild service) are
 * done before the warm-up starts.
 *   node --import tsx bench/program-replay-child.ts < cases.json
 */
import { readFileSync } from "node:fs";
import { findMachine } from "../src/machines/presets.js";
import { findRuntimeModel } from "../src/machines/runtime/runtime-model.js";
import type { NetworkRoutes } from "../src/model/network.js";
import { compileRoutes } from "../src/topology/compile-routes.js";
import { buildTopology } from "../src/topology/registry.js";
import { timeReplays, type ReplayTiming } from "../runtimes/test/program-replay.js";
import { caseProgram, warmUp, type ReplayCase } from "./program-replay-cases.js";

/** The replays of each case timed in its order (best of `runs`). */
function timeCases(cases: readonly ReplayCase[], runs = 3): ReplayTiming[] {
  const machine = findMachine("ib-hdr-200");
  warmUp(machine);
  const out: ReplayTiming[] = [];
  let routesKey = "",
    routes: NetworkRoutes | undefined;
  for (const c of cases) {
    const key = `${c.p}|${c.network}`;
    if (key !== routesKey) {
      routesKey = key;
      routes = c.network === "flat" ? undefined : compileRoutes(buildTopology(c.network, c.p, machine));
    }
    const prog = caseProgram(c.p, c.schedule, c.variant);
    out.push(timeReplays(prog, machine, routes, findRuntimeModel(c.runtime), runs));
  }
  return out;
}

function main(): number {
  const cases = JSON.parse(readFileSync(0, "utf8")) as unknown;
  if (!Array.isArray(cases)) {
    process.stderr.write("program-replay-child: stdin must hold a JSON array of cases\n");
    return 2;
  }
  process.stdout.write(JSON.stringify(timeCases(cases as ReplayCase[])) + "\n");
  return 0;
}

process.exitCode = main();
