/** The commplan command line: argv to an exit code, errors as one line (exit 2) and internal errors as exit 70. */
import { defaultMemoryBudget } from "../host/memory.js";
import type { CliContext } from "./context.js";
import { exitCodeOfError } from "./exit-code.js";
import { processIo, quietOnClosedStdout, textSink, type CliIo } from "./process-io.js";

export { VERSION } from "./version.js";

/**
 * Runs the CLI on argv (without "node commplan"); returns the exit code. Never throws. A run's
 * memory budget and where it writes "-" live in its context, so in-process runs share nothing.
 */
export async function main(given: readonly string[], io: CliIo = processIo): Promise<number> {
  // `help store get`: commander's help command reads one name (it printed the help of `store`); the sub-command's
  // help is `store get --help`
  // `help help` is the program's help, on stdout, exit 0, as `git help help` (commander printed it on stderr as
  // help of a command it could not find, exit 2)
  const helpOfHelp = given.length === 2 && given[0] === "help" && given[1] === "help";
  const argv = helpOfHelp
    ? ["--help"]
    : given[0] === "help" && given.length > 2
      ? [...given.slice(1), "--help"]
      : given;
  if (argv.length === 0) {
    io.err("commplan: missing command (try commplan --help)\n");
    return 2;
  }
  // store get --id loads only its own modules: no commander, no planner (docs/arrow.md, "Start-up of store get")
  const fast =
    argv[0] === "store" && argv[1] === "get"
      ? await (await import("./store-get-main.js")).storeGetMain(argv, io)
      : null;
  if (fast !== null) return fast;
  // an in-process run with the caller's io: what commands write to "-" goes to io.out too
  const stdout = io === processIo ? process.stdout : textSink(io);
  const ctx: CliContext = { io, stdout, maxMemory: defaultMemoryBudget(), exitCode: 0 };
  if (io === processIo) quietOnClosedStdout(() => ctx.exitCode);
  let CommanderError: typeof import("./program.js").CommanderError | null = null;
  try {
    // commander and the command's module: loaded only here
    const cli = await import("./program.js");
    CommanderError = cli.CommanderError;
    const program = await cli.buildProgram(ctx, argv);
    await program.parseAsync(cli.expandLetterFlags(program, argv), { from: "user" });
    return ctx.exitCode;
  } catch (e) {
    if (CommanderError !== null && e instanceof CommanderError) {
      // help and --version asked for exit 0; anything else commander stops on is a usage error (also
      // help shown for want of a sub-command, `commplan store`, which commander exits 1)
      return e.exitCode === 0 ? 0 : 2;
    }
    return exitCodeOfError(e, io, ctx.command);
  }
}
