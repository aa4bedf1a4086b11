/**
 * commplan: plan, prove and replay communication schedules for parallel machines (the public API).
 *
 * Every public export is named here, grouped by the job it does; test/index.test.ts pins the list
 * (test/fixtures/public-api.txt), so a change to the API shows as a diff. Internals (event heaps,
 * growable arrays, round engines, noise constants) are not exported.
 */

// errors
export { CommplanError, isCommplanError, type ErrorCode, type ErrorPlace } from "./model/errors.js";

// matrices: build, inspect, digest
export {
  MAX_P,
  DEFAULT_ELEMENT_BYTES,
  matrixFromData,
  matrixFromRows,
  matrixFromEntries,
  zeroMatrix,
  entry,
  matrixToRows,
  matrixDigest,
  type CommMatrix,
  type MatrixOptions,
} from "./model/matrix.js";
export { matrixStats, classify, type MatrixStats, type MatrixClass } from "./model/matrix-stats.js";
export { createRng, type Rng } from "./model/rng.js";

// pattern generators
export {
  PATTERNS,
  findPattern,
  generatePattern,
  resolvePatternOptions,
  MAX_SEED,
  type PatternDef,
  type PatternOption,
} from "./patterns/registry.js";

// the schedule IR
export {
  ScheduleBuilder,
  REARRANGE_KINDS,
  stageOfStep,
  stepOfTransfer,
  type Schedule,
  type ScheduleHeader,
  type StageInfo,
  type ChunkTable,
  type TransferTimes,
  type Rearrange,
  type JsonValue,
} from "./model/schedule.js";

// file formats: matrices (JSON, CSV, Matrix Market) and schedules (JSON), schemas
export {
  readMatrixFile,
  parseMatrixText,
  sniffMatrixFormat,
  matrixFormatOfName,
  type MatrixFileFormat,
  type ParseMatrixOptions,
} from "./io/matrix-read.js";
export {
  writeMatrixFile,
  matrixPieces,
  matrixToJsonText,
  matrixToCsvText,
  matrixToMtxText,
  type MatrixWriteOptions,
} from "./io/matrix-write.js";
export { readScheduleJson, parseScheduleJsonText, type ReadScheduleOptions } from "./io/schedule-json-read.js";
export { writeScheduleJson, scheduleToJsonText, scheduleJsonPieces } from "./io/schedule-json-write.js";
export { FORMAT_NAMES, loadSchema, type SchemaName } from "./io/json-schema.js";

// planners
export { PLANNERS, findPlanner, plan, resolvePlanOptions, type PlanRequest } from "./planner/registry.js";
export type {
  Planner,
  PlanOptions,
  PlanParams,
  PlannerParam,
  InputParam,
  OutputParam,
  ParamValue,
} from "./planner/types.js";

// the verifier
export { verifySchedule, type VerifyOptions } from "./verifier/verify.js";
export type { Check, Report } from "./verifier/report.js";

// machines and the flat cost model
export { MACHINES, findMachine } from "./machines/presets.js";
export type { MachineModel, TopologyName } from "./model/machine.js";
export {
  scheduleCost,
  COST_MODES,
  type CostMode,
  type ScheduleCost,
  type StageCost,
  type StepCost,
} from "./machines/cost-model.js";

// the simulated machine and the run-time protocols
export { simulateSchedule, type SimResult, type NodeTimes } from "./machines/sim/simulate.js";
export { SEND_WAITS, type SimRequest, type SimMode, type SendWaits } from "./machines/sim/options.js";
export { TOPOLOGIES } from "./machines/sim/topology.js";
export {
  runProtocol,
  PROTOCOLS,
  type ProtocolName,
  type ProtocolRequest,
  type ProtocolResult,
} from "./machines/sim/protocols.js";
export { INTERVAL_KINDS, type IntervalKind } from "./machines/sim/timeline.js";
export type { Timeline } from "./model/timeline.js";

// runtime programs: a schedule lowered to per-rank operations, checked, and written for runtimes
export { lowerSchedule, type LowerOptions, type LowerResult } from "./lower/lower-schedule.js";
export { BUFFER_NAMES, OP_KINDS } from "./model/program.js";
export type { Program, ProgramVariant, OpTable, PieceTable, RankLayout, BufferName, OpKind } from "./model/program.js";
export { readProgramJson, type ProgramDocument } from "./io/program-json-read.js";
export { writeProgramJson, writeProgramSplit, programToJsonText, programJsonPieces } from "./io/program-json-write.js";
export { verifyProgram, type ProgramVerifyOptions } from "./verifier/program/index.js";
export { simgridTraceFiles, type ExportedFile, type SimgridTraceOptions } from "./export/simgrid-trace.js";
export { simgridPlatformXml, simgridHostfile, SMPI_FLAGS } from "./export/simgrid-platform.js";
export { goalText, goalPieces, type GoalOptions } from "./export/goal.js";
export { mscclXml, MSCCL_LIMITS, type MscclOptions } from "./export/msccl-xml.js";

// pictures and traces
export { stepGrid, stepGridText, stepGridSvg, type StepGrid, type GridCell } from "./export/step-grid.js";
export { timelineToSvg, type GanttOptions, type GanttTimeline } from "./export/svg-gantt.js";
export { timelineToChromeTrace, type TraceTimeline, type TraceMeta } from "./export/trace-chrome.js";

// flowsim: link contention in the simulated machine (flow model, max-min sharing) and the link-load SVG
export { PORT_SHARINGS, type PortSharing } from "./machines/sim/options.js";
export { HOTTEST_LINKS, type LinkLoad, type SimNetworkStats } from "./machines/sim/link-contention.js";
export type { FlowRecomputeStats } from "./machines/sim/flow-network.js";
export { linkLoadSvg, MAX_HEATMAP_LINKS, type LinkLoadEntry, type LinkLoadSvgOptions } from "./export/svg-link-load.js";
