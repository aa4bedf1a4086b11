/** The verifier's link-contention check: messages per link and step against the room at the hosts' rate, on hand-built networks. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matrixDigest, matrixFromData } from "../../src/model/matrix.js";
import { ScheduleBuilder } from "../../src/model/schedule.js";
import { plan } from "../../src/planner/index.js";
import { checkLinkContention } from "../../src/verifier/link-contention.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { buildMatrix, matrixRecipe } from "../helpers/arbitraries.js";
import { fatTree, star } from "../machines/sim/hand-networks.js";

/** One step: each [src, dst] a one-element transfer. */
function oneStep(p: number, pairs: readonly [number, number][]) {
  const data = new Float64Array(p * p);
  for (const [a, b] of pairs) data[a * p + b] = 1;
  const m = matrixFromData(p, data);
  const b = new ScheduleBuilder(
    { p, algorithm: "hand", params: {}, seed: null, elementBytes: 8, matrixDigest: matrixDigest(m) },
    false,
    4,
  );
  b.stage("1").step();
  for (const [a, c] of pairs) b.transfer(a, c, 1);
  return { m, s: b.build() };
}

describe("link contention", () => {
  it("two hosts of one leaf sending across a 4:1 uplink (room 1) overload it; at 1:1 (room 4) they fit", () => {
    const { s } = oneStep(8, [
      [0, 4],
      [1, 5],
    ]);
    const tight = checkLinkContention(s, fatTree(2, 4, 10, 4));
    expect(tight.holds).toBe(false);
    expect(tight.measured).toBe(2);
    expect(tight.witness).toBe(
      "step 0: link leaf0->spine carries 2 messages, room for 1 at the hosts' rate (2 link-step(s) over)",
    );
    const wide = checkLinkContention(s, fatTree(2, 4, 10, 1));
    expect(wide.holds).toBe(true);
    expect(wide.measured).toBe(1); // the host links: one message each, room 1
    // 2:1: room 2, exactly full
    expect(checkLinkContention(s, fatTree(2, 4, 10, 2)).holds).toBe(true);
  });

  it("on a star, every node-contention-free plan is link-contention-free, and verify adds the row", () => {
    fc.assert(
      fc.property(
        matrixRecipe({ minP: 2, maxP: 12 }),
        fc.constantFrom("shift", "linear-permutation", "coloring"),
        (r, alg) => {
          const m = buildMatrix(r);
          const s = plan(m, alg);
          const row = verifySchedule(m, s, { network: star(m.p, 5) }).checks.find((c) => c.id === "link-contention");
          expect(row?.holds).toBe(true);
        },
      ),
      { numRuns: 30 },
    );
  });

  it("shift on a 4:1 fat tree crosses the uplinks four at a time and fails; verify refuses a network with too few hosts", () => {
    const m = matrixFromData(8, new Float64Array(64).fill(1));
    const s = plan(m, "shift");
    const r = verifySchedule(m, s, { network: fatTree(2, 4, 10, 4) });
    const row = r.checks.find((c) => c.id === "link-contention")!;
    expect(row.holds).toBe(false);
    expect(row.measured).toBe(4);
    expect(r.ok).toBe(false);
    expect(() => verifySchedule(m, s, { network: star(4, 1) })).toThrow(/has 4 hosts, fewer than P = 8/);
  });
});
