/**
 * commplan: plan, prove and replay communication schedules for parallel machines.
 *
 * The root entry holds the everyday path: a matrix in, a plan (or auto's pick), its proof, its cost, its replay,
 * its lowering and export, and the formats read and written on the way. The rest of the API lives in subpath entries,
 * one concept each: `commplan/model` (the vocabulary in full), `commplan/io` (every file format), `commplan/planner`
 * (writing a planner), `commplan/patterns` (generators and workloads), `commplan/sim` (the simulated machine,
 * networks and lower bounds), `commplan/export` (runtime formats and pictures), `commplan/compare` (comparisons,
 * sweeps, reports), `commplan/store` (the plan store) and `commplan/testing` (the property-testing kit).
 * test/index.test.ts pins every entry's names (test/fixtures/public-api.txt).
 */

// errors
export { CommplanError, isCommplanError, type ErrorCode } from "./model/errors.js";
// matrices
export { matrixFromRows, matrixFromEntries, type CommMatrix } from "./model/matrix.js";
export { matrixStats, type MatrixStats } from "./model/matrix-stats.js";
export { PATTERNS, generatePattern, type PatternDef } from "./patterns/registry.js";
// schedules
export {
  ScheduleBuilder,
  type Schedule,
  type ScheduleHeader,
  type StageInfo,
  type JsonValue,
} from "./model/schedule.js";
export type { ProgressCallback } from "./model/progress.js";
// planners and auto
export { PLANNERS, findPlanner, plan, type PlanRequest } from "./planner/registry.js";
export type { Planner, PlanOptions } from "./planner/types.js";
export { planAuto, type AutoOptions, type AutoResult } from "./auto/index.js";
// proof
export { verifySchedule, type VerifyOptions } from "./verifier/verify.js";
export type { Check, Report } from "./verifier/report.js";
// machines, cost, replay
export { MACHINES, findMachine } from "./machines/presets.js";
export type { MachineModel } from "./model/machine.js";
export { scheduleCost, type CostMode, type ScheduleCost } from "./machines/cost-model.js";
export { simulateSchedule, type SimResult } from "./machines/sim/simulate.js";
export type { SimulatorRequest } from "./machines/sim/request.js";
export { runProtocol, type ProtocolResult } from "./machines/sim/protocols.js";
// programs and exports
export { lowerSchedule, type LowerOptions, type LowerResult } from "./lower/lower-schedule.js";
export type { Program } from "./model/program.js";
export { verifyProgram } from "./verifier/program/index.js";
export { EXPORT_FORMATS, type ExportFormat } from "./export/index.js";
// comparison
export { compareMatrix, type CompareReport } from "./compare/compare.js";
// files
export { readMatrixFile } from "./io/matrix-read.js";
export { writeMatrixFile } from "./io/matrix-write.js";
export { readScheduleFile } from "./io/schedule-read.js";
export { writeScheduleJson } from "./io/schedule-json-write.js";
export { readProgramJson } from "./io/program-json-read.js";
export { writeProgramJson } from "./io/program-json-write.js";
// the plan store
export { openPlanStore, getOrPlan, type PlanStore } from "./store/index.js";
