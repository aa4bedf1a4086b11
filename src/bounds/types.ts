/**
 * Types of the lower bounds: which time a bound bounds (cost model or simulated machine, mode) and which schedules it
 * holds for.
 */
import type { MachineModel } from "../model/machine.js";

/**
 * The time a bound is a lower bound of: the flat cost model (`scheduleCost`) or the simulated machine
 * (`simulateSchedule`), in a mode.
 */
export type BoundTarget = "cost-blocking" | "cost-nonblocking" | "sim-blocking" | "sim-nonblocking";
/** Every BoundTarget, in order. */
export const BOUND_TARGETS: readonly BoundTarget[] = Object.freeze([
  "cost-blocking",
  "cost-nonblocking",
  "sim-blocking",
  "sim-nonblocking",
]);

/**
 * The schedules a bound holds for. "all": every valid schedule, relays and split messages included;
 * "direct": schedules with at least one transfer i -> j for every pair with M[i][j] > 0 (i != j),
 * as every direct schedule has (schedule-class.ts decides it from a schedule).
 */
export type BoundScope = "all" | "direct";

/** One named lower bound on the completion time of a matrix on a machine. */
export interface LowerBound {
  /** Short name, unique within a target (e.g. "traffic", "busiest-node"). */
  readonly name: string;
  readonly target: BoundTarget;
  readonly scope: BoundScope;
  /**
   * True when the bound needs contention-free steps (cost model blocking: the model ignores node contention,
   * docs/cost-model.md).
   */
  readonly contentionFree: boolean;
  /** The bound (us); 0 when the matrix moves nothing over the network. */
  readonly value: number;
  /** The formula, in the notation of docs/bounds.md. */
  readonly formula: string;
}

/** What a bound is computed for: the machine, and for the simulated machine its ports and per-pair network cost. */
export interface BoundRequest {
  readonly machine: MachineModel;
  /** Send and receive ports per node on the simulated machine (default the machine's); the cost model has one. */
  readonly ports?: number;
  /**
   * Network time per byte t_d between a and b on the simulated machine (default: the machine's fabric's, as the
   * simulated machine charges it: per cluster level on the CM-5 fat tree, machine.td for every pair elsewhere). The
   * cost model always uses machine.td.
   */
  readonly pairTd?: (a: number, b: number) => number;
  /**
   * With pairTd: the cheapest pairTd from a to any other node, when known in closed form (the CM-5
   * fat tree: cheapestNetworkCost); without it the bounds find it in an O(P^2) pass.
   */
  readonly pairTdMin?: (a: number) => number;
}
