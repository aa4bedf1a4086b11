/**
 * `store get DIR --id ID` as a whole run, apart from the rest of the CLI: its arguments read without commander, its
 * own modules only. `npm run build` also bundles this module into dist/bundle/store-get.js (scripts/build-bundle.mjs),
 * which bin/commplan.js runs for `store get` while it is at least as new as dist/cli/main.js: one file to load, not 44.
 */
import { defaultMemoryBudget } from "../host/memory.js";
import type { CliContext } from "./context.js";
import { exitCodeOfError } from "./exit-code.js";
import { processIo, quietOnClosedStdout, textSink, type CliIo } from "./process-io.js";
import { storeGetArgv } from "./store-get-argv.js";
// imported statically, so the bundle holds one flat module scope: a dynamic import makes esbuild wrap every module
// it reaches in a lazy initialiser, and the hot loops run slower (docs/architecture.md, "Why some hot code looks as
// it does")
import { runStoreGetArgv } from "./commands/store-get.js";

/**
 * Runs argv (without "node commplan") when it is a `store get --id` run storeGetArgv reads, and returns its exit code;
 * null for any other argv (main runs it). Never throws.
 */
export async function storeGetMain(argv: readonly string[], io: CliIo = processIo): Promise<number | null> {
  const a = storeGetArgv(argv);
  if (a === null) return null;
  // an in-process run with the caller's io: what the command writes to "-" goes to io.out too
  const stdout = io === processIo ? process.stdout : textSink(io);
  const ctx: CliContext = { io, stdout, maxMemory: defaultMemoryBudget(), exitCode: 0, command: "store get" };
  if (io === processIo) quietOnClosedStdout(() => ctx.exitCode);
  try {
    await runStoreGetArgv(a, ctx);
    return ctx.exitCode;
  } catch (e) {
    return exitCodeOfError(e, io, ctx.command);
  }
}
