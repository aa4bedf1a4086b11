/**
 * Reproductions of the papers' experiments (001's total-exchange table): used by the CLI and the bench, not by
 * planners.
 */
export {
  compareDirect,
  checkOffline,
  directCheckRows,
  offlineCheckRows,
  teTableViolations,
  NOISE_Z,
  OFFLINE_GOAL_OVER_LB,
  type DirectComparison,
  type OfflineCheck,
} from "./te-table-checks.js";
export { maxPairLoadModel, type MaxLoadModel } from "./max-load-model.js";
export {
  meanSd,
  paperText,
  runTeTable,
  teTableRows,
  TE_TABLE_ALGORITHMS,
  TE_TABLE_MAX_PACKETS,
  type TeTableCell,
  type TeTableResult,
  type TeTableRequest,
} from "./te-table.js";
export {
  PAPER_TE_TABLE,
  PAPER_N,
  PAPER_H_OVER_N,
  paperRow,
  timePerH,
  type PaperTeRow,
  type PaperTeField,
} from "./paper-table.js";
