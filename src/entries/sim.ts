/**
 * commplan/sim: the simulated machine (replays blocking and nonblocking, the run-time protocols AC and DRS_N, one
 * request checked once), the flat cost model in detail, the networks it can run on (topology generators, user JSON
 * networks, routes) and the lower bounds every plan is measured against.
 */
export { simulateSchedule, type SimResult, type NodeTimes } from "../machines/sim/simulate.js";
export { runProtocol, type ProtocolResult } from "../machines/sim/protocols.js";
export {
  resolveSimRequest,
  simRequestProblem,
  type SimRequestProblem,
  type SimRequestRule,
  type SimulatorRequest,
  type ReplayRequest,
  type BlockingReplayRequest,
  type NonblockingReplayRequest,
  type ProtocolRunRequest,
  type AsyncProtocolRequest,
  type DrsNProtocolRequest,
  type ResolvedSimRequest,
} from "../machines/sim/request.js";
export {
  replayRequestOf,
  protocolRequestOf,
  type SimRequest,
  type ProtocolRequest,
} from "../machines/sim/flat-request.js";
export {
  SEND_WAITS,
  PORT_SHARINGS,
  PROTOCOLS,
  type SimMode,
  type SendWaits,
  type PortSharing,
  type ProtocolName,
  type NetworkRequest,
} from "../machines/sim/options.js";
export { FABRICS } from "../machines/sim/fabric.js";
export { RECV_ORDERS, type RecvOrder } from "../machines/sim/recv-order.js";
export { INTERVAL_KINDS, type IntervalKind } from "../machines/sim/timeline.js";
export { HOTTEST_LINKS, type LinkLoad, type SimNetworkStats } from "../machines/sim/link-contention.js";
export type { FlowRecomputeStats, FillTuning } from "../machines/sim/flow-network.js";
export type { Timeline } from "../model/timeline.js";
export { MACHINES, findMachine } from "../machines/presets.js";
export { replayProgram, type ProgramReplayOptions } from "../machines/program-replay/replay-program.js";
export {
  replayProgramOps,
  type ProgramReplayResult,
  type ReplayEngineOptions,
} from "../machines/program-replay/replay-engine.js";
export { replayOpsOf, type ReplayOps } from "../machines/program-replay/replay-ops.js";
export { flatClusterNetwork, type SharedNetwork } from "../machines/program-replay/cluster-network.js";
export {
  LIBRARY_ALLTOALLV,
  libraryAlltoallvOps,
  libraryAlltoallvPick,
  replayLibraryAlltoallvAs,
} from "../machines/program-replay/library-alltoallv-registry.js";
export {
  RUNTIME_MODELS,
  findRuntimeModel,
  smpiConfigOf,
  runtimeModelsFor,
  withRuntime,
  SMPI_EAGER_BYTES,
  SMPI_ENVELOPE_BYTES,
  SMPI_MODEL_CFG,
  type RuntimeModel,
  type SmpiConfig,
} from "../machines/runtime/runtime-model.js";
export {
  overheadUs,
  flatOverhead,
  parseOverhead,
  smpiOverheadText,
  NO_OVERHEAD,
  type Overhead,
  type OverheadPiece,
} from "../machines/runtime/overhead.js";
export {
  scheduleCost,
  COST_MODES,
  type CostMode,
  type ScheduleCost,
  type StageCost,
  type StepCost,
} from "../machines/cost-model.js";
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
} from "../topology/index.js";
export {
  lowerBounds,
  bestBound,
  scheduleClass,
  nodeLoads,
  relayRounds,
  busiestLinkBound,
  BOUND_TARGETS,
  type LinkBound,
  type LowerBound,
  type BoundTarget,
  type BoundScope,
  type BoundRequest,
  type ScheduleClass,
  type NodeLoads,
} from "../bounds/index.js";
