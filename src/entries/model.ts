/**
 * commplan/model: the vocabulary in full (matrices dense and sparse, the schedule IR, per-rank programs and their
 * buffer layout, machines, networks, timelines, errors, the seeded generator); the root entry re-exports the names
 * most code needs.
 */
export { CommplanError, isCommplanError, type ErrorCode, type ErrorPlace } from "../model/errors.js";
export {
  MAX_P,
  MAX_DENSE_P,
  DEFAULT_ELEMENT_BYTES,
  matrixFromData,
  matrixFromRows,
  matrixFromEntries,
  matrixFromCoordinates,
  sparseMatrix,
  zeroMatrix,
  toSparse,
  toDense,
  withElementBytes,
  matrixToRows,
  type CommMatrix,
  type MatrixOptions,
  type MatrixRows,
  type MatrixCols,
} from "../model/matrix.js";
export { matrixStats, type MatrixStats, type MatrixClass } from "../model/matrix-stats.js";
export {
  entry,
  isSparse,
  matrixRows,
  matrixCols,
  nonzeroCount,
  matrixDigest,
  classify,
  sparseFromCoordinates,
  stageOfStep,
  stepOfTransfer,
  slotOf,
  slotStart,
  slotPeer,
  slotCount,
  sendDisplOf,
  recvDisplOf,
} from "../model/public-accessors.js";
export { createRng, type Rng } from "../model/rng.js";
export type { ProgressCallback } from "../model/progress.js";
export {
  ScheduleBuilder,
  REARRANGE_KINDS,
  type Schedule,
  type ScheduleHeader,
  type StageInfo,
  type ChunkTable,
  type TransferTimes,
  type Rearrange,
  type JsonValue,
} from "../model/schedule.js";
export { BUFFER_NAMES, OP_KINDS, LAYOUT_FORMS } from "../model/program.js";
export type {
  Program,
  ProgramVariant,
  AfterTable,
  OpTable,
  PieceTable,
  RankLayout,
  PeerIndex,
  LayoutForm,
  BufferName,
  OpKind,
} from "../model/program.js";
export type { MachineModel, FabricName } from "../model/machine.js";
export type { Timeline } from "../model/timeline.js";
export type { SparseStructure } from "../model/sparse-structure.js";
export {
  NEXT_HOP_PICKS,
  type NextHopPick,
  type TopologyDescription,
  type TopologyLinkDescription,
  type TopologyRouteDescription,
} from "../model/topology.js";
