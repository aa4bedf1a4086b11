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
  entry,
  isSparse,
  matrixRows,
  matrixCols,
  nonzeroCount,
  toSparse,
  toDense,
  withElementBytes,
  matrixToRows,
  matrixDigest,
  type CommMatrix,
  type MatrixOptions,
  type MatrixRows,
  type MatrixCols,
} from "../model/matrix.js";
export { matrixStats, classify, type MatrixStats, type MatrixClass } from "../model/matrix-stats.js";
export { createRng, type Rng } from "../model/rng.js";
export type { ProgressCallback } from "../model/progress.js";
export {
  ScheduleBuilder,
  REARRANGE_KINDS,
  stageOfStep,
  stepOfTransfer,
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
export { slotOf, slotStart, slotPeer, slotCount, sendDisplOf, recvDisplOf } from "../model/layout-slots.js";
export type { MachineModel, FabricName } from "../model/machine.js";
export type { Timeline } from "../model/timeline.js";
export { sparseFromCoordinates, type SparseStructure } from "../model/sparse-structure.js";
export {
  NEXT_HOP_PICKS,
  type NextHopPick,
  type TopologyDescription,
  type TopologyLinkDescription,
  type TopologyRouteDescription,
} from "../model/topology.js";
