/**
 * Program argument check: what makes a value no Program object at all (not an object, no variant, p, layout, rank
 * offsets, operations or pieces), checked in O(1) where a public function takes one; the verifier checks the rest.
 */
import { fail } from "./errors.js";
import { MAX_P } from "./limits.js";
import { describeValue, isIntIn, isOptionsObject } from "./option-checks.js";

const VARIANTS: readonly string[] = ["nonblocking", "blocking", "dataflow"];

/** What makes `prog` no Program object, or null (O(1): the tables' contents are not read). */
export function programArgProblem(prog: unknown): string | null {
  if (!isOptionsObject(prog)) return `the program is not a Program object, got ${describeValue(prog)}`;
  const { variant, p, layout, rankStart, ops, pieces } = prog;
  if (typeof variant !== "string" || !VARIANTS.includes(variant))
    return `the program's variant is not one of ${VARIANTS.join(", ")}, got ${describeValue(variant)}`;
  if (!isIntIn(p, 1, MAX_P)) return `the program's p is not an integer in 1..${MAX_P}, got ${describeValue(p)}`;
  if (!isOptionsObject(layout)) return `the program's layout is not an object, got ${describeValue(layout)}`;
  if (!(rankStart instanceof Uint32Array) || rankStart.length !== p + 1)
    return "the program's rankStart is not a Uint32Array of p + 1 offsets";
  if (!isOptionsObject(ops) || !(ops["rank"] instanceof Uint32Array))
    return "the program's ops is not an operation table";
  return isOptionsObject(pieces) ? null : "the program's pieces is not a piece table";
}

/** Throws a one-line BAD_INPUT error of `module` (field "program") naming `fn` when programArgProblem finds one. */
export function checkProgramArg(module: string, prog: unknown, fn: string): void {
  const w = programArgProblem(prog);
  if (w !== null) throw fail(module, "BAD_INPUT", `${fn}: ${w}`, { field: "program" });
}
