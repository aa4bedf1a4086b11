/** Simulation options: the one place they get defaults and are checked. */
import { fail } from "../../model/errors.js";
import type { CommMatrix } from "../../model/matrix.js";
import { TOPOLOGIES, type TopologyName } from "./topology.js";

/** blocking: a transfer holds both ports for T_s + m (t_c + t_d); nonblocking: processor, copy engine and network pipeline (004 sec 2.2). */
export type SimMode = "blocking" | "nonblocking";

/** Options of simulateSchedule as a caller gives them. */
export interface SimRequest {
  readonly mode?: SimMode;
  /** A barrier (free, beyond the stage barriers) after every step (000 fig. 3). Default false. */
  readonly lockstep?: boolean;
  /** Send and receive ports per node; default the machine's. */
  readonly ports?: number;
  readonly topology?: TopologyName;
  /** Data mode: move element tags; needs payload chunks and the matrix. */
  readonly data?: CommMatrix | null;
  /** Record the per-node timeline (intervals). Default true. */
  readonly timeline?: boolean;
  /** Nonblocking mode: interface send buffers per node (1 single, 2 dual; 004 sec 3.4). Default 2. */
  readonly sendBuffers?: number;
  /** Seed for random choices (OCPC resend order). Default 1. */
  readonly seed?: number;
  /** Called now and then with (events so far, transfers done, transfers in all). */
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
  readonly seed: number;
  readonly progress: ((done: number, total: number) => void) | null;
}

/** Fills defaults and checks every value once. */
export function resolveSimOptions(req: SimRequest, machinePorts: number): SimOptions {
  const mode = req.mode ?? "blocking";
  if (mode !== "blocking" && mode !== "nonblocking") throw fail("simulate", "BAD_OPTION", `mode must be blocking or nonblocking, got '${String(mode)}'`, { field: "mode" });
  const ports = req.ports ?? machinePorts;
  if (!Number.isInteger(ports) || ports < 1 || ports > 1024) throw fail("simulate", "BAD_OPTION", `ports must be an integer in 1..1024, got ${ports}`, { field: "ports" });
  const topology = req.topology ?? "flat";
  if (!TOPOLOGIES.includes(topology)) throw fail("simulate", "BAD_OPTION", `unknown topology '${String(topology)}'; known: ${TOPOLOGIES.join(", ")}`, { field: "topology" });
  const sendBuffers = req.sendBuffers ?? 2;
  if (!Number.isInteger(sendBuffers) || sendBuffers < 1 || sendBuffers > 1024) throw fail("simulate", "BAD_OPTION", `sendBuffers must be an integer in 1..1024, got ${sendBuffers}`, { field: "sendBuffers" });
  const seed = req.seed ?? 1;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw fail("simulate", "BAD_OPTION", `seed must be an integer in 0..4294967295, got ${seed}`, { field: "seed" });
  if (topology === "ocpc" && !(req.lockstep ?? false)) throw fail("simulate", "BAD_OPTION", "the ocpc topology is defined per step (001 sec 2): use it with lockstep", { field: "topology" });
  if (topology === "ocpc" && mode !== "blocking") throw fail("simulate", "BAD_OPTION", "the ocpc topology is simulated in blocking mode only", { field: "topology" });
  return { mode, lockstep: req.lockstep ?? false, ports, topology, data: req.data ?? null, timeline: req.timeline ?? true, sendBuffers, seed, progress: req.progress ?? null };
}
