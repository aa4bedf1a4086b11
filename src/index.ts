/**
 * commplan: plan, prove and replay communication schedules for parallel machines (the public API).
 *
 * Every public export is named here, grouped by the job it does; test/index.test.ts pins the list
 * (test/fixtures/public-api.txt), so a change to the API shows as a diff. Internals (event heaps,
 * growable arrays, round engines, noise constants) are not exported.
 */

// errors
export { CommplanError, isCommplanError, type ErrorCode, type ErrorPlace } from "./model/errors.js";

// matrices: build (dense or sparse), inspect, digest
export {
  MAX_P,
  MAX_DENSE_P,
  DEFAULT_ELEMENT_BYTES,
  matrixFromData,
  matrixFromRows,
  matrixFromEntries,
  matrixFromCoordinates,
  sparseMatrix,
  zeroMatrix,
  entry,
  isSparse,
  matrixRows,
  matrixCols,
  nonzeroCount,
  toSparse,
  toDense,
  withElementBytes,
  matrixToRows,
  matrixDigest,
  type CommMatrix,
  type MatrixOptions,
  type MatrixRows,
  type MatrixCols,
} from "./model/matrix.js";
export { matrixStats, classify, type MatrixStats, type MatrixClass } from "./model/matrix-stats.js";
export { createRng, type Rng } from "./model/rng.js";
// progress of long runs: the optional callback of the planners', the lowering's, the verifier's and the writers'
// options
export type { ProgressCallback } from "./model/progress.js";

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
export {
  writeScheduleJson,
  scheduleToJsonText,
  scheduleJsonPieces,
  type ScheduleWriteOptions,
} from "./io/schedule-json-write.js";
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
export { SEND_WAITS, type SimMode, type SendWaits } from "./machines/sim/options.js";
export type { SimRequest, ProtocolRequest } from "./machines/sim/flat-request.js";
export { resolveSimRequest } from "./machines/sim/request.js";
export type {
  SimulatorRequest,
  ReplayRequest,
  ProtocolRunRequest,
  ResolvedSimRequest,
} from "./machines/sim/request.js";
export type { NetworkRequest } from "./machines/sim/options.js";
export { TOPOLOGIES } from "./machines/sim/topology.js";
export { runProtocol, type ProtocolResult } from "./machines/sim/protocols.js";
export { PROTOCOLS, type ProtocolName } from "./machines/sim/options.js";
export { INTERVAL_KINDS, type IntervalKind } from "./machines/sim/timeline.js";
export type { Timeline } from "./model/timeline.js";

// runtime programs: a schedule lowered to per-rank operations, checked, and written for runtimes
export { lowerSchedule, type LowerOptions, type LowerResult } from "./lower/lower-schedule.js";
export { BUFFER_NAMES, OP_KINDS, LAYOUT_FORMS } from "./model/program.js";
export type {
  Program,
  ProgramVariant,
  OpTable,
  PieceTable,
  RankLayout,
  PeerIndex,
  LayoutForm,
  BufferName,
  OpKind,
} from "./model/program.js";
export { slotOf, slotStart, slotPeer, slotCount, sendDisplOf, recvDisplOf } from "./model/layout-slots.js";
export { readProgramJson, type ProgramDocument } from "./io/program-json-read.js";
export {
  writeProgramJson,
  writeProgramSplit,
  programToJsonText,
  programJsonPieces,
  type ProgramWriteOptions,
} from "./io/program-json-write.js";
export { verifyProgram, type ProgramVerifyOptions } from "./verifier/program/index.js";
export { simgridTraceFiles, type ExportedFile, type SimgridTraceOptions } from "./export/index.js";
export { simgridPlatformXml, simgridHostfile, SMPI_FLAGS } from "./export/index.js";
export { goalText, goalPieces, type GoalOptions } from "./export/index.js";
export { mscclXml, MSCCL_LIMITS, type MscclOptions } from "./export/index.js";

// pictures and traces
export { stepGrid, stepGridText, stepGridSvg, type StepGrid, type GridCell } from "./export/index.js";
export { timelineToSvg, type GanttOptions, type GanttTimeline } from "./export/index.js";
export { timelineToChromeTrace, type TraceTimeline, type TraceMeta } from "./export/index.js";

// workloads: MoE dispatch, halo exchange, hash-join / sample-sort shuffle, SpMV of a Matrix Market matrix
export {
  generatePatternWithNotes,
  checkPatternInput,
  type PatternInput,
  type PatternFileSpec,
} from "./patterns/registry.js";
export { moePattern, moeCapacity } from "./patterns/moe.js";
export { haloPattern, haloNeighbours } from "./patterns/halo.js";
export { dimsCreate } from "./patterns/process-grid.js";
export { shufflePattern } from "./patterns/shuffle.js";
export { spmvPattern, spmvFromStructure, blockOwner, blockStart } from "./patterns/spmv.js";
export { sparseFromCoordinates, type SparseStructure } from "./model/sparse-structure.js";
export { parseSparseMatrixMarket, readSparseMatrixFile } from "./io/sparse-matrix-read.js";

