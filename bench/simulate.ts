/** Simulator bench (issue 3): simulated events per second replaying the shift schedule, blocking and nonblocking, P = 64, 256, 1024. */
import { findMachine } from "../src/machines/presets.js";
import { simulateSchedule } from "../src/machines/sim/simulate.js";
import { generatePattern } from "../src/patterns/registry.js";
import { plan } from "../src/planner/registry.js";
import { machineInfo, mdTable, timeMs, writeResults } from "./lib.js";

interface Case {
  p: number;
  mode: "blocking" | "nonblocking";
  transfers: number;
  events: number;
  ms: number;
  eventsPerSecond: number;
  makespanUs: number;
  fnc: number;
}

/** Runs the cases; returns the markdown summary. */
export function simulateBench(log: (s: string) => void): string {
  const machine = findMachine("t3d-004");
  const results: Case[] = [];
  for (const p of [64, 256, 1024]) {
    const m = generatePattern("liu-pattern3", p, { lmax: 256 }, 1);
    const s = plan(m, "shift");
    for (const mode of ["blocking", "nonblocking"] as const) {
      log(`simulate: shift P = ${p} ${mode} ...`);
      simulateSchedule(s, machine, { mode, timeline: false }); // warm-up
      let best = Infinity;
      let r = simulateSchedule(s, machine, { mode, timeline: false });
      for (let k = 0; k < 3; k++) {
        const t = timeMs(() => simulateSchedule(s, machine, { mode, timeline: false }));
        if (t.ms < best) best = t.ms;
        r = t.value;
      }
      results.push({
        p,
        mode,
        transfers: s.transferCount,
        events: r.events,
        ms: best,
        eventsPerSecond: r.events / (best / 1000),
        makespanUs: r.makespan,
        fnc: r.fnc,
      });
    }
  }
  const md =
    "### Simulator: shift schedule replay (002 Pattern3, lmax 256, t3d-004, not lock-step, timeline off)\n\n" +
    mdTable(
      ["P", "mode", "transfers", "events", "best of 3 ms", "events / s", "simulated makespan us", "f_nc"],
      results.map((r) => [
        r.p,
        r.mode,
        r.transfers.toLocaleString("en-US"),
        r.events.toLocaleString("en-US"),
        r.ms.toFixed(1),
        Math.round(r.eventsPerSecond).toLocaleString("en-US"),
        r.makespanUs.toFixed(0),
        r.fnc.toFixed(3),
      ]),
    );
  writeResults("simulate", { machine: machineInfo(), results }, md);
  return md;
}
