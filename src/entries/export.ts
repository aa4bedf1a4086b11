/**
 * commplan/export: a schedule, a timeline or a lowered program turned into something else; the export registry
 * (EXPORT_FORMATS: program JSON, SimGrid, GOAL, Arrow, MSCCL-IR XML), each format's writer, and the pictures (step
 * grids, SVG Gantt charts, link-load maps, Chrome traces).
 */
export { lowerSchedule, type LowerOptions, type LowerResult } from "../lower/lower-schedule.js";
export { verifyProgram, type ProgramVerifyOptions } from "../verifier/program/index.js";
export {
  EXPORT_FORMATS,
  exportFormat,
  type ExportFormat,
  type ProgramExportFormat,
  type ScheduleExportFormat,
  type ExportTarget,
  type ExportOptionName,
  type ExportOptionUse,
  simgridTraceFiles,
  simgridPlatformXml,
  simgridHostfile,
  SMPI_FLAGS,
  simgridTopologyPlatformPieces,
  simgridTopologyHostfile,
  type HostfileOptions,
  goalText,
  goalPieces,
  mscclXml,
  MSCCL_LIMITS,
  stepGrid,
  stepGridText,
  stepGridSvg,
  timelineToSvg,
  timelineToChromeTrace,
  linkLoadSvg,
  MAX_HEATMAP_LINKS,
  type ExportedFile,
  type SimgridTraceOptions,
  type GoalOptions,
  type MscclOptions,
  type StepGrid,
  type GridCell,
  type GanttOptions,
  type GanttView,
  type GanttTimeline,
  type TraceTimeline,
  type TraceMeta,
  type LinkLoadEntry,
  type LinkLoadSvgOptions,
} from "../export/index.js";
