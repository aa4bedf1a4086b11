/** The verifier: independent checks of a Schedule against its CommMatrix (imports only src/model). */
export { verifySchedule, type VerifyOptions } from "./verify.js";
export { type Check, type Report } from "./report.js";
export { CLAIMS, linearPermutationSteps, type AlgorithmClaims } from "./claims.js";
export { type ClaimContext } from "./claims.js";
export { checkTeRounds, teLowerBound } from "./claims-total-exchange.js";
export { paperArray, checkFourStage, type PaperArray } from "./four-stage-bounds.js";
