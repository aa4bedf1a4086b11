/** Lower bounds on the completion time of a matrix on a machine (docs/bounds.md). */
export { BOUND_TARGETS, type BoundRequest, type BoundScope, type BoundTarget, type LowerBound } from "./types.js";
export { nodeLoads, type NodeLoads } from "./node-loads.js";
export { bestBound, lowerBounds, relayRounds } from "./lower-bounds.js";
export { scheduleClass, type ScheduleClass } from "./schedule-class.js";
export { busiestLinkBound, hostLinkBound, type HostLinkBound, type LinkBound } from "./link-bound.js";
