/** CLI context: what every sub-command receives (its I/O and the exit code it sets). */
import type { CliIo } from "./io.js";

/** Shared state of one CLI run. */
export interface CliContext {
  readonly io: CliIo;
  /** 0 ok, 1 a check failed, 2 bad input or usage. */
  exitCode: number;
}
