/**
 * The network's per-byte cost between two nodes on a machine's fabric, as the simulated machine charges it: what the
 * bounds (src/bounds) and the simulator (src/machines/sim/fabric.ts) share, so it lives in the model.
 */
import type { FabricName, MachineModel } from "./machine.js";

/** CM-5 data network rates of 000 section 3 (MB/s = bytes/us): within a cluster of 4, of 16, otherwise. */
export const CM5_RATES = { cluster4: 20, cluster16: 10, other: 5 } as const;

/** The network per-byte cost t_d between a and b (for the nonblocking pipeline's network stage). */
export function networkCost(fabric: FabricName, machine: MachineModel): (a: number, b: number) => number {
  if (fabric !== "cm5-fat-tree") return () => machine.td;
  return (a, b) =>
    1 / (a >> 2 === b >> 2 ? CM5_RATES.cluster4 : a >> 4 === b >> 4 ? CM5_RATES.cluster16 : CM5_RATES.other);
}

/**
 * The cheapest network cost per byte from each node to any other of P (min over b != a of
 * networkCost(fabric, machine)(a, b); 0 with no other node), in O(1) per node: flat and OCPC have
 * one t_d; on the CM-5 fat tree it is the rate of the smallest cluster (4, 16, all) holding a second node.
 */
export function cheapestNetworkCost(fabric: FabricName, machine: MachineModel, p: number): (a: number) => number {
  if (fabric !== "cm5-fat-tree") return () => (p > 1 ? machine.td : 0);
  return (a) => {
    const others = (size: number): boolean => Math.min(p, (a & ~(size - 1)) + size) - (a & ~(size - 1)) > 1;
    if (p <= 1) return 0;
    return 1 / (others(4) ? CM5_RATES.cluster4 : others(16) ? CM5_RATES.cluster16 : CM5_RATES.other);
  };
}
