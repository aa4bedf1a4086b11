/** Memory budget of a plan: the planners that allocate in proportion to P^2 or to their output estimate it up front and refuse past the budget. */
import { memoryBudget } from "../model/memory-budget.js";
import { fail } from "../model/errors.js";
import type { PlanOptions } from "./types.js";

/** The bytes a plan may allocate: `opts.maxMemory`, else the memory budget in force (`--max-memory`, by default half the machine's memory up to 32 GiB). */
export function planMemoryBudget(opts: PlanOptions): number {
  return opts.maxMemory ?? memoryBudget();
}

/** Formats a byte count (GiB or MiB, one decimal). */
function bytes(n: number): string {
  return n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(1)} GiB` : `${(n / 2 ** 20).toFixed(1)} MiB`;
}

/** Throws a one-line CommplanError when a plan's estimated allocation passes the budget; `what` says what the estimate counts. */
export function refuseOverBudget(algorithm: string, estimate: number, what: string, opts: PlanOptions): void {
  const budget = planMemoryBudget(opts);
  if (estimate <= budget) return;
  throw fail(
    "planner",
    "UNSUPPORTED",
    `${algorithm}: this plan would need about ${bytes(estimate)} (${what}), over the memory budget of ${bytes(budget)} (raise it with --max-memory or maxMemory), or plan another algorithm`,
    { field: "maxMemory" },
  );
}
