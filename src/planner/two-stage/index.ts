/** Two-stage planners: two-stage (000 sec 6) and mesh-two-stage (A3, 004 sec 3.1.3). */
import type { Planner } from "../types.js";

/** The planners of this family, for the registry. */
export const TWO_STAGE_PLANNERS: readonly Planner[] = [];
