/**
 * --network and --port-sharing: declared, checked and loaded one way by simulate, verify, compare and plan --algorithm
 * auto.
 */
import { Option } from "commander";
import { PORT_SHARINGS, type PortSharing } from "../../machines/sim/options.js";
import { fail } from "../../model/errors.js";
import type { MachineModel } from "../../model/machine.js";
import type { NetworkRoutes } from "../../model/network.js";
import { checkFlatForNetwork } from "../../machines/sim/network-options.js";
import { loadTopology } from "./topologies.js";

/** The flags as commander hands them over. */
export interface NetworkFlags {
  readonly network?: string;
  readonly portSharing?: PortSharing;
}

const SPEC_HELP =
  "a generator spec such as fat-tree:k=8,oversub=4 ('commplan topologies' lists them) or a topology JSON file (*.json, docs/topologies.md)";

/** `--network <spec>`: `use` says what the command does on the network. */
export function networkOption(use: string): Option {
  return new Option("--network <spec>", `${use}: ${SPEC_HELP}`);
}

/** `--port-sharing <rule>` (serial or fair). */
export function portSharingOption(): Option {
  return new Option(
    "--port-sharing <rule>",
    "with --network: serial (a receiver serves one message at a time; default) or fair (the host links are shared max-min like every link, as SimGrid does)",
  ).choices(PORT_SHARINGS);
}

/** The topology file --network reads, so that no output is written over it (undefined for a generator spec). */
export function networkInputFile(o: { readonly network?: string | undefined }): string | undefined {
  return o.network?.endsWith(".json") ? o.network : undefined;
}

/**
 * Before any input is read: refuses --port-sharing without --network, and --network with a machine off the flat
 * topology (the network replaces it).
 */
export function checkNetworkFlags(command: string, o: NetworkFlags, machine: MachineModel): void {
  if (o.network === undefined && o.portSharing !== undefined)
    throw fail(command, "BAD_OPTION", "--port-sharing goes with --network (a topology to simulate on)", {
      field: "portSharing",
    });
  checkFlatForNetwork(machine, o.network, "--network", command);
}

/**
 * The routes --network names for p ranks within `maxMemory` (null without it; link defaults from
 * `machine`) and the port sharing (serial by default).
 */
export function loadNetworkFlags(
  o: NetworkFlags,
  p: number,
  maxMemory: number,
  machine?: MachineModel,
): { network: NetworkRoutes | null; portSharing: PortSharing } {
  return {
    network: o.network === undefined ? null : loadTopology(o.network, p, maxMemory, machine).routes,
    portSharing: o.portSharing ?? "serial",
  };
}
