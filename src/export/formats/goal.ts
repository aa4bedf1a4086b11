/** The goal format: GOAL text for LogGOPSim's txt2bin, copies as calc from --machine's t_m. */
import { writePieces } from "../../io/file-output.js";
import { goalChunks } from "../goal.js";
import { requireSingleFile, resolveTarget } from "../export-target.js";
import type { ProgramExportFormat } from "../types.js";

/** GOAL text, rounds chained with requires; copies as calc in picoseconds from --machine's t_m, else calc 0. */
export const goalFormat: ProgramExportFormat = {
  name: "goal",
  title:
    "GOAL text for LogGOPSim's txt2bin (rounds chained with requires; copies as calc in picoseconds from the machine's t_m, else calc 0)",
  input: "program",
  options: [{ option: "machine", help: "calc of copies" }],
  progressUnit: "ranks",
  write: async (prog, target, progress) => {
    const t = resolveTarget(target);
    requireSingleFile(t, "goal");
    const opts = { calcPerByte: t.machine === null ? 0 : t.machine.tm * 1e6, progress };
    await writePieces(goalChunks(prog, opts), t.output, "export", t.out);
  },
};
