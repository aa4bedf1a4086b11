/** Total-exchange round protocols over h-relations (001). */
import type { Planner } from "../types.js";
import { tePlanner } from "./protocol.js";
import { TE_PROTOCOLS } from "./protocols.js";

export { TE_PROTOCOLS, teRounds } from "./protocols.js";
export { planOffline, runOffline, REPAIR_WORK_PER_NODE, EJECT_CHAIN, type OfflinePlan } from "./te-offline.js";
export { causalLowerBound, relationLoad, relayLowerBound, roundLowerBound, RoundEngine, MAX_EXPLICIT_PACKETS, MAX_COUNT_PACKETS, MAX_TE_P } from "./round-engine.js";
export { compareDirect, checkOffline, directCheckRows, offlineCheckRows, teTableViolations, NOISE_Z, OFFLINE_GOAL_OVER_LB, type DirectComparison, type OfflineCheck } from "./te-table-checks.js";
export { maxPairLoadModel, type MaxLoadModel } from "./max-load-model.js";
export { meanSd, paperText, runTeTable, teTableRows, TE_TABLE_ALGORITHMS, TE_TABLE_MAX_PACKETS, type TeTableCell, type TeTableResult, type TeTableRequest } from "./te-table.js";
export { PAPER_TE_TABLE, PAPER_N, PAPER_H_OVER_N, paperRow, timePerH, type PaperTeRow, type PaperTeField } from "./paper-table.js";
export type { TeCount, TeProtocol, TeParam, TeInfo } from "./protocol.js";

/** The planners of this family, for the registry. */
export const TOTAL_EXCHANGE_PLANNERS: readonly Planner[] = TE_PROTOCOLS.map(tePlanner);
