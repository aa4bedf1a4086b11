/** The arrow format: the schedule itself (not lowered, no matrix) as an Arrow IPC file. */
import { writeBytesAtomic } from "../../io/bytes-output.js";
import { requireSingleFile, resolveTarget } from "../export-target.js";
import type { ScheduleExportFormat } from "../types.js";

/** The schedule as an Arrow IPC file: transfers with nested chunks (docs/arrow.md). */
export const arrowFormat: ScheduleExportFormat = {
  name: "arrow",
  title: "the schedule (not lowered; no matrix) as an Arrow IPC file: transfers with nested chunks (docs/arrow.md)",
  input: "schedule",
  options: [],
  write: async (s, target) => {
    const t = resolveTarget(target);
    requireSingleFile(t, "arrow");
    // apache-arrow is loaded by the one format that writes it, not by every export
    const { encodeScheduleArrow } = await import("../../io/schedule-arrow.js");
    await writeBytesAtomic(encodeScheduleArrow(s), t.output, "export");
  },
};
