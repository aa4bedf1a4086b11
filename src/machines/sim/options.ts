/** Simulation options: the one place they get defaults and are checked. */
import { fail } from "../../model/errors.js";
import type { MachineModel } from "../../model/machine.js";
import type { CommMatrix } from "../../model/matrix.js";
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
  /** Seed for random choices (OCPC backoff). Default 1. */
  readonly seed?: number;
  /** Called now and then with (transfers done, transfers in all). */
  readonly progress?: ((done: number, total: number) => void) | null;
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
  readonly seed: number;
  readonly progress: ((done: number, total: number) => void) | null;
}

const bad = (field: string, text: string): Error => fail("simulate", "BAD_OPTION", text, { field });

/** Checks a topology name; the machine's default when undefined. */
export function resolveTopology(t: TopologyName | undefined, machine: MachineModel): TopologyName {
  const topology = t ?? machine.topology ?? "flat";
  if (!TOPOLOGIES.includes(topology)) throw bad("topology", `unknown topology '${String(topology)}'; known: ${TOPOLOGIES.join(", ")}`);
  return topology;
}

/** Checks a seed (an integer in 0..2^32 - 1); 1 when undefined. */
export function resolveSeed(seed: number | undefined): number {
  const v = seed ?? 1;
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw bad("seed", `seed must be an integer in 0..4294967295, got ${v}`);
  return v;
}

/** Fills defaults and checks every value once. */
export function resolveSimOptions(req: SimRequest, machine: MachineModel): SimOptions {
  const mode = req.mode ?? "blocking";
  if (mode !== "blocking" && mode !== "nonblocking") throw bad("mode", `mode must be blocking or nonblocking, got '${String(mode)}'`);
  const ports = req.ports ?? machine.ports;
  if (!Number.isInteger(ports) || ports < 1 || ports > 1024) throw bad("ports", `ports must be an integer in 1..1024, got ${ports}`);
  const topology = resolveTopology(req.topology, machine);
  const sendBuffers = req.sendBuffers ?? 2;
  if (!Number.isInteger(sendBuffers) || sendBuffers < 1 || sendBuffers > 1024) throw bad("sendBuffers", `sendBuffers must be an integer in 1..1024, got ${sendBuffers}`);
  if (req.sendBuffers !== undefined && mode !== "nonblocking") throw bad("sendBuffers", "send buffers are a nonblocking-mode option (004 sec 3.4)");
  const sendWaits = req.sendWaits ?? (mode === "blocking" ? "steps" : "data");
  if (!SEND_WAITS.includes(sendWaits)) throw bad("sendWaits", `sendWaits must be one of ${SEND_WAITS.join(", ")}, got '${String(sendWaits)}'`);
  if (mode === "blocking" && sendWaits !== "steps") throw bad("sendWaits", "blocking mode always waits for the receives of earlier steps (004 sec 2.3); sendWaits 'data' is a nonblocking-mode option");
  const seed = resolveSeed(req.seed);
  if (topology === "ocpc" && !(req.lockstep ?? false)) throw bad("topology", "the ocpc topology is defined per step (001 sec 2): use it with lockstep");
  if (topology === "ocpc" && mode !== "blocking") throw bad("topology", "the ocpc topology is simulated in blocking mode only");
  if (topology === "ocpc" && ports !== 1) throw bad("ports", `the ocpc topology has one send and one receive port per node (001 sec 2); got ports ${ports}`);
  return { mode, lockstep: req.lockstep ?? false, ports, topology, data: req.data ?? null, timeline: req.timeline ?? true, sendBuffers, sendWaits, seed, progress: req.progress ?? null };
}
