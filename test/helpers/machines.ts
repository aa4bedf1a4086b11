/** Test helper: machine presets on the node-port model (not the OCPC), varied, and the topology the blocking bounds take for them. */
import fc from "fast-check";
import { MACHINES } from "../../src/machines/presets.js";
import type { MachineModel } from "../../src/model/machine.js";

/** The machine presets the blocking bounds model (not the OCPC), with a barrier, an envelope or two ports now and then. */
export const nodePortMachineArb: fc.Arbitrary<MachineModel> = fc
  .record({
    base: fc.constantFrom(...MACHINES.filter((m) => m.fabric !== "ocpc")),
    barrier: fc.constantFrom(0, 0, 25),
    envelope: fc.constantFrom(0, 0, 16),
    ports: fc.constantFrom(1, 1, 1, 2),
  })
  .map(({ base, barrier, envelope, ports }): MachineModel => ({ ...base, barrier, envelope, ports }));

/** The node-port topology of a machine from nodePortMachineArb. */
export const fabricOf = (m: MachineModel): "flat" | "cm5-fat-tree" =>
  m.fabric === "cm5-fat-tree" ? "cm5-fat-tree" : "flat";
