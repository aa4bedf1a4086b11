/** The program format: commplan.program/v1 JSON, one document (-o) or one file per rank and an index (--split). */
import { fail } from "../../model/errors.js";
import { writeProgramJson, writeProgramSplit } from "../../io/program-json-write.js";
import type { ProgramExportFormat } from "../types.js";
import { resolveTarget } from "../export-target.js";

/** commplan.program/v1 JSON: one document, or --split DIR: rank-<r>.json per rank plus index.json. */
export const programFormat: ProgramExportFormat = {
  name: "program",
  title: "commplan.program/v1 JSON (one document, or split into a directory: rank-<r>.json per rank plus index.json)",
  input: "program",
  options: [
    {
      option: "split",
      help: "write one file per rank and an index into this directory (a regular file there is replaced; a link, FIFO or directory at one of their names is refused)",
    },
  ],
  progressUnit: "ranks",
  write: async (prog, target, progress) => {
    const t = resolveTarget(target);
    if (t.dir !== null)
      throw fail(
        "export",
        "BAD_OPTION",
        'format program writes one file (output, "-" for stdout) or one per rank (split), not a directory (dir)',
        { field: "out" },
      );
    if (t.split !== null) await writeProgramSplit(prog, t.split, { progress, ...t.out });
    else await writeProgramJson(prog, t.output, { progress, ...t.out });
  },
};
