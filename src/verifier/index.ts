/** The verifier: independent checks of a Schedule against its CommMatrix (imports only src/model). */
export { verifySchedule, type VerifyOptions } from "./verify.js";
export { type Check, type Report, type Unproven } from "./report.js";
export { CLAIMS, linearPermutationSteps } from "./claims.js";
export type { AlgorithmClaims, ClaimContext, PaperArray } from "./types.js";
export { checkTeRounds, teLowerBound } from "./claims-total-exchange.js";
export { paperArray, checkFourStage } from "./four-stage-bounds.js";
