/** patterns: seeded matrix generators for every pattern of the papers, and the registry that names them. */
export * from "./registry.js";
export { MAX_SIZE_OPTION } from "./pattern-options.js";
export * from "./ceil-sqrt.js";
export * from "./random-permutations.js";
export { rankaFig1, RANKA_FIG1_ROWS } from "./ranka-fig1.js";
export { wangTable1, WANG_TABLE1_ROWS } from "./wang-table1.js";
export { rankaKl, rankaKlSlotSizes } from "./ranka-kl.js";
export { wangSet1, wangSet2 } from "./wang-test-sets.js";
export { liuPattern1, liuPattern2, liuPattern3 } from "./liu-patterns.js";
export { oneSpike } from "./one-spike.js";
export { transpose2d, transposePartner } from "./transpose-2d.js";
export { hRelation } from "./h-relation.js";
export { uniformPattern } from "./uniform.js";
export { zeroPattern } from "./zero.js";
export { randomPattern } from "./random-matrix.js";
