/** auto's screen formulas: the flat time of shift, linear permutation, mesh-two-stage, hierarchical and two-stage predicted from the matrix equals scheduleCost of the plan; the lazy screen plans only what it needs and finds the same best predictions as planning everything. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { predictShift } from "../../src/planner/shift.js";
import { predictLinearPermutation } from "../../src/planner/linear-permutation.js";
import { predictHierarchical } from "../../src/planner/two-stage/hierarchical.js";
import { predictMeshTwoStage } from "../../src/planner/two-stage/mesh-two-stage.js";
import { predictTwoStage } from "../../src/planner/two-stage/two-stage.js";
import { AUTO_VARIANTS, planVariant, screenFormulas, screenVariants, variantLabel } from "../../src/auto/index.js";
import { scheduleCost, type CostMode } from "../../src/machines/cost-model.js";
import { MACHINES } from "../../src/machines/presets.js";
import type { MachineModel } from "../../src/model/machine.js";
import type { CommMatrix } from "../../src/model/matrix.js";
import { plan } from "../../src/planner/index.js";
import { lpPartner, lpRoundOf, lpRounds } from "../../src/planner/linear-permutation.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";

const machineArb = fc
  .constantFrom(...MACHINES)
  .chain((mc) => fc.constantFrom<MachineModel>(mc, { ...mc, envelope: 64 }));
const modeArb = fc.constantFrom<CostMode>("blocking", "nonblocking");

function divisors(p: number): number[] {
  return Array.from({ length: p }, (_, i) => i + 1).filter((d) => p % d === 0);
}

function close(a: number, b: number): void {
  expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(b)));
}

describe("the planners' flat-time predictions", () => {
  it("lpRoundOf inverts lpPartner: the round in which i and j exchange, for every P up to 70", () => {
    for (let p = 2; p <= 70; p++) {
      const [first, last] = lpRounds(p);
      for (let r = first; r <= last; r++)
        for (let i = 0; i < p; i++) {
          const j = lpPartner(p, r, i);
          if (j >= 0 && j !== i) expect(lpRoundOf(p, i, j), `P ${p} round ${r} pair ${i}-${j}`).toBe(r);
        }
    }
  });

  it("equal scheduleCost of the plan, for random matrices, machines (with and without envelope) and both modes", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ maxP: 36, kinds: ["dense", "sparse", "empty-rows", "zero", "permutation", "spike"] }),
        machineArb,
        modeArb,
        fc.nat(),
        (r, mc, mode, pick) => {
          const m: CommMatrix = buildMatrix(r);
          const cost = (algorithm: string, params: Record<string, string | number> = {}): number =>
            scheduleCost(plan(m, algorithm, { params }), mc, mode).total;
          close(predictShift(m, mc, mode), cost("shift"));
          close(predictLinearPermutation(m, mc, mode), cost("linear-permutation"));
          const ds = divisors(m.p);
          const rows = ds[pick % ds.length]!,
            gpus = ds[(pick >> 3) % ds.length]!;
          for (const schedule of ["shift", "linear-permutation"] as const) {
            close(predictTwoStage(m, mc, mode, schedule), cost("two-stage", { schedule }));
            close(predictMeshTwoStage(m, mc, mode, schedule), cost("mesh-two-stage", { schedule }));
            close(predictMeshTwoStage(m, mc, mode, schedule, rows), cost("mesh-two-stage", { schedule, rows }));
          }
          close(predictHierarchical(m, mc, mode), cost("hierarchical"));
          close(predictHierarchical(m, mc, mode, gpus), cost("hierarchical", { gpus }));
        },
      ),
      { numRuns: 120 },
    );
  });

  it("the lazy screen's 3 best predictions are those of planning and pricing every variant", () => {
    fc.assert(
      fc.property(
        // P <= 12 and a fixed seed: te-offline's search takes from milliseconds to over a minute on some
        // matrices of P 20-30 (an unseeded run of P <= 30 once kept CI busy for more than 10 minutes)
        matrixRecipe({ minP: 2, maxP: 12, kinds: ["dense", "sparse", "empty-rows", "permutation", "spike"] }),
        fc.constantFrom(...MACHINES),
        modeArb,
        (r, mc, mode) => {
          const m = buildMatrix(r);
          const screen = screenVariants(m, mc, mode, 1, 3);
          const best = (xs: { label: string; t: number }[]): number[] =>
            xs
              .sort((a, b) => a.t - b.t)
              .slice(0, 3)
              .map((x) => x.t);
          const known = screen
            .map((s) => s.predicted)
            .filter((t): t is number => t !== null)
            .sort((a, b) => a - b);
          const third = known[2] ?? Infinity;
          const lazy = screen
            .filter((s) => s.predicted !== null)
            .map((s) => ({ label: variantLabel(s.variant), t: s.predicted! }));
          const full = screen.flatMap((s) => {
            // rs-nh and te-offline above their size limits are left out by the screen as by design
            if (/^not planned (above|: \d)/.test(s.note)) return [];
            // te-offline takes seconds on some of these matrices: it is planned here only where its
            // lower bound (a round per element) reaches the 3 best
            if (s.variant.algorithm === "te-offline" && s.how === null && s.bound! >= third) return [];
            const { schedule } = planVariant(m, s.variant, mc, 1);
            return schedule ? [{ label: variantLabel(s.variant), t: scheduleCost(schedule, mc, mode).total }] : [];
          });
          const a = best(lazy),
            b = best(full);
          expect(a.length).toBe(b.length);
          a.forEach((x, i) => close(x, b[i]!));
          // the variants without a formula that were planned are few: only those whose bound came near the top
          expect(screen.filter((s) => s.how === "planned").length).toBeLessThanOrEqual(AUTO_VARIANTS.length);
        },
      ),
      { numRuns: 30, seed: 7 },
    );
  });
});

describe("auto's flat lower bounds", () => {
  it("every variant without a formula gets a bound no larger than its plan's flat time (random matrices, machines, both modes)", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        // te-offline plans one transfer per element: small entries keep its search short; P = 1 included, where no
        // stage charges a barrier
        matrixRecipe({
          minP: 1,
          maxP: 16,
          kinds: ["dense", "sparse", "empty-rows", "permutation", "spike"],
        }),
        machineArb,
        modeArb,
        (r, mc, mode) => {
          const m = buildMatrix({ ...r, maxEntry: Math.min(r.maxEntry, 60) });
          for (const s of screenFormulas(m, mc, mode).results) {
            if (s.bound === null) continue;
            const { schedule } = planVariant(m, s.variant, mc, 1);
            if (schedule === null) continue;
            seen.add(s.variant.algorithm);
            const t = scheduleCost(schedule, mc, mode).total;
            expect(s.bound, `${variantLabel(s.variant)} P=${m.p} ${mc.name} ${mode}`).toBeLessThanOrEqual(
              t * (1 + 1e-12) + 1e-9,
            );
          }
        },
      ),
      { numRuns: 60, seed: 5 },
    );
    // every planner that gets a bound was checked
    for (const name of ["rs-n", "rs-nh", "coloring", "split-coloring", "four-stage", "te-offline"])
      expect(seen).toContain(name);
  });
});
