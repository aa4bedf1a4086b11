/**
 * The te-* planners move every element as a unit packet, one per pair per round, so one large entry makes many rounds:
 * an explicit plan is refused up front past MAX_EXPLICIT_ROUNDS rounds, MAX_EXPLICIT_ROUND_WORK pair visits or the
 * memory budget (naming the entry and the limit), and stopped by the engine when a protocol spends more than its lower
 * bound promised.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { isCommplanError } from "../../../src/model/errors.js";
import { matrixFromRows } from "../../../src/model/matrix.js";
import { plan } from "../../../src/planner/index.js";
import { TE_PROTOCOLS } from "../../../src/planner/total-exchange/index.js";
import {
  checkTeRounds,
  MAX_EXPLICIT_ROUND_WORK,
  MAX_EXPLICIT_ROUNDS,
  relayLowerBound,
} from "../../../src/planner/total-exchange/round-engine.js";
import { verifySchedule } from "../../../src/verifier/index.js";

const NAMES = TE_PROTOCOLS.map((p) => p.name);

/** A P x P matrix of ones with M[i][j] = v. */
function oneLarge(p: number, i: number, j: number, v: number): ReturnType<typeof matrixFromRows> {
  const rows = Array.from({ length: p }, (_, a) => Array.from({ length: p }, (_, b): number => (a === b ? 0 : 1)));
  rows[i]![j] = v;
  return matrixFromRows(rows);
}

/** The CommplanError message of f (fails when f returns). */
function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(isCommplanError(e)).toBe(true);
    return (e as Error).message;
  }
  throw new Error("not refused");
}

describe("te-* explicit plans: rounds that follow an entry's value are refused up front", () => {
  it("te-direct on an entry of 3,075,924 (the fuzzer's case) names the entry and the limit in one line", () => {
    const m = oneLarge(12, 4, 10, 3_075_924);
    const msg = refusal(() => plan(m, "te-direct"));
    expect(msg).toBe(
      `planner: te-direct: the entry M[4][10] = 3075924 makes at least 3075924 rounds (one stage each; every element is a unit packet); an explicit plan holds at most ${MAX_EXPLICIT_ROUNDS}: plan another algorithm, or count the rounds with te-table`,
    );
    expect(msg).not.toContain("\n");
  });

  it("every te-* planner refuses an entry whose fewest rounds pass the limit, with or without payloads", () => {
    const m = oneLarge(4, 0, 1, 5_000_000);
    for (const name of NAMES)
      for (const payload of [false, true])
        expect(refusal(() => plan(m, name, { payload }))).toMatch(
          new RegExp(
            `^planner: ${name}: the entry M\\[0\\]\\[1\\] = 5000000 makes at least \\d+ rounds .*at most 524288`,
          ),
        );
  });

  it("the fewest rounds: the largest entry for te-direct, the relay bound for a relaying protocol", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 9 }),
        fc.integer({ min: MAX_EXPLICIT_ROUNDS - 1000, max: 4 * MAX_EXPLICIT_ROUNDS }),
        (p, v) => {
          const m = oneLarge(p, p - 1, 0, v);
          const direct = () => checkTeRounds("te-direct", m, false, false);
          const relayed = () => checkTeRounds("te-offline", m, true, false);
          if (v > MAX_EXPLICIT_ROUNDS) expect(refusal(direct)).toContain(`M[${p - 1}][0] = ${v}`);
          else expect(direct().rounds).toBe(v);
          const lb = relayLowerBound(m);
          if (lb > MAX_EXPLICIT_ROUNDS) expect(refusal(relayed)).toContain(`at least ${lb} rounds`);
          else expect(relayed().rounds).toBeLessThanOrEqual(lb);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("rounds x P^2 past the work limit are refused naming the pair visits", () => {
    // P = 64: 4096 pairs a round; 70,000 rounds are within the round limit but 2.9e8 visits pass 2^28
    const m = oneLarge(64, 5, 6, 70_000);
    expect(70_000 * 64 * 64).toBeGreaterThan(MAX_EXPLICIT_ROUND_WORK);
    expect(refusal(() => plan(m, "te-direct"))).toBe(
      `planner: te-direct: the entry M[5][6] = 70000 makes at least 70000 rounds, each a scan of P x P = 4096 pairs (286720000 in all); an explicit plan spends at most ${MAX_EXPLICIT_ROUND_WORK}: plan another algorithm, or count the rounds with te-table`,
    );
  });

  it("a plan whose stages pass the memory budget is refused up front, naming the rounds", () => {
    const m = oneLarge(3, 1, 2, 100_000);
    expect(refusal(() => plan(m, "te-direct", { maxMemory: 2 ** 20 }))).toMatch(
      /^planner: te-direct: this plan would need about \d+\.\d MiB \(at least 100000 rounds, one stage each.*over the memory budget of 1\.0 MiB/,
    );
    expect(plan(m, "te-direct", { maxMemory: 2 ** 30 }).stages).toHaveLength(100_000);
  });

  it("a protocol that spends more rounds than its bound promised is stopped by the engine at the limit", () => {
    // te-simple at P = 4 falls back to direct rounds: the relay bound (about 200,000) passes, the rounds do not
    const m = oneLarge(4, 0, 1, MAX_EXPLICIT_ROUNDS + 10_000);
    expect(relayLowerBound(m)).toBeLessThan(MAX_EXPLICIT_ROUNDS);
    expect(refusal(() => plan(m, "te-simple"))).toBe(
      `planner: te-simple: the protocol passed ${MAX_EXPLICIT_ROUNDS} rounds, past the ${MAX_EXPLICIT_ROUNDS} rounds an explicit plan may spend (every element is a unit packet): plan another algorithm, or count the rounds with te-table`,
    );
  });

  it("at the limit a plan is made: te-direct on an entry of 2^19 at P = 2 has 2^19 stages", () => {
    const m = matrixFromRows([
      [0, MAX_EXPLICIT_ROUNDS],
      [3, 0],
    ]);
    const s = plan(m, "te-direct");
    expect(s.stages).toHaveLength(MAX_EXPLICIT_ROUNDS);
    expect(s.params["maxPairLoad"]).toBe(MAX_EXPLICIT_ROUNDS);
  });

  it("te-balanced on one heavy pair (its level search no longer sized by the entry) relays it and verifies", () => {
    const m = oneLarge(6, 2, 3, 50_000);
    const s = plan(m, "te-balanced", { payload: true });
    expect(verifySchedule(m, s).checks.filter((c) => !c.holds)).toEqual([]);
    expect(s.params["forwarded"]).toBeGreaterThan(0);
    // five pairs from node 2 share the load: well under the direct protocol's 50,000 rounds
    expect(s.stages.length).toBeLessThan(25_000);
  });
});
