/**
 * The flat cluster of `export --format simgrid` as a NetworkRoutes: host r has an up link (id r) and a down link
 * (id P + r), latency T_s / 2 and bandwidth 1 / (t_c + t_d) each, and every route crosses the backbone (id 2P) between
 * them, a FATPIPE link of the same bandwidth and no latency.
 */
import type { MachineModel } from "../../model/machine.js";
import type { NetworkRoutes } from "../../model/network.js";

/** A network with the sharing policy of each link: 1 for FATPIPE (each flow may use all of it), 0 for shared. */
export interface SharedNetwork {
  readonly routes: NetworkRoutes;
  readonly fatpipe: Uint8Array;
}

/** The SimGrid flat cluster of P hosts on `machine` (SPLITDUPLEX host links, FATPIPE backbone). */
export function flatClusterNetwork(p: number, machine: MachineModel): SharedNetwork {
  const bw = 1 / (machine.tc + machine.td);
  const lat = machine.ts / 2;
  const links = 2 * p + 1;
  const latency = new Float64Array(links).fill(lat);
  latency[2 * p] = 0;
  const fatpipe = new Uint8Array(links);
  fatpipe[2 * p] = 1;
  const routes: NetworkRoutes = {
    name: `cluster:${machine.name}`,
    hosts: p,
    links,
    bandwidth: new Float64Array(links).fill(bw),
    latency,
    maxHops: 3,
    linkLabel: (id) => (id === 2 * p ? "backbone" : id < p ? `h${id}->backbone` : `backbone->h${id - p}`),
    route(a, b, out) {
      if (a === b) return 0;
      out[0] = a;
      out[1] = 2 * p;
      out[2] = p + b;
      return 3;
    },
  };
  return { routes, fatpipe };
}
