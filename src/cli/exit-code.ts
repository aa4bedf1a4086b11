/** How a run that threw ends: the one-line message and exit code of an error (2 for bad input, 70 for a bug). */
import { isCommplanError } from "../model/errors.js";
import { oneLine } from "../internal/quoted.js";
import { cliMessage } from "./option-flags.js";
import type { CliIo } from "./process-io.js";

/**
 * Reports an error a command threw on io.err as one line and returns the exit code: 2 for a CommplanError (bad input,
 * usage) or an allocation the machine refused, 70 for anything else (an internal error: a bug).
 */
export function exitCodeOfError(e: unknown, io: CliIo): number {
  if (isCommplanError(e)) {
    io.err(`${oneLine(cliMessage(e.message))}\n`); // one line even when a message quotes input raw
    return 2;
  }
  if (e instanceof RangeError && /Array buffer allocation failed|Invalid typed array length/.test(e.message)) {
    io.err(`commplan: out of memory: ${e.message}\n`);
    return 2;
  }
  io.err(
    `commplan: internal error: ${(e as Error)?.message ?? String(e)} (please report it; set COMMPLAN_DEBUG=1 for the stack)\n`,
  );
  if (process.env["COMMPLAN_DEBUG"]) io.err(`${(e as Error)?.stack ?? ""}\n`);
  return 70;
}
