/**
 * SimulatorRequest: one request for the simulated machine (a replay, blocking or nonblocking, or a protocol run, async
 * or drs-n), checked once by resolveSimRequest.
 */
import { checkMachine } from "../../model/machine.js";
import { fail } from "../../model/errors.js";
import {
  checkBooleanOption,
  checkOptionKeys,
  checkOptionsObject,
  describeValue,
  isOptionsObject,
} from "../../model/option-checks.js";
import { checkProgress, type ProgressCallback } from "../../model/progress.js";
import { choice, integer, resolveSpecs } from "../../model/param-spec.js";
import type { MachineModel } from "../../model/machine.js";
import type { CommMatrix } from "../../model/matrix.js";
import { networkProblem } from "../../model/network.js";
import { DEFAULT_FILL_TUNING } from "./flow-network.js";
import {
  PORT_SHARINGS,
  PROTOCOLS,
  SEND_WAITS,
  resolveSeed,
  resolveFabric,
  type NetworkRequest,
  type PortSharing,
  type ProtocolName,
  type ProtocolOptions,
  type SendWaits,
  type SimOptions,
} from "./options.js";
import { RECV_ORDERS, type RecvOrder } from "./recv-order.js";
import type { FabricName } from "./fabric.js";
import { checkArg } from "../../model/option-checks.js";

/** What every request may give. */
interface RunRequest {
  /**
   * The machine's fabric: flat, cm5-fat-tree or (a lock-step blocking replay only) ocpc; default the machine's, else
   * flat.
   */
  readonly fabric?: FabricName;
  /** Record the per-node timeline (intervals). Default true. */
  readonly timeline?: boolean;
  /** Seed for random choices (a protocol's send orders, OCPC backoff). Default 1. */
  readonly seed?: number;
  /** Called now and then with (transfers or messages done, in all). */
  readonly progress?: ProgressCallback | null;
}

/** What both replay modes take. */
interface ReplayBase extends RunRequest {
  readonly kind: "replay";
  /** A barrier (free, beyond the stage barriers) after every step (000 fig. 3). Default false. */
  readonly lockstep?: boolean;
  /** Send and receive ports per node; default the machine's. */
  readonly ports?: number;
  /** Data mode: move element tags; needs payload chunks and the matrix the schedule was made for. */
  readonly data?: CommMatrix | null;
  /**
   * Which waiting message a free receive port takes: arrival (first come, first served; default) or step
   * (recv-order.ts).
   */
  readonly recvOrder?: RecvOrder;
  /**
   * End every stage with a barrier on every node (the papers' model; default true). false: the
   * stages replay as one run, no barrier is charged, and in blocking mode each node composes for a
   * rearranging stage when it reaches it (compose-gates.ts). Refused with lockstep (so with the ocpc
   * fabric) and data mode; in nonblocking mode with a rearranging stage on a machine with t_m > 0,
   * and with sendWaits data on a plan without payload chunks.
   */
  readonly stageBarriers?: boolean;
  /** A network of links and routes: its links replace t_d (flat fabric only). Default none (the node-port model). */
  readonly network?: NetworkRequest | null;
}

/** A blocking replay: a transfer holds both ports for T_s + m (t_c + t_d) (004 sec 2.2). */
export interface BlockingReplayRequest extends ReplayBase {
  readonly mode: "blocking";
}

/** A nonblocking replay: processor, copy engine and network pipeline (004 sec 2.2). */
export interface NonblockingReplayRequest extends ReplayBase {
  readonly mode: "nonblocking";
  /** Interface send buffers per node (1 single, 2 dual; 004 sec 3.4). Default 2. */
  readonly sendBuffers?: number;
  /** What a send waits for within its stage. Default data. */
  readonly sendWaits?: SendWaits;
}

/** A replay of a schedule, in either mode. */
export type ReplayRequest = BlockingReplayRequest | NonblockingReplayRequest;

/** What both protocols take. */
interface ProtocolBase extends RunRequest {
  readonly kind: "protocol";
  /** Run Generate_Recv (003 fig. 1) first and add its time. Default false. */
  readonly generateRecv?: boolean;
}

/** AC, the asynchronous send-everything protocol (003 fig. 2), on the replay engine. */
export interface AsyncProtocolRequest extends ProtocolBase {
  readonly protocol: "async";
  /** A network for its replay (Generate_Recv keeps the node-port model). */
  readonly network?: NetworkRequest | null;
}

