/** The simulated machine: event-driven replay of schedules, run-time protocols, fabrics. */
export * from "./simulate.js";
export * from "./options.js";
export * from "./request.js";
export * from "./flat-request.js";
export { DrsNMode, type DrsNSettings, type ProtocolMessages } from "./drs-n-mode.js";
export * from "./protocols.js";
export { INTERVAL_KINDS, TimelineRecorder, type IntervalKind, type Timeline } from "./timeline.js";
export * from "./fabric.js";
export { DataTracker, MAX_DATA_ELEMENTS } from "./data-tracker.js";
export { EventHeap, TIME_TICK_US, TICKS_PER_US, timeKey } from "./heap.js";
export { RecvGate, RECV_ORDERS, type RecvOrder } from "./recv-order.js";
export { NodeAccounts } from "./node-accounts.js";
export { replayBlocking } from "./replay-blocking.js";
export type { ReplayOutcome } from "./replay-driver.js";
export { replayNonblocking } from "./replay-nonblocking.js";
export {
  DEFAULT_FILL_TUNING,
  FlowNetwork,
  type FillTuning,
  type FlowNetworkOptions,
  type FlowRecomputeStats,
} from "./flow-network.js";
export * from "./link-contention.js";
