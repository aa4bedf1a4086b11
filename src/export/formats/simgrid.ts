/**
 * The simgrid format: SimGrid time-independent traces, the platform and the hostfile of a --machine preset, into --out
 * DIR.
 */
import { fail } from "../../model/errors.js";
import { writeDirectoryFiles } from "../../io/directory-output.js";
import { simgridCopyFlopsPerByte, simgridPlatformFiles } from "../simgrid-platform.js";
import { simgridTraceFiles } from "../simgrid-trace.js";
import { resolveTarget, targetDirectory } from "../export-target.js";
import type { ProgramExportFormat } from "../types.js";

/** SimGrid traces (rank-<r>.txt, index.txt), platform.xml and hosts, for smpirun's replay. */
export const simgridFormat: ProgramExportFormat = {
  name: "simgrid",
  title:
    "SimGrid time-independent traces (rank-<r>.txt, index.txt), platform.xml and hosts from the machine, into a directory (dir); run from it: smpirun -np P -platform platform.xml -hostfile hosts -replay index.txt (docs/runtimes.md)",
  input: "program",
  options: [
    {
      option: "out",
      help: "the directory of its files (traces, platform.xml, hosts; a regular file there is replaced; a link, FIFO or directory at one of their names is refused)",
    },
    { option: "machine", help: "the platform" },
  ],
  progressUnit: "files",
  write: async (prog, target, progress) => {
    const t = resolveTarget(target);
    const dir = targetDirectory(t, "simgrid");
    if (t.machine === null)
      throw fail(
        "export",
        "BAD_OPTION",
        "format simgrid needs a machine (the platform's latency and bandwidth come from the preset)",
        { field: "machine" },
      );
    await writeDirectoryFiles(
      [
        ...simgridTraceFiles(prog, { computeFlopsPerByte: simgridCopyFlopsPerByte(t.machine) }),
        ...simgridPlatformFiles(prog.p, t.machine),
      ],
      dir,
      t.inputs,
      progress,
      "export",
    );
  },
};
