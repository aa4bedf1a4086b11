/** The --max-memory option: its value parsed into bytes (option-flags.ts writes maxMemory as the flag). */
import { fail } from "../model/errors.js";
import { MIN_BUDGET, parseByteSize } from "../model/memory-budget.js";

/** Parses --max-memory (a size >= 1 MiB); a CommplanError naming the option otherwise. */
export function memoryOption(text: string): number {
  const v = parseByteSize(text);
  if (v === null || v < MIN_BUDGET) {
    throw fail(
      "commplan",
      "BAD_OPTION",
      `--max-memory must be a size of at least 1M such as 512M, 4G or 1.5G, got '${text.slice(0, 40)}'`,
      { field: "max-memory" },
    );
  }
  return v;
}

/**
 * What --max-memory counts, the same words for every command that takes it (docs/formats.md, "Memory budget"): the
 * budget is checked against estimates made before allocating, not against the process's memory.
 */
export const MEMORY_OPTION_HELP =
  "the memory budget, e.g. 512M or 4G (default: half of the machine's memory, at most 32G): what the command would " +
  "allocate for a size a file announces or an option asks for (a dense matrix, the work of a planner, a lowering or a " +
  "check, an Arrow schedule or a document read whole) is estimated first and refused past it; a JSON schedule's own " +
  "columns (as large as its file) and Node's own memory are not counted, so the process may hold more";

/** What a command adds to MEMORY_OPTION_HELP: how precompute and check-planner use the budget besides. */
const MEMORY_OPTION_MORE: { readonly [command: string]: string } = {
  precompute: "; its worker threads share it",
  "check-planner":
    "; it also limits the planner module's worker: a run whose heap and buffers pass it is stopped (docs/testing-kit.md)",
};

/** The --max-memory help of `command` (its name as `commplan <command>` spells it). */
export function memoryOptionHelp(command: string): string {
  return MEMORY_OPTION_HELP + (MEMORY_OPTION_MORE[command] ?? "");
}