// fidelity: receive order of a replay, the simulator's time tick (machine.envelope is a MachineModel field)
export { RECV_ORDERS, type RecvOrder } from "./machines/sim/recv-order.js";
export { TIME_TICK_US } from "./machines/sim/heap.js";
// topology (networks as they are): generators, user JSON networks, routes compiled into NetworkRoutes, SimGrid
// platforms
export {
  TOPOLOGY_GENERATORS,
  buildTopology,
  parseTopologySpec,
  compileRoutes,
  graphFromDescription,
  describeTopology,
  type TopologySpec,
  type TopologyGenerator,
  type TopologyGraph,
  type TopologyParam,
  type RoutingPolicy,
} from "./topology/index.js";
export type {
  NextHopPick,
  TopologyDescription,
  TopologyLinkDescription,
  TopologyRouteDescription,
} from "./model/topology.js";
export { NEXT_HOP_PICKS } from "./model/topology.js";
export { readTopologyJson, parseTopologyJsonText, MAX_TOPOLOGY_BYTES } from "./io/topology-json-read.js";
export { simgridTopologyPlatformPieces, simgridTopologyHostfile } from "./export/index.js";
// lower bounds and the planner comparison (commplan compare; docs/bounds.md, docs/compare.md)
export {
  lowerBounds,
  bestBound,
  scheduleClass,
  nodeLoads,
  relayRounds,
  busiestLinkBound,
  type LinkBound,
  BOUND_TARGETS,
  type LowerBound,
  type BoundTarget,
  type BoundScope,
  type BoundRequest,
  type ScheduleClass,
  type NodeLoads,
} from "./bounds/index.js";
export { runCandidates, type Candidate, type CandidateRequest, type CandidateRun } from "./compare/candidates.js";
export { compareMatrix, compareText, type CompareReport, type CompareRow } from "./compare/compare.js";
export { compareChartSvg } from "./compare/compare-chart.js";
export {
  parseSweep,
  scaleMatrix,
  runSweep,
  type SweepReport,
  type SweepPoint,
  type Crossover,
} from "./compare/sweep.js";
export { sweepChartSvg } from "./compare/sweep-chart.js";
export { compareHtml, type BestPlan } from "./compare/html-report.js";
// auto (issue "Choose for the user"): plan --algorithm auto, the planner and parameters chosen by predicted, then
// simulated, time
export {
  planAuto,
  autoHeader,
  autoVariantLabels,
  AUTO_FINALISTS,
  type AutoOptions,
  type AutoCandidate,
  type AutoReport,
  type AutoResult,
} from "./auto/index.js";
export { RS_NH_MAX_MESSAGES } from "./planner/permutation/rs-nh.js";
export { TE_MAX_ELEMENTS } from "./planner/total-exchange/te-offline.js";
export {
  AUTO_VARIANTS,
  screenVariants,
  planVariant,
  variantLabel,
  type AutoVariant,
  type ScreenResult,
} from "./auto/index.js";
// plan store and Arrow export (issue "For the people who build on commplan", parts 3-4)
export {
  encodeScheduleArrow,
  decodeScheduleArrow,
  decodeScheduleArrowWithHeader,
  readScheduleArrowHeader,
  scheduleArrowHeader,
  SCHEDULE_ARROW_FORMAT,
  SCHEDULE_ARROW_META_KEY,
  type ScheduleArrowHeader,
  type DecodeArrowOptions,
} from "./io/schedule-arrow.js";
export {
  openPlanStore,
  addPlan,
  getPlan,
  getPlanById,
  getOrPlan,
  listPlans,
  verifyStore,
  gcStore,
  resolveStoreRequest,
  storeKeyId,
  STORE_FORMAT,
  type PlanStore,
  type StoreKey,
  type StoreEntryInfo,
  type StoreReport,
  type CreationRecord,
  type GetOrPlanOptions,
  type ResolvedRequest,
} from "./store/index.js";
// flowsim: link contention in the simulated machine (flow model, max-min sharing) and the link-load SVG
export { PORT_SHARINGS, type PortSharing } from "./machines/sim/options.js";
export { HOTTEST_LINKS, type LinkLoad, type SimNetworkStats } from "./machines/sim/link-contention.js";
export type { FlowRecomputeStats } from "./machines/sim/flow-network.js";
export { linkLoadSvg, MAX_HEATMAP_LINKS, type LinkLoadEntry, type LinkLoadSvgOptions } from "./export/index.js";
