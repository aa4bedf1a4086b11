/** Simulation options: the one place they get defaults and are checked. */
import { checkMachine } from "../../model/machine.js";
import { fail } from "../../model/errors.js";
import { checkProgress } from "../../model/progress.js";
import { checkSeed, choice, integer, resolveSpecs } from "../../model/param-spec.js";
import type { MachineModel } from "../../model/machine.js";
import type { CommMatrix } from "../../model/matrix.js";
import { networkProblem, type NetworkRoutes } from "../../model/network.js";
import { RECV_ORDERS, type RecvOrder } from "./recv-order.js";
import { TOPOLOGIES, type TopologyName } from "./topology.js";

/** blocking: a transfer holds both ports for T_s + m (t_c + t_d); nonblocking: processor, copy engine and network pipeline (004 sec 2.2). */
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
export const SEND_WAITS: readonly SendWaits[] = ["data", "steps"];

/**
 * With a network: serial, a node's receive port (and, in nonblocking mode, its output port) serves
 * `ports` messages at a time, as without a network; fair, no port limit: concurrent messages share
 * the host's links max-min like any link (SimGrid SMPI), so k messages into one receiver cost about
 * alpha + k m beta instead of k (alpha + m beta).
 */
export type PortSharing = "serial" | "fair";
/** Every PortSharing value. */
export const PORT_SHARINGS: readonly PortSharing[] = ["serial", "fair"];

/** Options of simulateSchedule as a caller gives them. */
export interface SimRequest {
  readonly mode?: SimMode;
  /** A barrier (free, beyond the stage barriers) after every step (000 fig. 3). Default false. */
  readonly lockstep?: boolean;
  /** Send and receive ports per node; default the machine's. */
  readonly ports?: number;
  /** Default: the machine's topology, else flat. */
  readonly topology?: TopologyName;
  /** Data mode: move element tags; needs payload chunks and the matrix the schedule was made for. */
  readonly data?: CommMatrix | null;
  /** Record the per-node timeline (intervals). Default true. */
  readonly timeline?: boolean;
  /** Nonblocking mode: interface send buffers per node (1 single, 2 dual; 004 sec 3.4). Default 2. */
  readonly sendBuffers?: number;
  /** Nonblocking mode: what a send waits for within its stage. Default data. */
  readonly sendWaits?: SendWaits;
  /** Which waiting message a free receive port takes: arrival (first come, first served; default) or step (the earliest step first, as an MPI runtime posting receives round by round; recv-order.ts). */
  readonly recvOrder?: RecvOrder;
  /**
   * End every stage with a barrier on every node (the papers' model; default true). false: a node
   * goes on into the next stage's steps as soon as the rules of one stage let it (as a lowered
   * program runs, round after round with no barrier): the stages replay as one run, no barrier is
   * charged, and in blocking mode each node composes for a rearranging stage when it reaches it
   * (compose-gates.ts). Refused with lockstep (so with the ocpc topology) and data mode; in nonblocking mode
   * with a rearranging stage on a machine with t_m > 0, and with sendWaits data on a plan without
   * payload chunks (that rule then assumes a stage forwards nothing it receives).
   */
  readonly stageBarriers?: boolean;
  /** Seed for random choices (OCPC backoff). Default 1. */
  readonly seed?: number;
  /** Called now and then with (transfers done, transfers in all). */
  readonly progress?: ((done: number, total: number) => void) | null;
  /** A network of links and routes (rank r on host r): messages become flows sharing link bandwidth max-min (flow-network.ts); its links replace t_d. Default none (the node-port model). */
  readonly network?: NetworkRoutes | null;
  /** With a network: how a node's ports serve concurrent messages. Default serial. */
  readonly portSharing?: PortSharing;
  /** With a network: recompute the rates of the changed flow's component (default) or of every active flow (for measurement; same result). */
  readonly flowRecompute?: "component" | "full";
  /** With a network: compute the link-contention factor f_lc, by a second replay with an infinite-bandwidth core (default true; false skips that replay and leaves f_lc null). */
  readonly linkFactor?: boolean;
}

/** Options with their defaults filled. */
export interface SimOptions {
  readonly mode: SimMode;
  readonly lockstep: boolean;
  readonly ports: number;
  readonly topology: TopologyName;
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
}

const bad = (field: string, text: string): Error => fail("simulate", "BAD_OPTION", text, { field });

/** Checks a topology name; the machine's default when undefined. */
export function resolveTopology(t: TopologyName | undefined, machine: MachineModel): TopologyName {
  const topology = t ?? machine.topology ?? "flat";
  if (!TOPOLOGIES.includes(topology))
    throw bad("topology", `unknown topology '${String(topology)}'; known: ${TOPOLOGIES.join(", ")}`);
  return topology;
}

/** Checks a seed (an integer in 0..2^32 - 1, by the one seed check of model/param-spec); 1 when undefined. */
export function resolveSeed(seed: number | undefined): number {
  return checkSeed("simulate", seed ?? 1);
}

/** The numeric and enumerated options, checked by resolveSpecs (the rules between them follow in resolveSimOptions). */
const SIM_SPECS = {
  mode: choice(["blocking", "nonblocking"], {
    description: "blocking or nonblocking (004 sec 2.2)",
    default: "blocking",
  }),
  ports: integer({ description: "send and receive ports per node", min: 1, max: 1024, derived: "the machine's" }),
  sendBuffers: integer({
    description: "nonblocking mode: interface send buffers per node",
    min: 1,
    max: 1024,
    default: 2,
  }),
  sendWaits: choice(SEND_WAITS, {
    description: "what a send waits for within its stage",
    derived: "steps in blocking mode, else data",
  }),
  recvOrder: choice(RECV_ORDERS, {
    description: "which waiting message a free receive port takes",
    default: "arrival",
  }),
};

