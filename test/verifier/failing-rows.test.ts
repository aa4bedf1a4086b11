/** A FAIL row prints what failed: checks over items with their own bounds (per source, destination, node, stage) show the failing item's value and bound, never maxima that look within bound (PerItemBound, report.ts). */
import { describe, expect, it } from "vitest";
import { matrixDigest, matrixFromRows } from "../../src/model/matrix.js";
import { ScheduleBuilder } from "../../src/model/schedule.js";
import { generatePattern } from "../../src/patterns/index.js";
import { plan } from "../../src/planner/index.js";
import { PerItemBound, type Check, type Report } from "../../src/verifier/report.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { formatReport, reportJson } from "../../src/cli/commands/verify.js";
import { pack, unpack } from "../helpers/schedule-edit.js";

const row = (r: Report, id: string): Check => {
  const c = r.checks.find((x) => x.id === id);
  if (!c) throw new Error(`no row ${id}`);
  return c;
};

/** The per-item upper-bound rows: a failing one shows measured > bound, a passing one measured <= bound. */
const PER_ITEM =
  /^(two-stage-1-per-source|two-stage-2-per-destination|four-stage-(I|II|III|IV)-(received|longest)|messages-per-node)$/;
function expectConsistent(r: Report): void {
  for (const c of r.checks.filter((x) => PER_ITEM.test(x.id))) {
    expect(c.measured, c.id).not.toBeNull();
    expect(c.bound, c.id).not.toBeNull();
    if (c.holds) expect(c.measured!, c.id).toBeLessThanOrEqual(c.bound!);
    else expect(c.measured!, `${c.id}: ${c.witness}`).toBeGreaterThan(c.bound!);
  }
}

/** The text row of check `id` in `verify`'s table, and the same check in --json. */
function printed(r: Report, id: string): { text: string; json: Check } {
  const line = formatReport(r)
    .split("\n")
    .find((l) => l.includes(` ${id} `));
  const json = (JSON.parse(reportJson(r)) as { checks: Check[] }).checks.find((c) => c.id === id)!;
  return { text: line ?? "", json };
}

describe("PerItemBound", () => {
  it("shows the maxima while every item holds, the first failing item once one fails", () => {
    const a = new PerItemBound();
    a.add(38, 45);
    a.add(5, 9);
    expect(a.row("x", "t", "s")).toMatchObject({ holds: true, measured: 38, bound: 45, witness: null });
    expect(a.add(10, 9)).toBe(true);
    a.witness = "item 3";
    expect(a.add(12, 11)).toBe(false); // only the first failing item is reported
    expect(a.row("x", "t", "s")).toMatchObject({ holds: false, measured: 10, bound: 9, witness: "item 3" });
  });
  it("takes a tolerance for bounds computed in floating point", () => {
    const a = new PerItemBound(1e-9);
    expect(a.add(1 + 1e-12, 1)).toBe(false);
    expect(a.holds).toBe(true);
  });
});

