/**
 * commplan/patterns: the seeded matrix generators, the papers' patterns and the workloads users run (MoE dispatch,
 * halo exchange, hash-join and sample-sort shuffles, SpMV of a Matrix Market matrix).
 */
export {
  PATTERNS,
  findPattern,
  generatePattern,
  generatePatternWithNotes,
  resolvePatternOptions,
  checkPatternInput,
  MAX_SEED,
  type PatternDef,
  type PatternOption,
  type PatternInput,
  type PatternFileSpec,
} from "../patterns/registry.js";
export { moePattern, moeCapacity } from "../patterns/moe.js";
export { haloPattern, haloNeighbours } from "../patterns/halo.js";
export { dimsCreate } from "../patterns/process-grid.js";
export { shufflePattern } from "../patterns/shuffle.js";
export { spmvPattern, spmvFromStructure, blockOwner, blockStart } from "../patterns/spmv.js";
