/**
 * The flat cluster of `export --format simgrid` as a NetworkRoutes: host r has an up link (id r) and a down link
 * (id P + r), latency T_s / 2 and bandwidth 1 / (t_c + t_d) each; a route from a to b crosses a's up link and b's
 * down link (no backbone: src/export/simgrid-platform.ts says why).
 */
import type { MachineModel } from "../../model/machine.js";
import type { NetworkRoutes } from "../../model/network.js";
import { checkMachine } from "../../model/machine.js";
import { checkArg, isIntIn } from "../../model/option-checks.js";
import { MAX_P } from "../../model/limits.js";

/** A network with the sharing policy of each link: 1 for FATPIPE (each flow may use all of it), 0 for shared. */
export interface SharedNetwork {
  readonly routes: NetworkRoutes;
  readonly fatpipe: Uint8Array;
}

/** The SimGrid flat cluster of P hosts on `machine` (SPLITDUPLEX host links, no backbone). */
export function flatClusterNetwork(p: number, machine: MachineModel): SharedNetwork {
  checkArg("machines", "flatClusterNetwork", "p", p, isIntIn(p, 1, MAX_P), `an integer in 1..${MAX_P}`, "BAD_OPTION");
  checkMachine(machine, "machines", "flatClusterNetwork");
  const bw = 1 / (machine.tc + machine.td);
  const links = 2 * p;
  const routes: NetworkRoutes = {
    name: `cluster:${machine.name}`,
    hosts: p,
    links,
    bandwidth: new Float64Array(links).fill(bw),
    latency: new Float64Array(links).fill(machine.ts / 2),
    maxHops: 2,
    linkLabel: (id) => (id < p ? `h${id} up` : `h${id - p} down`),
    route(a, b, out) {
      if (a === b) return 0;
      out[0] = a;
      out[1] = p + b;
      return 2;
    },
  };
  return { routes, fatpipe: new Uint8Array(links) };
}
