/** The simulator's option values and its resolved options (request.ts fills and checks them). */
import { fail } from "../../model/errors.js";
import { checkSeed } from "../../model/param-spec.js";
import type { MachineModel } from "../../model/machine.js";
import type { CommMatrix } from "../../model/matrix.js";
import type { NetworkRoutes } from "../../model/network.js";
import type { FillTuning } from "./flow-network.js";
import type { RecvOrder } from "./recv-order.js";
import { FABRICS, type FabricName } from "./fabric.js";

/**
 * blocking: a transfer holds both ports for T_s + m (t_c + t_d); nonblocking: processor, copy engine and network
 * pipeline (004 sec 2.2).
 */
export type SimMode = "blocking" | "nonblocking";

/**
 * What a send waits for within its stage. steps: every receive of its node in earlier steps of the
 * stage (004 sec 2.3, blocking mode: "the send command in the next step cannot be issued until the
 * completion of receive in the current step"); data: only the receives that bring elements it
 * forwards (known from payload chunks; none without them), so a node sends its messages first and
 * then receives, as 004 eq. 2 assumes. Blocking mode always uses steps.
 */
export type SendWaits = "steps" | "data";
/** Every SendWaits value. */
export const SEND_WAITS: readonly SendWaits[] = Object.freeze(["data", "steps"]);

/**
 * With a network: serial, a node's receive port (and, in nonblocking mode, its output port) serves
 * `ports` messages at a time, as without a network; fair, no port limit: concurrent messages share
 * the host's links max-min like any link (SimGrid SMPI), so k messages into one receiver cost about
 * alpha + k m beta instead of k (alpha + m beta).
 */
export type PortSharing = "serial" | "fair";
/** Every PortSharing value. */
export const PORT_SHARINGS: readonly PortSharing[] = Object.freeze(["serial", "fair"]);

/** async: AC of 003 fig. 2; drs-n: distributed random scheduling avoiding node contention (003 fig. 5). */
export type ProtocolName = "async" | "drs-n";
/** Every ProtocolName. */
export const PROTOCOLS: readonly ProtocolName[] = Object.freeze(["async", "drs-n"]);

/** A replay's options with their defaults filled and their values checked (resolveSimRequest). */
export interface SimOptions {
  readonly mode: SimMode;
  readonly lockstep: boolean;
  readonly ports: number;
  readonly fabric: FabricName;
  readonly data: CommMatrix | null;
  readonly timeline: boolean;
  readonly sendBuffers: number;
  readonly sendWaits: SendWaits;
  readonly recvOrder: RecvOrder;
  readonly stageBarriers: boolean;
  readonly seed: number;
  readonly progress: ((done: number, total: number) => void) | null;
  readonly network: NetworkRoutes | null;
  readonly portSharing: PortSharing;
  readonly fullRecompute: boolean;
  readonly linkFactor: boolean;
  /** With a network: how its fillings find their next candidate (speed only). */
  readonly fill: FillTuning;
}

/** A protocol run's options with their defaults filled and their values checked (resolveSimRequest). */
export interface ProtocolOptions {
  readonly protocol: ProtocolName;
  readonly seed: number;
  readonly generateRecv: boolean;
  readonly inquiry: number;
  readonly busyMeasure: boolean;
  readonly earlyGoAhead: boolean;
  readonly maxInquiries: number;
  readonly fabric: FabricName;
  readonly timeline: boolean;
  readonly progress: ((done: number, total: number) => void) | null;
  /** async only: the network its replay runs on (the request's, checked by that replay). */
  readonly network: NetworkRequest | null;
}

/** A network run: messages become flows sharing link bandwidth max-min (flow-network.ts); its links replace t_d. */
export interface NetworkRequest {
  /** The network of links and routes (rank r on host r). */
  readonly routes: NetworkRoutes;
  /** How a node's ports serve concurrent messages. Default serial. */
  readonly portSharing?: PortSharing;
  /**
   * Recompute the rates of the changed flow's component (default) or of every active flow (for measurement; same
   * result).
   */
  readonly flowRecompute?: "component" | "full";
  /**
   * Compute the link-contention factor f_lc, by a second replay with an infinite-bandwidth core (default true; false
   * skips that replay and leaves f_lc null).
   */
  readonly linkFactor?: boolean;
  /**
   * How the flow fillings find their next candidate (every choice gives the same result). Default DEFAULT_FILL_TUNING.
   */
  readonly fill?: FillTuning;
}

const bad = (field: string, text: string): Error => fail("simulate", "BAD_OPTION", text, { field });

/** Checks a fabric name; the machine's default when undefined. */
export function resolveFabric(f: FabricName | undefined, machine: MachineModel): FabricName {
  const fabric = f ?? machine.fabric ?? "flat";
  if (!FABRICS.includes(fabric))
    throw bad("fabric", `unknown topology '${String(fabric)}'; known: ${FABRICS.join(", ")}`);
  return fabric;
}

/** Checks a seed (an integer in 0..2^32 - 1, by the one seed check of model/param-spec); 1 when undefined. */
export function resolveSeed(seed: number | undefined): number {
  return checkSeed("simulate", seed ?? 1);
}
