/**
 * coloring's up-front memory estimate: the messages and colours it counts are the matrix's (messages, h = max(f, g)),
 * and a plan is refused in one line past the estimate and planned under it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matrixBytes, toSparse } from "../../../src/model/matrix.js";
import { matrixStats } from "../../../src/model/matrix-stats.js";
import { generatePattern } from "../../../src/patterns/index.js";
import { coloringBytes, messageDegree } from "../../../src/planner/permutation/coloring.js";
import { plan } from "../../../src/planner/registry.js";

describe("coloring memory", () => {
  it("counts the matrix's off-diagonal messages and h = max(f, g), dense or sparse", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.constantFrom("random", "h-relation", "pattern1", "zero", "uniform"),
        fc.boolean(),
        (p, seed, pattern, sparse) => {
          const d = generatePattern(pattern, p, {}, seed);
          const m = sparse ? toSparse(d) : d;
          const s = matrixStats(d);
          expect(messageDegree(m)).toEqual({ edges: s.messages, h: s.h });
        },
      ),
      { numRuns: 150 },
    );
  });

  it("grows with the messages, the nodes and the colours", () => {
    const base = coloringBytes(1000, 5000, 5);
    expect(coloringBytes(1000, 10000, 5) - base).toBe(40 * 5000);
    expect(coloringBytes(2000, 5000, 5)).toBeGreaterThan(base + 24 * 1000 * 5);
    expect(coloringBytes(1000, 5000, 64)).toBeGreaterThan(coloringBytes(1000, 5000, 32) + 24 * 1000 * 32);
  });

  it("is refused in one line past the matrix and the estimate, and plans under a budget that holds them", () => {
    const m = toSparse(generatePattern("halo", 4096, { neighbours: 26, periodic: 1 }, 1));
    const { edges, h } = messageDegree(m);
    const need = matrixBytes(m) + coloringBytes(m.p, edges, h);
    expect(() => plan(m, "coloring", { maxMemory: need - 1 })).toThrow(
      new RegExp(
        `^planner: coloring: this plan would need about [\\d.]+ MiB \\(colouring ${edges} messages with ${h} colours\\), over the memory budget of`,
      ),
    );
    expect(plan(m, "coloring", { maxMemory: need }).transferCount).toBe(edges);
  });
});