/** DRS_N (003 fig. 5; 000 sec. 5 with its two improvements); it runs on the node-port model only. */
export interface DrsNProtocolRequest extends ProtocolBase {
  readonly protocol: "drs-n";
  /** Time of one test-and-set inquiry, a round trip of two active messages (us). Default 2 T_s. */
  readonly inquiry?: number;
  /** 000's first improvement: a busy destination says how long it stays busy. */
  readonly busyMeasure?: boolean;
  /**
   * 000's second improvement: a destination gives the go-ahead when its current receive ends within one inquiry time.
   */
  readonly earlyGoAhead?: boolean;
  /** Most test-and-set inquiries the run may make before it stops with a CommplanError. Default MAX_INQUIRIES. */
  readonly maxInquiries?: number;
}

/** A run of a protocol on a matrix. */
export type ProtocolRunRequest = AsyncProtocolRequest | DrsNProtocolRequest;

/** Everything the simulated machine runs. */
export type SimulatorRequest = ReplayRequest | ProtocolRunRequest;

/** A request checked, with its defaults filled. */
export type ResolvedSimRequest =
  | { readonly kind: "replay"; readonly options: SimOptions }
  | { readonly kind: "protocol"; readonly options: ProtocolOptions };

/** Why a field does not belong to the request it is in (resolveSimRequest's first check, machine-free). */
export type SimRequestRule =
  /** A replay's field in a protocol run. */
  | "replay-only"
  /** stageBarriers in a protocol run (the protocols have no stages). */
  | "no-stages"
  /** A protocol's field in a replay. */
  | "protocol-only"
  /** A drs-n field in an async run. */
  | "drs-n-only"
  /** A nonblocking-mode field in a blocking replay. */
  | "nonblocking-only"
  /** A network option without the network's routes. */
  | "network-only"
  /** A network in a drs-n run. */
  | "async-only"
  /** The ocpc fabric for a protocol run. */
  | "ocpc-protocol";

/** A field in the wrong request: the field, the rule it breaks and the library's one-line text. */
export interface SimRequestProblem {
  readonly field: string;
  readonly rule: SimRequestRule;
  readonly message: string;
}

/**
 * Shortest DRS_N inquiry time (us): a round trip of two messages takes far longer on any machine, and a shorter one
 * would let simulated time stand still.
 */
export const MIN_INQUIRY = 1e-3;

/**
 * Default of `maxInquiries`: most test-and-set inquiries one DRS_N run makes before it stops with an error (a node
 * whose destinations are all busy keeps inquiring, about makespan / inquiry times).
 */
export const MAX_INQUIRIES = 50_000_000;

const bad = (field: string, text: string): Error => fail("simulate", "BAD_OPTION", text, { field });

/** A boolean option's value, or its default when absent (undefined or null); anything else refused naming the field. */
function flag(field: string, v: unknown, dflt: boolean): boolean {
  checkBooleanOption("simulate", field, v);
  return (v as boolean | null | undefined) ?? dflt;
}

/** A replay's fields, in the order they are reported in a protocol run. */
const REPLAY_FIELDS = ["mode", "lockstep", "ports", "sendBuffers", "sendWaits", "recvOrder", "data"] as const;
/** A protocol's fields, in the order they are reported in a replay. */
const PROTOCOL_FIELDS = ["generateRecv", "busyMeasure", "earlyGoAhead", "inquiry", "maxInquiries"] as const;
/** The drs-n fields, in the order they are reported in an async run. */
const DRS_N_FIELDS = ["busyMeasure", "earlyGoAhead", "inquiry", "maxInquiries"] as const;
/** The network options beside its routes. */
const NETWORK_FIELDS = ["portSharing", "flowRecompute", "linkFactor", "fill"] as const;

const problem = (field: string, rule: SimRequestRule, message: string): SimRequestProblem => ({
  field,
  rule,
  message,
});

/**
 * The first field of `req` that does not belong to its kind, protocol or mode (checked at run time:
 * a caller in JavaScript, or one building a request from flags, can give any field), or null. Needs
 * no machine and reads no value beyond the kind, protocol, mode, fabric and the network's routes. A request that is
 * not an object (null, a string) is a one-line BAD_OPTION error on `request`, not a TypeError.
 */
