/**
 * The flat request forms of simulateSchedule and runProtocol (every option one field, the network's beside it), turned
 * into a SimulatorRequest.
 */
import type { MachineModel } from "../../model/machine.js";
import type { CommMatrix } from "../../model/matrix.js";
import type { NetworkRoutes } from "../../model/network.js";
import type { FillTuning } from "./flow-network.js";
import type { NetworkRequest, PortSharing, ProtocolName, SendWaits, SimMode, SimOptions } from "./options.js";
import type { RecvOrder } from "./recv-order.js";
import { resolveReplay, type ProtocolRunRequest, type ReplayRequest } from "./request.js";
import type { FabricName } from "./fabric.js";
import { checkArg, isOptionsObject } from "../../model/option-checks.js";

/** Options of simulateSchedule as one flat object (ReplayRequest is the checked-by-type form). */
export interface SimRequest {
  /** Default blocking. */
  readonly mode?: SimMode;
  readonly lockstep?: boolean;
  readonly ports?: number;
  /** The machine's fabric (a SimulatorRequest's `fabric`), under its command-line name. */
  readonly topology?: FabricName;
  readonly data?: CommMatrix | null;
  readonly timeline?: boolean;
  /** Nonblocking mode only. */
  readonly sendBuffers?: number;
  /** Nonblocking mode only ('steps', the blocking rule, is accepted in blocking mode). */
  readonly sendWaits?: SendWaits;
  readonly recvOrder?: RecvOrder;
  readonly stageBarriers?: boolean;
  readonly seed?: number;
  readonly progress?: ((done: number, total: number) => void) | null;
  /** NetworkRequest.routes. */
  readonly network?: NetworkRoutes | null;
  /** The other NetworkRequest fields: with a network only. */
  readonly portSharing?: PortSharing;
  readonly flowRecompute?: "component" | "full";
  readonly linkFactor?: boolean;
  readonly fill?: FillTuning;
}

/** Options of runProtocol as one flat object (ProtocolRunRequest is the checked-by-type form). */
export interface ProtocolRequest {
  readonly protocol: ProtocolName;
  readonly seed?: number;
  readonly generateRecv?: boolean;
  /** drs-n only. */
  readonly inquiry?: number;
  readonly busyMeasure?: boolean;
  readonly earlyGoAhead?: boolean;
  readonly maxInquiries?: number;
  /** The machine's fabric (a SimulatorRequest's `fabric`), under its command-line name. */
  readonly topology?: FabricName;
  readonly timeline?: boolean;
  readonly progress?: ((done: number, total: number) => void) | null;
  /** async only: NetworkRequest.routes. */
  readonly network?: NetworkRoutes | null;
  /** async only, with a network: NetworkRequest.portSharing. */
  readonly portSharing?: PortSharing;
  /** async only, with a network: NetworkRequest.linkFactor (false skips f_lc). */
  readonly linkFactor?: boolean;
}

/**
 * The network fields of a flat request as a NetworkRequest (without routes when only options are given, which
 * resolveSimRequest refuses).
 */
function nestNetwork(
  routes: NetworkRoutes | null | undefined,
  options: { readonly [k: string]: unknown },
): NetworkRequest | null {
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  if (routes) return { routes, ...given };
  return Object.keys(given).length > 0 ? (given as unknown as NetworkRequest) : null;
}

/** A flat SimRequest as a ReplayRequest (fields that do not belong stay, for resolveSimRequest to refuse). */
export function replayRequestOf(req: SimRequest): ReplayRequest {
  checkArg(
    "simulate",
    "replayRequestOf",
    "req",
    req,
    isOptionsObject(req),
    "a request object (the flat options)",
    "BAD_OPTION",
  );
  const { network, portSharing, flowRecompute, linkFactor, fill, mode, sendWaits, topology, ...rest } = req;
  const m = mode ?? "blocking";
  return {
    ...rest,
    ...(topology !== undefined ? { fabric: topology } : {}),
    kind: "replay",
    mode: m,
    // 'steps' is the blocking rule: a blocking request may name it
    ...(sendWaits !== undefined && !(m === "blocking" && sendWaits === "steps") ? { sendWaits } : {}),
    network: nestNetwork(network, { portSharing, flowRecompute, linkFactor, fill }),
  } as ReplayRequest;
}

/** A flat ProtocolRequest as a ProtocolRunRequest (linkFactor without a network is left out, as it changes nothing). */
export function protocolRequestOf(req: ProtocolRequest): ProtocolRunRequest {
  checkArg(
    "simulate",
    "protocolRequestOf",
    "req",
    req,
    isOptionsObject(req),
    "a request object (the flat options)",
    "BAD_OPTION",
  );
  const { network, portSharing, linkFactor, topology, ...rest } = req;
  const net = nestNetwork(network, { portSharing, ...(network ? { linkFactor } : {}) });
  const fabric = topology !== undefined ? { fabric: topology } : {};
  return { ...rest, ...fabric, kind: "protocol", ...(net !== null ? { network: net } : {}) } as ProtocolRunRequest;
}

/** Fills the defaults of a flat SimRequest and checks every value once (resolveSimRequest). */
export function resolveSimOptions(req: SimRequest, machine: MachineModel): SimOptions {
  return resolveReplay(replayRequestOf(req), machine);
}
