import { describe, expect, it } from "vitest";
import { plan } from "../../src/planner/index.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { buildMatrix } from "../helpers/arbitraries.js";

describe("pairwise-exchange check", () => {
  it("its title says what it checks, true also of circle-method plans (P not a power of two)", () => {
    for (const p of [6, 7, 8]) {
      const m = buildMatrix({ p, kind: "dense", seed: p, maxEntry: 5 });
      const c = verifySchedule(m, plan(m, "linear-permutation", {})).checks.find((x) => x.id === "pairwise-exchange")!;
      expect(c.holds).toBe(true);
      expect(c.title).toBe("every step is a pairwise exchange (each node talks to at most one partner, both ways)");
      expect(c.title).not.toMatch(/XOR/);
    }
  });
});
