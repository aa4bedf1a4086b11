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
