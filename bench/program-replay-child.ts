/**
 * The program-replay bench's timing process: reads the cases (JSON, `ReplayCase[]`) on stdin, warms up, times each
 * case's replays (best of three, wall and CPU) and prints their predictions, events and times as JSON on stdout, in the
 * cases' order. It spawns nothing: Node forks to spawn, which leaves every writable page of the process copy-on-write,
 * and the replays after it fault on each page they write (docs/simulator.md), so smpirun runs in the parent
 * (bench/program-replay.ts). Every module is imported before the warm-up starts, so tsx's transforms (and its
 * esbuild service) are done by then. The replay timed is the build's (dist/, what `commplan simulate` runs; the
 * parent builds it first): tsx compiles the sources with esbuild's keepNames, which names every closure at run time;
 * in the two bench runs of 2026-12-02 (17:57 from src/, 18:05 from dist/, both idle) the replay CPU time of the twelve
 * P = 256 two-stage cases from dist/ was 0.70 to 1.00 of that from src/, median 0.80.
 *   node --import tsx bench/program-replay-child.ts < cases.json
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { findMachine } from "../src/machines/presets.js";
import { findRuntimeModel } from "../src/machines/runtime/runtime-model.js";
import type { NetworkRoutes } from "../src/model/network.js";
import { compileRoutes } from "../src/topology/compile-routes.js";
import { buildTopology } from "../src/topology/registry.js";
import type { replayProgram } from "../src/machines/program-replay/replay-program.js";
import { timeReplays, type ReplayTiming } from "../runtimes/test/program-replay.js";
import { caseProgram, warmUp, type ReplayCase } from "./program-replay-cases.js";

/** The replays of each case timed in its order (best of `runs`). */
function timeCases(cases: readonly ReplayCase[], replay: typeof replayProgram, runs = 3): ReplayTiming[] {
  const machine = findMachine("ib-hdr-200");
  warmUp(machine, replay);
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
    out.push(timeReplays(prog, machine, routes, findRuntimeModel(c.runtime), runs, replay));
  }
  return out;
}

/** The build's replayProgram (dist/), or null when there is no build. */
async function builtReplay(): Promise<typeof replayProgram | null> {
  const file = join(import.meta.dirname, "..", "dist", "machines", "program-replay", "replay-program.js");
  if (!existsSync(file)) return null;
  return ((await import(pathToFileURL(file).href)) as { replayProgram: typeof replayProgram }).replayProgram;
}

async function main(): Promise<number> {
  const replay = await builtReplay();
  if (replay === null) {
    process.stderr.write("program-replay-child: no build (dist/): run npm run build first\n");
    return 2;
  }
  const cases = JSON.parse(readFileSync(0, "utf8")) as unknown;
  if (!Array.isArray(cases)) {
    process.stderr.write("program-replay-child: stdin must hold a JSON array of cases\n");
    return 2;
  }
  process.stdout.write(JSON.stringify(timeCases(cases as ReplayCase[], replay)) + "\n");
  return 0;
}

process.exitCode = await main();
