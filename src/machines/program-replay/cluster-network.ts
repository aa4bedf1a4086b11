/**
 * The flat cluster of `export --format simgrid` as a NetworkRoutes: host r has an up link (id r) and a down link
 * (id P + r), latency T_s / 2 and bandwidth 1 / (t_c + t_d) each; the fat-pipe backbone of the same bandwidth never
 * limits a flow below its host links, so it is left out.
 */
import type { MachineModel } from "../../model/machine.js";
import type { NetworkRoutes } from "../../model/network.js";

/** The SimGrid flat cluster of P hosts on `machine` (SPLITDUPLEX host links, FATPIPE backbone). */
export function flatClusterRoutes(p: number, machine: MachineModel): NetworkRoutes {
  const bw = 1 / (machine.tc + machine.td);
  const lat = machine.ts / 2;
  return {
    name: `cluster:${machine.name}`,
    hosts: p,
    links: 2 * p,
    bandwidth: new Float64Array(2 * p).fill(bw),
    latency: new Float64Array(2 * p).fill(lat),
    maxHops: 2,
    linkLabel: (id) => (id < p ? `h${id}->backbone` : `backbone->h${id - p}`),
    route(a, b, out) {
      if (a === b) return 0;
      out[0] = a;
      out[1] = p + b;
      return 2;
    },
  };
}
