/** Shapes shared by the export registry and its formats: what a format reads, the options it takes, where it writes. */
import type { MachineModel } from "../model/machine.js";
import type { Program } from "../model/program.js";
import type { ProgressCallback } from "../model/progress.js";
import type { Schedule } from "../model/schedule.js";
import type { OutputStream } from "../io/file-output.js";

/**
 * Where an export goes: one file (or "-" for stdout), or a directory, with the options a format may take. Only
 * `output` is required; every other field may be left out for its default. Every format
 * checks the target before it writes (an unknown key or a field of the wrong kind is a one-line BAD_OPTION).
 */
export interface ExportTarget {
  /** -o FILE: the one output file ("-": stdout). */
  readonly output: string;
  /** --split DIR: one file per rank (program), or null. Default: null. */
  readonly split?: string | null;
  /** --out DIR: the directory of a multi-file format (simgrid), or null. Default: null. */
  readonly dir?: string | null;
  /**
   * --machine: the preset a format takes its costs from (simgrid's platform, GOAL's calc), or null. Default: null
   * (simgrid then refuses the target; goal writes no calc).
   */
  readonly machine?: MachineModel | null;
  /** --chunk: elements per MSCCL chunk, or null. Default: null (the gcd of every offset and count). */
  readonly chunk?: number | null;
  /** The input files (schedule, matrix), which no output may replace. Default: [] (none). */
  readonly inputs?: readonly string[];
  /** Where an output of "-" is written (the run's stdout). Default: process.stdout. */
  readonly stdout?: OutputStream;
}

/** An option of `commplan export` that only some formats take (every format takes -o). */
export type ExportOptionName = "split" | "out" | "machine" | "chunk";

/** An option a format takes and what it means there (the option's help names the format with this text). */
export interface ExportOptionUse {
  readonly option: ExportOptionName;
  readonly help: string;
}

/** What every export format declares: its name (the --format value), a one-line title and the options it takes. */
interface ExportFormatBase {
  readonly name: string;
  readonly title: string;
  readonly options: readonly ExportOptionUse[];
}

/** A format of the lowered program (the schedule and its matrix, lowered first). */
export interface ProgramExportFormat extends ExportFormatBase {
  readonly input: "program";
  /** What the writer's progress counts. */
  readonly progressUnit: "ranks" | "files";
  /** Checks the target, then writes the program; `progress` (formats that report): ranks or files written. */
  write(prog: Program, target: ExportTarget, progress: ProgressCallback | null): Promise<void>;
}

/** A format of the schedule itself (not lowered, no matrix). */
export interface ScheduleExportFormat extends ExportFormatBase {
  readonly input: "schedule";
  /** Checks the target, then writes the schedule. */
  write(s: Schedule, target: ExportTarget): Promise<void>;
}

/** An export format: what it reads (a program or the schedule), the options it takes and its writer. */
export type ExportFormat = ProgramExportFormat | ScheduleExportFormat;
