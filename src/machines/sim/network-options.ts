/** networkOptions: the simulator's options for a compare or auto request on a network. */
import type { PortSharing } from "./options.js";
import { fail } from "../../model/errors.js";
import type { MachineModel } from "../../model/machine.js";
import type { NetworkRoutes } from "../../model/network.js";

/** The simulator's options for the request's network (none without one): the makespan only, no f_lc replay. */
export function networkOptions(req: { readonly network?: NetworkRoutes | null; readonly portSharing?: PortSharing }): {
  network?: NetworkRoutes;
  portSharing?: PortSharing;
  linkFactor?: boolean;
} {
  return req.network ? { network: req.network, portSharing: req.portSharing ?? "serial", linkFactor: false } : {};
}

/**
 * Refuses a network (its routes, or the spec naming it) with a machine off the flat fabric (the network replaces the
 * fabric's t_d); `what` opens the message, `module` prefixes it.
 */
export function checkFlatForNetwork(
  machine: MachineModel,
  network: NetworkRoutes | string | null | undefined,
  what: string,
  module = "compare",
): void {
  if (network !== null && network !== undefined && (machine.fabric ?? "flat") !== "flat")
    throw fail(
      module,
      "BAD_OPTION",
      `${what} replaces the machine's topology; ${machine.name} is on ${machine.fabric}: use a machine on the flat topology`,
      { field: "network" },
    );
}
