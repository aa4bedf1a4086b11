/**
 * commplan/compare: every applicable planner run on one matrix and measured side by side, the size sweep, the charts
 * and the HTML report, and auto's report of the candidates it weighed (docs/compare.md, docs/auto.md).
 */
export { runCandidates, type Candidate, type CandidateRequest, type CandidateRun } from "../compare/candidates.js";
export { compareMatrix, compareText, type CompareReport, type CompareRow } from "../compare/compare.js";
export { compareChartSvg } from "../compare/compare-chart.js";
export {
  parseSweep,
  scaleMatrix,
  runSweep,
  type SweepReport,
  type SweepPoint,
  type Crossover,
} from "../compare/sweep.js";
export { sweepChartSvg } from "../compare/sweep-chart.js";
export { compareHtml, type BestPlan } from "../compare/html-report.js";
export {
  planAuto,
  autoHeader,
  autoVariantLabels,
  AUTO_FINALISTS,
  type AutoOptions,
  type AutoCandidate,
  type AutoReport,
  type AutoResult,
} from "../auto/index.js";
