/** The arrow format: the schedule itself (not lowered, no matrix) as an Arrow IPC file. */
import { writeBytesAtomic } from "../../io/bytes-output.js";
import { encodeScheduleArrow } from "../../io/schedule-arrow.js";
import { requireSingleFile } from "../export-target.js";
import type { ScheduleExportFormat } from "../types.js";

/** The schedule as an Arrow IPC file: transfers with nested chunks (docs/arrow.md). */
export const arrowFormat: ScheduleExportFormat = {
  name: "arrow",
  title: "the schedule (not lowered; no matrix) as an Arrow IPC file: transfers with nested chunks (docs/arrow.md)",
  input: "schedule",
  options: [],
  write: async (s, t) => {
    requireSingleFile(t, "arrow");
    await writeBytesAtomic(encodeScheduleArrow(s), t.output, "export");
  },
};
