/** Flow-model bench: the shift all-to-all on a 2-level fat tree (8 hosts per leaf, 4:1 uplinks), component-local against full max-min recomputation. */
import { findMachine } from "../src/machines/presets.js";
import { simulateSchedule } from "../src/machines/sim/simulate.js";
import { matrixFromData } from "../src/model/matrix.js";
import { plan } from "../src/planner/registry.js";
import type { NetworkRoutes } from "../src/model/network.js";
import { fatTree, star } from "../test/machines/sim/hand-networks.js";
import { machineInfo, mdTable, timeMs, writeResults } from "./lib.js";

interface Case {
  network: string;
  p: number;
  mode: "blocking" | "nonblocking";
  portSharing: "serial" | "fair";
  makespanUs: number;
  flatMakespanUs: number;
  flc: number;
  componentMs: number;
  fullMs: number;
  touchedPerRecompute: number;
  activePerRecompute: number;
}

/** Runs the cases; returns the markdown summary. */
export function flowNetworkBench(log: (s: string) => void): string {
  const machine = findMachine("t3d-004");
  const results: Case[] = [];
  for (const p of [64, 256]) {
    const data = new Float64Array(p * p);
    for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) if (i !== j) data[i * p + j] = 256;
    const s = plan(matrixFromData(p, data), "shift");
    const nets: [NetworkRoutes, ("serial" | "fair")[]][] = [
      [fatTree(p / 8, 8, 1 / machine.td, 4, 0.5), ["serial", "fair"]],
      [star(p, 1 / machine.td), ["serial"]],
    ];
    for (const [net, sharings] of nets)
      for (const mode of ["blocking", "nonblocking"] as const) {
        for (const portSharing of sharings) {
          log(`flow-network: shift P = ${p} ${mode} ${portSharing} ...`);
          const req = { mode, timeline: false, network: net, portSharing } as const;
          simulateSchedule(s, machine, req); // warm-up
          let comp = Infinity,
            full = Infinity;
          let r = simulateSchedule(s, machine, req);
          for (let k = 0; k < 3; k++) {
            const a = timeMs(() => simulateSchedule(s, machine, req));
            const b = timeMs(() => simulateSchedule(s, machine, { ...req, flowRecompute: "full" }));
            if (b.value.makespan !== a.value.makespan) throw new Error("flow-network bench: full != component");
            comp = Math.min(comp, a.ms);
            full = Math.min(full, b.ms);
            r = a.value;
          }
          const rc = r.network!.recompute;
          results.push({
            network: net.name,
            p,
            mode,
            portSharing,
            makespanUs: r.makespan,
            flatMakespanUs: simulateSchedule(s, machine, { mode, timeline: false }).makespan,
            flc: r.network!.flc ?? NaN,
            componentMs: comp,
            fullMs: full,
            touchedPerRecompute: rc.flowsTouched / rc.recomputes,
            activePerRecompute: rc.flowsActive / rc.recomputes,
          });
        }
      }
  }
  const md =
    "### Flow model: shift all-to-all on a fat tree (8 hosts per leaf, 4:1 uplinks, link latency 0.5 us) and on a flat star (bandwidth 1 / t_d), 256 B messages, t3d-004\n\n" +
    "Each run is simulated twice (the second with an infinite-bandwidth core, for f_lc). Touched: flows whose rates one recomputation redoes (component-local); active: what a full recomputation redoes.\n\n" +
    mdTable(
      [
        "network",
        "P",
        "mode",
        "ports",
        "makespan us",
        "flat makespan us",
        "f_lc",
        "component ms",
        "full ms",
        "touched / recompute",
        "active / recompute",
      ],
      results.map((r) => [
        r.network,
        r.p,
        r.mode,
        r.portSharing,
        r.makespanUs.toFixed(0),
        r.flatMakespanUs.toFixed(0),
        r.flc.toFixed(3),
        r.componentMs.toFixed(1),
        r.fullMs.toFixed(1),
        r.touchedPerRecompute.toFixed(1),
        r.activePerRecompute.toFixed(1),
      ]),
    );
  writeResults("flow-network", { machine: machineInfo(), results }, md);
  return md;
}
