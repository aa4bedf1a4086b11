/** CLI context: what every sub-command receives (I/O, where "-" goes, memory budget, exit code). */
import type { Writable } from "node:stream";
import type { CliIo } from "./io.js";

/** Shared state of one CLI run. */
export interface CliContext {
  readonly io: CliIo;
  /** Where outputs named "-" are written: the process's stdout, or io.out as a stream for an in-process run. */
  readonly stdout: Writable;
  /** The run's memory budget (bytes): --max-memory, else the default; set before a command's action runs. */
  maxMemory: number;
  /**
   * The command the run runs ("plan", "store add"), set before its action: an error of the option parsers the commands
   * share (intOption, numberOption, keyValues, --max-memory), raised as "commplan: ...", is reported under its name.
   */
  command?: string;
  /** 0 ok, 1 a check failed, 2 bad input or usage. */
  exitCode: number;
}
