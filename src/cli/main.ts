/** The commplan command line: argv to an exit code, errors as one line (exit 2) and internal errors as exit 70. */
import { isCommplanError } from "../model/errors.js";
import { oneLine } from "../internal/quoted.js";
import { defaultMemoryBudget } from "../host/memory.js";
import { cliMessage } from "./option-flags.js";
import type { CliContext } from "./context.js";
import { processIo, quietOnClosedStdout, textSink, type CliIo } from "./process-io.js";
import { storeGetArgv } from "./store-get-argv.js";

export { VERSION } from "./version.js";

/**
 * Runs the CLI on argv (without "node commplan"); returns the exit code. Never throws. A run's
 * memory budget and where it writes "-" live in its context, so in-process runs share nothing.
 */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  // an in-process run with the caller's io: what commands write to "-" goes to io.out too
  const stdout = io === processIo ? process.stdout : textSink(io);
  const ctx: CliContext = { io, stdout, maxMemory: defaultMemoryBudget(), exitCode: 0 };
  if (io === processIo) quietOnClosedStdout(() => ctx.exitCode);
  if (argv.length === 0) {
    io.err("commplan: missing command (try commplan --help)\n");
    return 2;
  }
  let CommanderError: typeof import("./program.js").CommanderError | null = null;
  try {
    // store get --id loads only its own modules: no commander, no planner (docs/arrow.md, "Start-up of store get")
    const storeGet = storeGetArgv(argv);
    if (storeGet !== null) {
      await (await import("./commands/store-get.js")).runStoreGetArgv(storeGet, ctx);
      return ctx.exitCode;
    }
    // commander and the command's module: loaded only here, so store get --id starts without them
    const cli = await import("./program.js");
    CommanderError = cli.CommanderError;
    const program = await cli.buildProgram(ctx, argv);
    await program.parseAsync([...argv], { from: "user" });
    return ctx.exitCode;
  } catch (e) {
    if (CommanderError !== null && e instanceof CommanderError) {
      // help and --version asked for exit 0; anything else commander stops on is a usage error (also
      // help shown for want of a sub-command, `commplan store`, which commander exits 1)
      return e.exitCode === 0 ? 0 : 2;
    }
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
}
