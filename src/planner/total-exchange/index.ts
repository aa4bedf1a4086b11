/** Total-exchange round protocols over h-relations (001). */
import type { Planner } from "../types.js";

/** The planners of this family, for the registry. */
export const TOTAL_EXCHANGE_PLANNERS: readonly Planner[] = [];
