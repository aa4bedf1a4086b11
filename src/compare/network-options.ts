/** networkOptions: the simulator's options for a compare or auto request on a network. */
import type { PortSharing } from "../machines/sim/options.js";
import type { NetworkRoutes } from "../model/network.js";

/** The simulator's options for the request's network (none without one): the makespan only, no f_lc replay. */
export function networkOptions(req: { readonly network?: NetworkRoutes | null; readonly portSharing?: PortSharing }): {
  network?: NetworkRoutes;
  portSharing?: PortSharing;
  linkFactor?: boolean;
} {
  return req.network ? { network: req.network, portSharing: req.portSharing ?? "serial", linkFactor: false } : {};
}
