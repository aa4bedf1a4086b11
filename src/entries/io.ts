/**
 * commplan/io: every file format commplan reads and writes (matrices as JSON, CSV and Matrix Market; schedules as
 * JSON and Arrow; programs; topologies), streamed, checked against their schemas and written atomically.
 */
export {
  readMatrixFile,
  parseMatrixText,
  sniffMatrixFormat,
  matrixFormatOfName,
  type MatrixFileFormat,
  type ParseMatrixOptions,
} from "../io/matrix-read.js";
export {
  writeMatrixFile,
  matrixPieces,
  matrixToJsonText,
  matrixToCsvText,
  matrixToMtxText,
  type MatrixWriteOptions,
} from "../io/matrix-write.js";
export { parseSparseMatrixMarket, readSparseMatrixFile } from "../io/sparse-matrix-read.js";
export { readScheduleFile } from "../io/schedule-read.js";
export { readScheduleJson, parseScheduleJsonText, type ReadScheduleOptions } from "../io/schedule-json-read.js";
export {
  writeScheduleJson,
  scheduleToJsonText,
  scheduleJsonPieces,
  type ScheduleWriteOptions,
} from "../io/schedule-json-write.js";
export {
  encodeScheduleArrow,
  decodeScheduleArrow,
  decodeScheduleArrowWithHeader,
  readScheduleArrowHeader,
  scheduleArrowHeader,
  SCHEDULE_ARROW_FORMAT,
  SCHEDULE_ARROW_META_KEY,
  type ScheduleArrowHeader,
  type DecodeArrowOptions,
} from "../io/schedule-arrow.js";
export { readProgramJson, type ProgramDocument } from "../io/program-json-read.js";
export {
  writeProgramJson,
  writeProgramSplit,
  programToJsonText,
  programJsonPieces,
  type ProgramWriteOptions,
} from "../io/program-json-write.js";
export { readTopologyJson, parseTopologyJsonText, MAX_TOPOLOGY_BYTES } from "../io/topology-json-read.js";
export { FORMAT_NAMES, loadSchema, type SchemaName } from "../io/json-schema.js";
