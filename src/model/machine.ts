/** MachineModel: the flat machine model of 004 section 2 (start-up and per-byte costs, ports). */

/** The network between the nodes: flat (004 sec 2), the CM-5 fat tree (000 sec 3), the OCPC (001 sec 2). */
export type TopologyName = "flat" | "cm5-fat-tree" | "ocpc";

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
  /** The network the simulated machine uses unless told otherwise (flat when absent); the analytic cost model ignores it. */
  readonly topology?: TopologyName;
  /** Notes on assumptions (how a combined figure was split, etc.). */
  readonly notes?: string;
}
