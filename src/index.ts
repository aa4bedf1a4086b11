/** commplan: plan, prove and replay communication schedules for parallel machines (the public API). */
export * from "./model/index.js";
export * from "./patterns/index.js";
export { matrixFormatOfName, parseMatrixText, readMatrixFile, sniffMatrixFormat } from "./patterns/files/matrix-read.js";
export type { MatrixFileFormat, ParseMatrixOptions } from "./patterns/files/matrix-read.js";
export { matrixPieces, matrixToCsvText, matrixToJsonText, matrixToMtxText, writeMatrixFile } from "./patterns/files/matrix-write.js";
export type { MatrixWriteOptions } from "./patterns/files/matrix-write.js";
export * from "./planner/index.js";
export * from "./verifier/index.js";
export * from "./machines/index.js";
export * from "./export/index.js";
