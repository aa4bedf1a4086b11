/** four-stage for every P in 1..300 with P mod 4 = 3, at payload level with the full verifier (issue 5, done-when; every-p-cases.ts), one test per P. */
import { describe, it } from "vitest";
import { checkEveryP, everyPPart } from "./every-p-cases.js";

describe("four-stage verifies at payload level with the stated bounds (P mod 4 = 3)", () => {
  it.each(everyPPart(3))("P = %i: random sparse (general bounds) and P * {0, 1} (divisible bounds) matrices", (p) =>
    checkEveryP(p),
  );
});
