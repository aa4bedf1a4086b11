/**
 * The flags that name a command's machine and runtime model (--machine, --runtime, --free-copies): simulate --program
 * and --library, plan -a auto and precompute --from-capture read them the same way.
 */
import { Option } from "commander";
import { findMachine } from "../../machines/presets.js";
import {
  findRuntimeModel,
  RUNTIME_MODELS,
  withRuntime,
  type RuntimeModel,
} from "../../machines/runtime/runtime-model.js";
import type { MachineModel } from "../../model/machine.js";
import { fail } from "../../model/errors.js";
import { didYouMean } from "../../internal/did-you-mean.js";

/**
 * The runtime preset `--runtime` names, or a one-line error from `command` naming the option, the name and the known
 * ones (findRuntimeModel's own error comes from `machines`, which the user did not run).
 */
export function runtimeNamed(command: string, name: string): RuntimeModel {
  const names = RUNTIME_MODELS.map((x) => x.name);
  if (!names.includes(name))
    throw fail(command, "BAD_OPTION", `--runtime: unknown runtime model '${name}'${didYouMean(name, names)}`, {
      field: "runtime",
    });
  return findRuntimeModel(name);
}

/** simulate's error when no flag names its machine. */
export const MACHINE_NEEDED =
  "needs --machine (see 'commplan machines'), or with --program or --library a --runtime made for one machine";

/** The default runtime model of --program. */
export const DEFAULT_RUNTIME = "smpi";

/** `--runtime <name>`. */
export const RUNTIME_OPTION = new Option(
  "--runtime <name>",
  `with --program or --library: the runtime model, ${RUNTIME_MODELS.map((m) => m.name).join(" or ")} (default ${DEFAULT_RUNTIME}; 'commplan machines --json' lists them with their SMPI configuration)`,
);

/**
 * A fresh `--runtime <name>` of a command that plans or ranks for an MPI runtime (plan -a auto, compare), in one
 * wording: `use` what it does there ("... for", "... on"), then the runtimes, then `how` the plans are timed.
 */
export const runtimeTargetOption = (use: string, how: string): Option =>
  new Option(
    "--runtime <name>",
    `${use} an MPI runtime of today's networks, ${RUNTIME_MODELS.map((r) => r.name).join(" or ")} ('commplan machines --json' lists them with their SMPI configuration): ${how}`,
  );

/** A fresh `--free-copies` option (one per command: commander keeps an option's state on the instance). */
export const freeCopiesOption = (): Option =>
  new Option(
    "--free-copies",
    "with a runtime model: local copies (gathers, scatters, relays' pieces) cost nothing, as in an SMPI run of the executor with smpi/simulate-computation:no (default: the machine's t_m per byte, as the trace export's compute actions)",
  );

/**
 * The machine preset a command runs on: --machine, else the machine the --runtime preset is made for (ib-hdr-200 for
 * ib-hdr-200-mpi). `others`: runtime names the command takes besides the presets (precompute's none), which name no
 * machine. A one-line error `needs` (the command's own words) when neither flag gives one; an unknown runtime is
 * named first, with a suggestion.
 */
export function machineOfFlags(
  command: string,
  flags: { readonly machine?: string; readonly runtime?: string },
  needs: string,
  others: readonly string[] = [],
): MachineModel {
  if (flags.machine !== undefined) return findMachine(flags.machine);
  const runtime = flags.runtime;
  const made = runtime === undefined || others.includes(runtime) ? "" : runtimeNamed(command, runtime).machine;
  if (made !== "") return findMachine(made);
  const why = runtime === undefined ? "" : ` (runtime ${runtime} is not made for one machine)`;
  throw fail(command, "BAD_OPTION", `${needs}${why}`, { field: "machine" });
}

/** The machine a runtime preset gives when --machine is not given, for --machine's help. */
export const MACHINE_OF_RUNTIME_HELP = `the machine --runtime is made for (${RUNTIME_MODELS.filter(
  (r) => r.machine !== "",
)
  .map((r) => `${r.machine} for ${r.name}`)
  .join(", ")})`;

/** The runtime model a command's --runtime and --free-copies name (`command`: the one-line error's prefix). */
export function runtimeOfFlags(command: string, name: string, freeCopies: boolean | undefined): RuntimeModel {
  const model = runtimeNamed(command, name);
  return freeCopies === true ? withRuntime(model, { copies: false }) : model;
}