export function simRequestProblem(req: SimulatorRequest): SimRequestProblem | null {
  if (!isOptionsObject(req))
    throw fail(
      "simulate",
      "BAD_OPTION",
      `simRequestProblem: the request must be an object, got ${describeValue(req)}`,
      {
        field: "request",
      },
    );
  const r = req as unknown as { readonly [k: string]: unknown };
  const has = (k: string): boolean => r[k] !== undefined;
  const net = (r["network"] ?? null) as { readonly [k: string]: unknown } | null;
  if (req.kind === "protocol") {
    if (has("stageBarriers"))
      return problem(
        "stageBarriers",
        "no-stages",
        "stageBarriers does not apply to a protocol run (the protocols have no stages)",
      );
    for (const k of REPLAY_FIELDS)
      if (has(k))
        return problem(
          k,
          "replay-only",
          `${k} does not apply to a protocol run (the protocols run blocking, one port per node, without stage barriers or a schedule)`,
        );
    if (req.protocol === "async")
      for (const k of DRS_N_FIELDS)
        if (has(k) && r[k] !== false)
          return problem(k, "drs-n-only", `${k} is a drs-n option; async (AC, 003 fig. 2) makes no inquiries`);
    if (req.protocol === "drs-n" && net !== null) {
      const k = net["routes"] ? "network" : NETWORK_FIELDS.find((f) => net[f] !== undefined);
      if (k !== undefined)
        return problem(
          k,
          "async-only",
          "drs-n does not run on the flow model (its lock admits a message when the receiver's port frees); a network is an async option",
        );
    }
    if (r["fabric"] === "ocpc")
      return problem(
        "fabric",
        "ocpc-protocol",
        "the ocpc topology is defined per step of a schedule (001 sec 2); the protocols run on flat or cm5-fat-tree",
      );
  } else {
    for (const k of PROTOCOL_FIELDS)
      if (has(k)) return problem(k, "protocol-only", `${k} is an option of a protocol run`);
    if (r["mode"] === "blocking" && has("sendBuffers"))
      return problem("sendBuffers", "nonblocking-only", "send buffers are a nonblocking-mode option (004 sec 3.4)");
    if (r["mode"] === "blocking" && has("sendWaits"))
      return problem(
        "sendWaits",
        "nonblocking-only",
        r["sendWaits"] === "data"
          ? "blocking mode always waits for the receives of earlier steps (004 sec 2.3); sendWaits 'data' is a nonblocking-mode option"
          : "sendWaits is a nonblocking-mode option (blocking mode always waits for the receives of earlier steps, 004 sec 2.3)",
      );
  }
  if (net !== null && !net["routes"])
    for (const k of NETWORK_FIELDS)
      if (net[k] !== undefined) return problem(k, "network-only", `${k} is an option of a run on a network`);
  return null;
}

/** Checks `req` once (fields that do not belong, then every value against `machine`) and fills its defaults. */
export function resolveSimRequest(req: SimulatorRequest, machine: MachineModel): ResolvedSimRequest {
  checkArg(
    "simulate",
    "resolveSimRequest",
    "req",
    req,
    isOptionsObject(req),
    "a SimulatorRequest object",
    "BAD_OPTION",
  );
  if (req.kind === "protocol") return { kind: "protocol", options: resolveProtocol(req, machine) };
  return { kind: "replay", options: resolveReplay(req, machine) };
}

/** The most send and receive ports per node a replay takes (the simulator replays each port; compare, simulate). */
export const MAX_SIM_PORTS = 1024;

/**
 * The numeric and enumerated options of a replay, checked by resolveSpecs (the rules between them follow in
 * resolveReplay).
 */
