/** The msccl-xml format: MSCCL-IR XML of the program in uniform chunks of --chunk elements. */
import { writePieces } from "../../io/file-output.js";
import { mscclXml } from "../msccl-xml.js";
import { requireSingleFile, resolveTarget } from "../export-target.js";
import type { ProgramExportFormat } from "../types.js";

/** MSCCL-IR XML (uniform chunks, refused past the runtime's limits). */
export const mscclXmlFormat: ProgramExportFormat = {
  name: "msccl-xml",
  title:
    "MSCCL-IR XML (uniform chunks of `chunk` elements, default the gcd of every offset and count; refused past the runtime's limits)",
  input: "program",
  options: [{ option: "chunk", help: "elements per chunk (default: the gcd of every piece offset and count)" }],
  progressUnit: "ranks",
  write: async (prog, target) => {
    const t = resolveTarget(target);
    requireSingleFile(t, "msccl-xml");
    const xml = mscclXml(prog, t.chunk === null ? {} : { chunkElements: t.chunk });
    await writePieces([xml], t.output, "export", t.out);
  },
};
