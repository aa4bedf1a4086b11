/** commplan: plan, prove and replay communication schedules for parallel machines (the public API). */
export * from "./model/index.js";
export * from "./patterns/index.js";
export { matrixFormatOfName, parseMatrixText, readMatrixFile, sniffMatrixFormat } from "./io/matrix-read.js";
export type { MatrixFileFormat, ParseMatrixOptions } from "./io/matrix-read.js";
export { matrixPieces, matrixToCsvText, matrixToJsonText, matrixToMtxText, writeMatrixFile } from "./io/matrix-write.js";
export type { MatrixWriteOptions } from "./io/matrix-write.js";
export * from "./planner/index.js";
export * from "./verifier/index.js";
export * from "./machines/index.js";
export * from "./export/index.js";