const SIM_SPECS = {
  mode: choice(["blocking", "nonblocking"], {
    description: "blocking or nonblocking (004 sec 2.2)",
    default: "blocking",
  }),
  ports: integer({
    description: "send and receive ports per node",
    min: 1,
    max: MAX_SIM_PORTS,
    derived: "the machine's",
  }),
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

/** The keys of a ReplayRequest of either mode (simRequestProblem refuses a nonblocking one in blocking mode). */
const REPLAY_KEYS: readonly string[] = Object.freeze([
  "kind",
  "mode",
  "lockstep",
  "ports",
  "fabric",
  "data",
  "recvOrder",
  "stageBarriers",
  "network",
  "timeline",
  "seed",
  "progress",
  "sendBuffers",
  "sendWaits",
]);

/** The keys of a ProtocolRunRequest of either protocol (simRequestProblem refuses drs-n's in async). */
const PROTOCOL_KEYS: readonly string[] = Object.freeze([
  "kind",
  "protocol",
  "generateRecv",
  "fabric",
  "network",
  "timeline",
  "seed",
  "progress",
  "inquiry",
  "busyMeasure",
  "earlyGoAhead",
  "maxInquiries",
]);

/**
 * Checks the request argument of simulateSchedule or runProtocol: an options object, or undefined where `optional`
 * (its keys are checked when it is resolved).
 */
export function checkRequestObject(module: string, req: unknown, optional: boolean): void {
  checkOptionsObject(module, "request", req);
  if (req === undefined && !optional)
    throw fail(module, "BAD_OPTION", 'a request is needed: { protocol: "async" or "drs-n", ... }', {
      field: "request",
    });
}

/**
 * checkOptionKeys of a request (module "simulate", as its other field checks) for the keys outside `own` and outside
 * `theirs` (the other kind's fields, which simRequestProblem refuses with its rule: "inquiry is an option of a
 * protocol run" says more than "unknown option").
 */
function checkRequestKeys(req: unknown, own: readonly string[], theirs: readonly string[]): void {
  if (!isOptionsObject(req)) return;
  const unknown = Object.keys(req).filter((k) => !theirs.includes(k));
  checkOptionKeys("simulate", Object.fromEntries(unknown.map((k) => [k, true])), own);
}

/** Checks a replay request and fills its defaults. */
export function resolveReplay(req: ReplayRequest, machine: MachineModel): SimOptions {
  checkMachine(machine, "simulate");
  checkRequestKeys(req, REPLAY_KEYS, PROTOCOL_FIELDS);
  // a blocking request's nonblocking fields are checked as values first, then refused (simRequestProblem)
  const loose = req as Partial<NonblockingReplayRequest>;
  const given = {
    mode: req.mode,
    ports: req.ports ?? machine.ports,
    sendBuffers: loose.sendBuffers,
    sendWaits: loose.sendWaits,
    recvOrder: req.recvOrder,
  };
  const r = resolveSpecs(SIM_SPECS, given, {
    module: "simulate",
    label: (name) => name,
    unknown: (name, known, suggestion) => `unknown option '${name}'${suggestion}; known: ${known}`,
    field: (name) => name,
  });
  const { mode, sendBuffers, recvOrder } = r;
  const ports = r.ports ?? machine.ports;
  const fabric = resolveFabric(req.fabric, machine);
  const shape = simRequestProblem(req);
  if (shape !== null) throw bad(shape.field, shape.message);
  const sendWaits = r.sendWaits ?? (mode === "blocking" ? "steps" : "data");
  const seed = resolveSeed(req.seed);
  const lockstep = flag("lockstep", req.lockstep, false);
  const timeline = flag("timeline", req.timeline, true);
  if (fabric === "ocpc" && !lockstep)
    throw bad("fabric", "the ocpc topology is defined per step (001 sec 2): use it with lockstep (lockstep: true)");
  if (fabric === "ocpc" && mode !== "blocking")
    throw bad("fabric", "the ocpc topology is simulated in blocking mode only");
  if (fabric === "ocpc" && recvOrder !== "arrival")
    throw bad(
      "recvOrder",
      "the ocpc topology has no receive queue (colliding messages are resent): recvOrder 'step' does not apply",
    );
  if (fabric === "ocpc" && ports !== 1)
    throw bad("ports", `the ocpc topology has one send and one receive port per node (001 sec 2); got ports ${ports}`);
  const stageBarriers = flag("stageBarriers", req.stageBarriers, true);
  if (!stageBarriers && lockstep)
    throw bad(
      "stageBarriers",
      "lock-step already puts a barrier after every step: stageBarriers false needs a free run",
    );
  if (!stageBarriers && req.data)
    throw bad("stageBarriers", "data mode follows the elements stage by stage: run it with the stage barriers");
  const net = resolveNetwork(req.network ?? null, fabric);
  return {
    ...net,
    mode,
    lockstep,
    ports,
    fabric,
    data: req.data ?? null,
    timeline,
    sendBuffers,
    sendWaits,
    recvOrder,
    stageBarriers,
    seed,
    progress: checkProgress(req.progress, "simulate"),
  };
}

/**
 * Checks the network options: a network replaces the fabric's t_d (flat only), its links need bandwidth > 0 and
 * latency >= 0.
 */
function resolveNetwork(
  req: NetworkRequest | null,
  fabric: FabricName,
): Pick<SimOptions, "network" | "portSharing" | "fullRecompute" | "linkFactor" | "fill"> {
  const fill = req?.fill ?? DEFAULT_FILL_TUNING;
  if (req === null) return { network: null, portSharing: "serial", fullRecompute: false, linkFactor: false, fill };
  const network = req.routes;
  const linkFactor = flag("linkFactor", req.linkFactor, true);
  const portSharing: PortSharing = req.portSharing ?? "serial";
  if (!PORT_SHARINGS.includes(portSharing))
    throw bad("portSharing", `unknown port sharing '${String(portSharing)}'; known: ${PORT_SHARINGS.join(", ")}`);
  const fr = req.flowRecompute ?? "component";
  if (fr !== "component" && fr !== "full")
    throw bad("flowRecompute", `flowRecompute must be component or full, got '${String(fr)}'`);
  if (fabric !== "flat")
    throw bad("fabric", `a network replaces the topology: use it with the flat topology (got ${fabric})`);
  const shape = networkProblem(network);
  if (shape !== null) throw bad("network", shape);
  for (let l = 0; l < network.links; l++) {
    const b = network.bandwidth[l]!,
      lat = network.latency[l]!;
    if (!(b > 0)) throw bad(`network.bandwidth[${l}]`, `link ${network.linkLabel(l)} has bandwidth ${b}; need > 0`);
    if (!(lat >= 0) || !Number.isFinite(lat))
      throw bad(`network.latency[${l}]`, `link ${network.linkLabel(l)} has latency ${lat}; need a finite value >= 0`);
  }
  return { network, portSharing, fullRecompute: fr === "full", linkFactor, fill };
}

/** Checks a protocol request and fills its defaults. */
export function resolveProtocol(req: ProtocolRunRequest, machine: MachineModel): ProtocolOptions {
  checkMachine(machine, "protocols");
  checkRequestKeys(req, PROTOCOL_KEYS, ["stageBarriers", ...REPLAY_FIELDS]);
  if (!PROTOCOLS.includes(req.protocol))
    throw bad("protocol", `unknown protocol '${String(req.protocol)}'; known: ${PROTOCOLS.join(", ")}`);
  const shape = simRequestProblem(req);
  if (shape !== null) throw bad(shape.field, shape.message);
  const drs = req.protocol === "drs-n" ? req : null;
  const inquiry = drs?.inquiry ?? 2 * machine.ts;
  if (typeof inquiry !== "number" || !(inquiry >= MIN_INQUIRY) || !Number.isFinite(inquiry))
    throw bad("inquiry", `inquiry must be a finite time >= ${MIN_INQUIRY} us, got ${String(inquiry)}`);
  const maxInquiries = drs?.maxInquiries ?? MAX_INQUIRIES;
  if (!Number.isInteger(maxInquiries) || maxInquiries < 1)
    throw bad("maxInquiries", `maxInquiries must be an integer >= 1, got ${String(maxInquiries)}`);
  const fabric = resolveFabric(req.fabric, machine);
  if (fabric === "ocpc")
    throw bad(
      "fabric",
      "the ocpc topology is defined per step of a schedule (001 sec 2); the protocols run on flat or cm5-fat-tree",
    );
  const name: ProtocolName = req.protocol;
  return {
    protocol: name,
    seed: resolveSeed(req.seed),
    generateRecv: flag("generateRecv", req.generateRecv, false),
    inquiry,
    busyMeasure: flag("busyMeasure", drs?.busyMeasure, false),
    earlyGoAhead: flag("earlyGoAhead", drs?.earlyGoAhead, false),
    maxInquiries,
    fabric,
    timeline: flag("timeline", req.timeline, true),
    progress: req.progress ?? null,
    network: req.protocol === "async" ? (req.network ?? null) : null,
  };
}
