/** Total-exchange round protocols over h-relations (001). */
import type { Planner } from "../types.js";
import { tePlanner } from "./protocol.js";
import { TE_PROTOCOLS } from "./protocols.js";

export { TE_PROTOCOLS, teRounds } from "./protocols.js";
export { planOffline, runOffline, REPAIR_WORK_PER_NODE, EJECT_CHAIN, type OfflinePlan } from "./te-offline.js";
export {
  causalLowerBound,
  relationLoad,
  relayLowerBound,
  roundLowerBound,
  RoundEngine,
  MAX_EXPLICIT_PACKETS,
  MAX_COUNT_PACKETS,
  MAX_TE_P,
} from "./round-engine.js";
export type { TeCount, TeProtocol, TeParam, TeInfo } from "./protocol.js";

/** The planners of this family, for the registry. */
export const TOTAL_EXCHANGE_PLANNERS: readonly Planner[] = TE_PROTOCOLS.map(tePlanner);
