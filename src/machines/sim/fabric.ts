/** Fabrics of the simulated machine: flat (004 sec 2), the CM-5 fat tree (000 sec 3), the OCPC (001 sec 2). */
import { fail } from "../../model/errors.js";
import type { MachineModel, FabricName } from "../../model/machine.js";

/**
 * flat: one t_d for every pair; cm5-fat-tree: t_d by cluster level; ocpc: flat rates, colliding messages fail and are
 * resent.
 */
export type { FabricName } from "../../model/machine.js";
/** Every FabricName, in order. */
export const FABRICS: readonly FabricName[] = Object.freeze(["flat", "cm5-fat-tree", "ocpc"]);

/** CM-5 data network rates of 000 section 3 (MB/s = bytes/us): within a cluster of 4, of 16, otherwise. */
export const CM5_RATES = { cluster4: 20, cluster16: 10, other: 5 } as const;

/**
 * Per-pair per-byte cost t_c + t_d (us/byte) for `fabric`. For flat and ocpc this is the machine's
 * t_c + t_d computed exactly as cost-model.ts does (so lock-step replays match it bit for bit).
 * For the fat tree, t_d = 1 / rate of the smallest cluster holding both nodes (000 sec 3).
 */
export function perByteCost(fabric: FabricName, machine: MachineModel): (a: number, b: number) => number {
  const flat = machine.tc + machine.td;
  switch (fabric) {
    case "flat":
    case "ocpc":
      return () => flat;
    case "cm5-fat-tree": {
      const c4 = machine.tc + 1 / CM5_RATES.cluster4;
      const c16 = machine.tc + 1 / CM5_RATES.cluster16;
      const other = machine.tc + 1 / CM5_RATES.other;
      return (a, b) => (a >> 2 === b >> 2 ? c4 : a >> 4 === b >> 4 ? c16 : other);
    }
    default:
      throw fail("simulate", "BAD_OPTION", `unknown topology '${String(fabric)}'; known: ${FABRICS.join(", ")}`, {
        field: "fabric",
      });
  }
}

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
