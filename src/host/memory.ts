/** Host memory: the default memory budget, from the memory of the machine commplan runs on (node:os). */
import { totalmem } from "node:os";
import { checkMaxMemory, MAX_DEFAULT_BUDGET } from "../model/memory-budget.js";

/** The default budget (bytes): half of the machine's memory, at most MAX_DEFAULT_BUDGET (32 GiB). */
export function defaultMemoryBudget(): number {
  return Math.min(Math.floor(totalmem() / 2), MAX_DEFAULT_BUDGET);
}

/**
 * The budget an entry point works under (bytes): its `maxMemory` option (checked: a number of bytes above 0), else
 * the default.
 */
export function memoryBudgetOf(opts: { readonly maxMemory?: number | undefined }): number {
  return checkMaxMemory("memory", opts.maxMemory) ?? defaultMemoryBudget();
}
