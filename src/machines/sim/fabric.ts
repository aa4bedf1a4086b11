/** Fabrics of the simulated machine: flat (004 sec 2), the CM-5 fat tree (000 sec 3), the OCPC (001 sec 2). */
import { fail } from "../../model/errors.js";
import type { MachineModel, FabricName } from "../../model/machine.js";
import { CM5_RATES } from "../../model/fabric-cost.js";

export { CM5_RATES, cheapestNetworkCost, networkCost } from "../../model/fabric-cost.js";

/**
 * flat: one t_d for every pair; cm5-fat-tree: t_d by cluster level; ocpc: flat rates, colliding messages fail and are
 * resent.
 */
export type { FabricName } from "../../model/machine.js";
/** Every FabricName, in order. */
export const FABRICS: readonly FabricName[] = Object.freeze(["flat", "cm5-fat-tree", "ocpc"]);

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
