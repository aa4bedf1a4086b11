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
   * The command the run runs, as typed ("plan", "store add"), set once the program knows it (before its arguments are
   * read): every error line the run prints starts with it, in place of the module the error names ("machines: ...",
   * and the "commplan: ..." of the option parsers the commands share).
   */
  command?: string;
  /** 0 ok, 1 a check failed, 2 bad input or usage. */
  exitCode: number;
}