/** Fills defaults and checks every value once. */
export function resolveSimOptions(req: SimRequest, machine: MachineModel): SimOptions {
  checkMachine(machine, "simulate");
  const given = {
    mode: req.mode,
    ports: req.ports ?? machine.ports,
    sendBuffers: req.sendBuffers,
    sendWaits: req.sendWaits,
    recvOrder: req.recvOrder,
  };
  const r = resolveSpecs(SIM_SPECS, given, {
    module: "simulate",
    label: (name) => name,
    unknown: (name, known) => `unknown option '${name}'; known: ${known}`,
    field: (name) => name,
  });
  const { mode, sendBuffers, recvOrder } = r;
  const ports = r.ports ?? machine.ports;
  const topology = resolveTopology(req.topology, machine);
  if (req.sendBuffers !== undefined && mode !== "nonblocking")
    throw bad("sendBuffers", "send buffers are a nonblocking-mode option (004 sec 3.4)");
  const sendWaits = r.sendWaits ?? (mode === "blocking" ? "steps" : "data");
  if (mode === "blocking" && sendWaits !== "steps")
    throw bad(
      "sendWaits",
      "blocking mode always waits for the receives of earlier steps (004 sec 2.3); sendWaits 'data' is a nonblocking-mode option",
    );
  const seed = resolveSeed(req.seed);
  if (topology === "ocpc" && !(req.lockstep ?? false))
    throw bad("topology", "the ocpc topology is defined per step (001 sec 2): use it with lockstep (--lockstep)");
  if (topology === "ocpc" && mode !== "blocking")
    throw bad("topology", "the ocpc topology is simulated in blocking mode only");
  if (topology === "ocpc" && recvOrder !== "arrival")
    throw bad(
      "recvOrder",
      "the ocpc topology has no receive queue (colliding messages are resent): recvOrder 'step' does not apply",
    );
  if (topology === "ocpc" && ports !== 1)
    throw bad("ports", `the ocpc topology has one send and one receive port per node (001 sec 2); got ports ${ports}`);
  const stageBarriers = req.stageBarriers ?? true;
  if (typeof stageBarriers !== "boolean")
    throw bad("stageBarriers", `stageBarriers must be true or false, got ${String(stageBarriers)}`);
  if (!stageBarriers && (req.lockstep ?? false))
    throw bad(
      "stageBarriers",
      "lock-step already puts a barrier after every step: stageBarriers false needs a free run",
    );
  if (!stageBarriers && req.data)
    throw bad("stageBarriers", "data mode follows the elements stage by stage: run it with the stage barriers");
  const net = resolveNetwork(req, topology);
  return {
    ...net,
    mode,
    lockstep: req.lockstep ?? false,
    ports,
    topology,
    data: req.data ?? null,
    timeline: req.timeline ?? true,
    sendBuffers,
    sendWaits,
    recvOrder,
    stageBarriers,
    seed,
    progress: checkProgress(req.progress, "simulate"),
  };
}

/** Checks the network options: a network replaces the topology's t_d (flat only), its links need bandwidth > 0 and latency >= 0. */
function resolveNetwork(
  req: SimRequest,
  topology: TopologyName,
): { network: NetworkRoutes | null; portSharing: PortSharing; fullRecompute: boolean; linkFactor: boolean } {
  const network = req.network ?? null;
  if (!network) {
    if (req.portSharing !== undefined) throw bad("portSharing", "portSharing is an option of a run on a network");
    if (req.flowRecompute !== undefined) throw bad("flowRecompute", "flowRecompute is an option of a run on a network");
    if (req.linkFactor !== undefined) throw bad("linkFactor", "linkFactor is an option of a run on a network");
    return { network, portSharing: "serial", fullRecompute: false, linkFactor: false };
  }
  if (req.linkFactor !== undefined && typeof req.linkFactor !== "boolean")
    throw bad("linkFactor", `linkFactor must be true or false, got ${String(req.linkFactor)}`);
  const portSharing = req.portSharing ?? "serial";
  if (!PORT_SHARINGS.includes(portSharing))
    throw bad("portSharing", `unknown port sharing '${String(portSharing)}'; known: ${PORT_SHARINGS.join(", ")}`);
  const fr = req.flowRecompute ?? "component";
  if (fr !== "component" && fr !== "full")
    throw bad("flowRecompute", `flowRecompute must be component or full, got '${String(fr)}'`);
  if (topology !== "flat")
    throw bad("topology", `a network replaces the topology: use it with the flat topology (got ${topology})`);
  const shape = networkProblem(network);
  if (shape !== null) throw bad("network", shape);
  for (let l = 0; l < network.links; l++) {
    const b = network.bandwidth[l]!,
      lat = network.latency[l]!;
    if (!(b > 0)) throw bad(`network.bandwidth[${l}]`, `link ${network.linkLabel(l)} has bandwidth ${b}; need > 0`);
    if (!(lat >= 0) || !Number.isFinite(lat))
      throw bad(`network.latency[${l}]`, `link ${network.linkLabel(l)} has latency ${lat}; need a finite value >= 0`);
  }
  return { network, portSharing, fullRecompute: fr === "full", linkFactor: req.linkFactor ?? true };
}
