/** MachineModel: the flat machine model of 004 section 2 (start-up and per-byte costs, ports). */
import { fail } from "./errors.js";

/** A machine's fabric, its node-level network: flat (004 sec 2), the CM-5 fat tree (000 sec 3), OCPC (001 sec 2). */
export type FabricName = "flat" | "cm5-fat-tree" | "ocpc";

/** A machine model; times in microseconds, per-byte costs in microseconds per byte. */
export interface MachineModel {
  /** Short name used on the command line (e.g. "t3d-004"). */
  readonly name: string;
  /** One-line description. */
  readonly title: string;
  /** Where the numbers come from (paper and table, or a cited measurement). */
  readonly source: string;
  /** T_s = T_s_send + T_s_recv: start-up per message (us). */
  readonly ts: number;
  /** T_s_send: the sender's part of the start-up (us); eq. 3 of 004 charges only this per step. */
  readonly tsSend: number;
  /** t_c: copy between memory and interface per byte (us/byte). */
  readonly tc: number;
  /** t_d: network transfer per byte (us/byte). */
  readonly td: number;
  /** t_m: compose / decompose in memory per byte (us/byte). */
  readonly tm: number;
  /** Send ports and receive ports per node (1 on a single-port machine). */
  readonly ports: number;
  /** Cost of one barrier between stages (us). */
  readonly barrier: number;
  /**
   * Bytes a runtime adds to every network message (its header, e.g. SMPI's 16-byte envelope): the cost
   * model and the simulator charge t_c and t_d on size x elementBytes + envelope. Default 0 (the
   * papers' model); local copies carry none.
   */
  readonly envelope?: number;
  /**
   * The node-level cost fabric the simulated machine uses unless a request names another (flat
   * when absent): how t_d varies by pair (cm5-fat-tree) or per step (ocpc); printed as "topology"
   * by `commplan machines`. A network of links and routes is a simulator request's, not the machine's.
   */
  readonly fabric?: FabricName;
  /** Notes on assumptions (how a combined figure was split, etc.). */
  readonly notes?: string;
}

/**
 * The barrier a stage costs on P nodes: machine.barrier, none at P = 1, where no node waits for another (the cost
 * model, the simulator and every estimate of a plan's flat time charge this; docs/cost-model.md).
 */
export function stageBarrier(machine: MachineModel, p: number): number {
  return p > 1 ? machine.barrier : 0;
}

/**
 * A machine's fields as a JSON record, in order, its fabric under the key "topology" (`commplan machines --json`, store
 * keys).
 */
export function machineRecord(m: MachineModel): { [k: string]: unknown } {
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k === "fabric" ? "topology" : k, v]));
}

/** The time fields of a machine model, each a finite number >= 0. */
const TIME_FIELDS = ["ts", "tsSend", "tc", "td", "tm", "barrier"] as const;

/**
 * The largest time a machine model may give (us, or us per byte): about 11.6 days. Any schedule's
 * modelled time then stays finite (at most 2^32 messages of at most 2^53 bytes each: below 1e12 x
 * 2^85, about 4e37), where a finite ts of 1e300 made makespans Infinity.
 */
export const MAX_MACHINE_TIME = 1e12;

/**
 * What is wrong with a machine model built by hand (a library caller's object; the presets pass),
 * or null: its name a non-empty string, every time a number from 0 to MAX_MACHINE_TIME with tsSend <= ts, ports a
 * positive integer, envelope (when given) a non-negative integer.
 */
export function machineProblem(machine: MachineModel): string | null {
  if (typeof machine === "string")
    return `the machine is a name, not a machine model object: give findMachine(${JSON.stringify(machine)})`;
  if (typeof machine !== "object" || machine === null) return "the machine is not a machine model object";
  const name = typeof machine.name === "string" && machine.name !== "" ? machine.name : null;
  if (name === null)
    return "machine" in machine
      ? "the machine is an options object ({ machine, ... }), not a machine model: give the model itself " +
          "(findMachine(name) or an entry of MACHINES)"
      : "the machine has no name";
  for (const k of TIME_FIELDS) {
    const v: unknown = machine[k];
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0)
      return `machine ${name}: ${k} = ${String(v)} is not a finite number >= 0`;
    if (v > MAX_MACHINE_TIME)
      return `machine ${name}: ${k} = ${v} is more than 1e12 (us, or us per byte: about 11.6 days)`;
  }
  if (machine.tsSend > machine.ts) return `machine ${name}: tsSend = ${machine.tsSend} exceeds ts = ${machine.ts}`;
  if (!Number.isSafeInteger(machine.ports) || machine.ports < 1)
    return `machine ${name}: ports = ${String(machine.ports)} is not a positive integer`;
  const e: unknown = machine.envelope;
  if (e !== undefined && !(typeof e === "number" && Number.isSafeInteger(e) && e >= 0))
    return `machine ${name}: envelope = ${String(e)} is not a non-negative integer`;
  return null;
}

/**
 * Throws a one-line BAD_OPTION error of `module` (field "machine") when machineProblem finds one; after `fn: ` when the
 * public function is named.
 */
export function checkMachine(machine: MachineModel, module: string, fn?: string): void {
  const w = machineProblem(machine);
  if (w !== null) throw fail(module, "BAD_OPTION", fn === undefined ? w : `${fn}: ${w}`, { field: "machine" });
}
