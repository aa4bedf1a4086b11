/** Program checks: independent checks of a lowered per-rank program against its matrix (imports only src/model). */
export { verifyProgram, DEFAULT_MAX_PROGRAM_ELEMENTS, type ProgramVerifyOptions } from "./verify-program.js";
export { runRendezvous, type RendezvousRun } from "./rendezvous.js";
export { matchOps, type Matching } from "./matching.js";
export { programCheckBytes, programSlots, programTableBytes } from "./check-bytes.js";
