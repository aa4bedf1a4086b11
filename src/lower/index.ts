/** The lowering: schedules to per-rank runtime programs. */
export { lowerSchedule, type LowerOptions, type LowerResult } from "./lower-schedule.js";
export { TAG_LIMIT } from "./tags.js";
export type { DisplacementOptions } from "./layout.js";
export { relayPeak } from "./relay-peak.js";
export { dataflowAfter, dataflowProgram, scratchWithoutReuse } from "./dataflow.js";