describe("FAIL rows of per-item checks print the failing item (text and --json)", () => {
  it("two-stage-2-per-destination: a message to destination 2 over its bound 1, while destination 1's larger message is within its bound 10", () => {
    // P = 3, M[0][1] = 30, M[0][2] = 3: sum_i ceil(M[i][1]/3) = 10, sum_i ceil(M[i][2]/3) = 1
    const m = matrixFromRows([
      [0, 30, 3],
      [0, 0, 0],
      [0, 0, 0],
    ]);
    const b = new ScheduleBuilder(
      {
        p: 3,
        algorithm: "two-stage",
        params: {},
        seed: null,
        elementBytes: m.elementBytes,
        matrixDigest: matrixDigest(m),
      },
      false,
    );
    b.stage("1", "distribute").step();
    b.transfer(0, 1, 12); // 10 for node 1, 2 for node 2 (both relayed by 1 or kept)
    b.step().transfer(0, 2, 10);
    b.stage("2", "collect").step();
    b.transfer(0, 1, 10);
    b.transfer(1, 2, 2); // over destination 2's bound 1
    b.step().transfer(0, 2, 1);
    b.transfer(2, 1, 10);
    const r = verifySchedule(m, b.build());
    expect(row(r, "sizes-add-up").holds).toBe(true);
    const c = row(r, "two-stage-2-per-destination");
    expect(c).toMatchObject({ holds: false, measured: 2, bound: 1 });
    expect(c.witness).toMatch(/intermediate 1 sends 2 elements to destination 2/);
    // stage 1: 12 from source 0 (r_0 = 33) > ceil(33/3) = 11
    expect(row(r, "two-stage-1-per-source")).toMatchObject({ holds: false, measured: 12, bound: 11 });
    const { text, json } = printed(r, "two-stage-2-per-destination");
    expect(text).toMatch(/^FAIL\s+two-stage-2-per-destination\s+2\s+bound 1\s/);
    expect(json).toMatchObject({ holds: false, measured: 2, bound: 1 });
    expectConsistent(r);
  });

  it("four-stage-II-received: a node of an incomplete column receives R = 3 messages, its bound R - 1 = 2 (complete columns: 3 of 3)", () => {
    // P = 7: C = 3, R = 3, r = 1; columns 1 and 2 are incomplete (2 nodes)
    const m = generatePattern("uniform", 7, { size: 7 }, 1);
    const s = plan(m, "four-stage");
    const st = unpack(s);
    st[1]!.steps.push({ transfers: [{ src: 0, dst: 1, size: 1, chunks: null }], stalls: [] });
    const r = verifySchedule(m, pack(s, st));
    const c = row(r, "four-stage-II-received");
    expect(c).toMatchObject({ holds: false, measured: 3, bound: 2 });
    expect(c.witness).toMatch(/^node 1 \(incomplete column\) receives 3 messages, bound 2/);
    expect(printed(r, "four-stage-II-received").text).toMatch(/^FAIL\s+four-stage-II-received\s+3\s+bound 2\s/);
    expectConsistent(r);
  });

  it("messages-per-node: node 0 sends 2 messages (f = 1) while the most received, 2, is within g = 2", () => {
    // f = 1 (each node sends one message), g = 2 (node 2 receives two)
    const m = matrixFromRows([
      [0, 0, 4],
      [0, 0, 4],
      [0, 0, 0],
    ]);
    const s = plan(m, "shift");
    const st = unpack(s);
    const t = st[0]!.steps.flatMap((x) => x.transfers).find((x) => x.src === 0 && x.dst === 2)!;
    t.size -= 1;
    st[0]!.steps.push({ transfers: [{ src: 0, dst: 2, size: 1, chunks: null }], stalls: [] });
    const r = verifySchedule(m, pack(s, st));
    expect(row(r, "direct").holds).toBe(true);
    const c = row(r, "messages-per-node");
    expect(c).toMatchObject({ holds: false, measured: 2, bound: 1 });
    expect(c.witness).toBe("node 0 sends 2 messages in stage 1, f = 1");
    expectConsistent(r);
  });

  it("coloring-header-sums: a header whose sumOfMaxima is right and lowerBound wrong shows the lowerBound pair", () => {
    const m = generatePattern("uniform", 6, { size: 5 }, 1);
    const s = plan(m, "coloring");
    const sum = s.params["sumOfMaxima"] as number,
      lb = s.params["lowerBound"] as number;
    const r = verifySchedule(m, { ...s, params: { ...s.params, lowerBound: lb + 1 } });
    expect(row(r, "coloring-header-sums")).toMatchObject({ holds: false, measured: lb + 1, bound: lb });
    const r2 = verifySchedule(m, { ...s, params: { ...s.params, sumOfMaxima: sum - 1 } });
    expect(row(r2, "coloring-header-sums")).toMatchObject({ holds: false, measured: sum - 1, bound: sum });
    expect(row(verifySchedule(m, s), "coloring-header-sums")).toMatchObject({ holds: true, measured: sum, bound: sum });
  });

  it("valid plans: every per-item row holds with measured <= bound", () => {
    const m = generatePattern("uniform", 7, { size: 7 }, 1);
    for (const a of ["two-stage", "four-stage", "shift", "linear-permutation"])
      expectConsistent(verifySchedule(m, plan(m, a)));
  });
});
