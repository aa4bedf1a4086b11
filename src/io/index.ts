/** Every file format in and out: matrix JSON / CSV / Matrix Market, schedule JSON, schema validation, atomic output. */
export {
  matrixFormatOfName,
  parseMatrixText,
  readMatrixFile,
  sniffMatrixFormat,
  type MatrixFileFormat,
  type ParseMatrixOptions,
} from "./matrix-read.js";
export {
  matrixPieces,
  matrixToCsvText,
  matrixToJsonText,
  matrixToMtxText,
  writeMatrixFile,
  type MatrixWriteOptions,
} from "./matrix-write.js";
export { parseScheduleJsonText, readScheduleJson, type ReadScheduleOptions } from "./schedule-json-read.js";
export { scheduleJsonPieces, scheduleToJsonText, writeScheduleJson } from "./schedule-json-write.js";
export { FORMAT_NAMES, loadSchema, validateWithSchema, type SchemaName } from "./json-schema.js";
export { writePieces } from "./file-output.js";
