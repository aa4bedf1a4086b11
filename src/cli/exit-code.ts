/** How a run that threw ends: the one-line message and exit code of an error (2 for bad input, 70 for a bug). */
import { isCommplanError } from "../model/errors.js";
import { oneLine } from "../internal/quoted.js";
import { cliMessage } from "./option-flags.js";
import type { CliIo } from "./process-io.js";

/**
 * Reports an error a command threw on io.err as one line and returns the exit code: 2 for a CommplanError (bad input,
 * usage) or an allocation the machine refused, 70 for anything else (an internal error: a bug). `command`: the command
 * that ran (CliContext.command), which names an error of the option parsers shared by every command.
 */
export function exitCodeOfError(e: unknown, io: CliIo, command?: string): number {
  const line = inputErrorLine(e, command);
  if (line !== null) {
    io.err(`${line}\n`);
    return 2;
  }
  io.err(
    `commplan: internal error: ${(e as Error)?.message ?? String(e)} (please report it; set COMMPLAN_DEBUG=1 for the stack)\n`,
  );
  if (process.env["COMMPLAN_DEBUG"]) io.err(`${(e as Error)?.stack ?? ""}\n`);
  return 70;
}

/**
 * The one line (without its newline) reporting an error that exits 2: a CommplanError (bad input, usage; one line even
 * when its message quotes input raw) or an allocation the machine refused; null for anything else (a bug, exit 70).
 * With `command` given (the command as the user typed it: "plan", "store get"), the line starts with its name, as the
 * command's own option errors do: a library error's leading module name (the module `fail` recorded on the error:
 * "machines: unknown machine ...", "store: ...", and the "commplan: " of the option parsers every command shares) is
 * written as the command's ("plan: unknown machine ..."); so is an allocation refused ("plan: out of memory: ...").
 */
export function inputErrorLine(e: unknown, command?: string): string | null {
  if (isCommplanError(e)) return oneLine(namedBy(cliMessage(e.message), e.module, command));
  if (e instanceof RangeError && /Array buffer allocation failed|Invalid typed array length/.test(e.message))
    return `${command ?? "commplan"}: out of memory: ${e.message}`;
  return null;
}

/** `message` with its leading "`module`: " written as `command`'s name (unchanged without either). */
function namedBy(message: string, module: string | undefined, command: string | undefined): string {
  if (command === undefined || module === undefined || !message.startsWith(`${module}: `)) return message;
  return `${command}: ${message.slice(module.length + 2)}`;
}
