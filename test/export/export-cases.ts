// Shared cases of the export tests: every planner's payload plan on a small 003 test-set-2 matrix, lowered in both variants.
import { lowerSchedule } from "../../src/lower/index.js";
import { isCommplanError } from "../../src/model/errors.js";
import type { CommMatrix } from "../../src/model/matrix.js";
import type { Program, ProgramVariant } from "../../src/model/program.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { PLANNERS, plan } from "../../src/planner/registry.js";

/** A planner's lowered program for a matrix and variant. */
export interface ProgramCase {
  readonly planner: string;
  readonly m: CommMatrix;
  readonly prog: Program;
}

/** The test matrix at P: 8-regular (or P - 1) support, sizes 1..32 units of `unit` elements. */
export function caseMatrix(p: number, unit = 4): CommMatrix {
  return generatePattern("wang-set2", p, { d: Math.min(8, p - 1), unit }, 11);
}

/** Every planner that plans this matrix, lowered in `variant` (a planner that refuses the shape is left out; none does at P = 8 or 16). */
export function everyPlannerCase(p: number, variant: ProgramVariant, unit = 4): ProgramCase[] {
  const m = caseMatrix(p, unit);
  const out: ProgramCase[] = [];
  for (const pl of PLANNERS) {
    let s;
    try {
      s = plan(m, pl.name, { payload: true });
    } catch (e) {
      if (isCommplanError(e) && e.code === "UNSUPPORTED") continue;
      throw e;
    }
    out.push({ planner: pl.name, m, prog: lowerSchedule(m, s, { variant }).program });
  }
  return out;
}
