/**
 * More of what a plain-JavaScript caller can get wrong (test/model/api-arguments.test.ts has the rest), found by using
 * the packed package as a dependency: planners given by name, the report renderers' arguments, verifyProgram's
 * options, an algorithm that is not a string, an options object where the machine goes. Each is a one-line
 * CommplanError naming what is wrong, never a TypeError from inside nor an option silently dropped.
 */
import { describe, expect, it } from "vitest";
import {
  compareMatrix,
  findMachine,
  findPlanner,
  lowerSchedule,
  matrixFromRows,
  plan,
  planAuto,
  scheduleCost,
  verifyProgram,
} from "../../src/index.js";
import { compareChartSvg, compareHtml, runSweep } from "../../src/entries/compare.js";
import {
  matrixToCsvText,
  matrixToJsonText,
  matrixToMtxText,
  parseMatrixText,
  parseScheduleJsonText,
  programToJsonText,
  scheduleToJsonText,
} from "../../src/entries/io.js";
import { loose, refused } from "../helpers/errors.js";

const m = matrixFromRows([
  [0, 1, 2],
  [3, 0, 1],
  [1, 1, 0],
]);
const machine = findMachine("t3d-004");
const s = plan(m, "shift", { payload: true });

describe("the planners option takes Planner objects; a name or anything else is refused naming it", () => {
  it("compareMatrix: a planner's name in the list (was: TypeError reading 'elementLimit')", () => {
    expect(refused(() => loose(compareMatrix)(m, { machine, planners: ["colorng"] }), "BAD_OPTION", "planners")).toBe(
      'compare: planners[0] is a name, not a planner: give findPlanner("colorng")',
    );
    expect(
      refused(
        () => loose(compareMatrix)(m, { machine, planners: [findPlanner("shift"), 3] }),
        "BAD_OPTION",
        "planners",
      ),
    ).toBe("compare: planners[1] is not a planner (an entry of PLANNERS or findPlanner's), got 3");
  });

  it("compareMatrix and runSweep: one name for the list (was: TypeError planners.forEach)", () => {
    expect(refused(() => loose(compareMatrix)(m, { machine, planners: "coloring" }), "BAD_OPTION", "planners")).toBe(
      'compare: planners must be an array of planners (PLANNERS, findPlanner), got "coloring"',
    );
    refused(() => loose(runSweep)(m, [1, 2], { machine, planners: "coloring" }), "BAD_OPTION", "planners");
  });

  it("planAuto: a name in the list (was: TypeError using 'in' on undefined)", () => {
    expect(refused(() => loose(planAuto)(m, machine, { planners: ["coloring"] }), "BAD_OPTION", "planners")).toBe(
      'auto: planners[0] is a name, not a planner: give findPlanner("coloring")',
    );
  });

  it("the Planner objects still pass, null and undefined are the registry", () => {
    const rows = compareMatrix(m, { machine, planners: [findPlanner("shift"), findPlanner("coloring")] }).report.rows;
    expect(rows.map((x) => x.algorithm)).toEqual(["shift", "coloring"]);
    expect(loose(compareMatrix)(m, { machine, planners: null })).toBeTruthy();
    expect(planAuto(m, machine, { planners: [findPlanner("shift")] }).schedule.algorithm).toBe("shift");
  });

  it("planAuto: the default finalists is at most the variants of the planners given (was: 'finalists must be ...')", () => {
    // one planner has fewer variants than AUTO_FINALISTS; only a count the caller gives is refused
    expect(planAuto(m, machine, { planners: [findPlanner("shift"), findPlanner("coloring")] }).schedule).toBeTruthy();
    expect(
      refused(
        () => planAuto(m, machine, { planners: [findPlanner("shift")], finalists: 3 }),
        "BAD_OPTION",
        "finalists",
      ),
    ).toBe("auto: finalists must be an integer in 0..1, got 3");
  });
});

describe("compareHtml and compareChartSvg check the report as compareText does", () => {
  const report = compareMatrix(m, { machine }).report;

  it("a report that is not compareMatrix's is BAD_INPUT naming the function (was: TypeError reading 'replace')", () => {
    expect(refused(() => loose(compareHtml)({}, null, null), "BAD_INPUT", "report")).toBe(
      "compare: compareHtml: the report is not a CompareReport (compareMatrix's), got an object without its format and rows",
    );
    expect(refused(() => loose(compareChartSvg)(null), "BAD_INPUT", "report")).toBe(
      "compare: compareChartSvg: the report is not a CompareReport (compareMatrix's), got null",
    );
    refused(() => loose(compareChartSvg)({ rows: [] }), "BAD_INPUT", "report");
  });

  it("the sweep and the best plan may be left out, as null (was: TypeError reading 'mode' of undefined)", () => {
    const page = loose(compareHtml)(report) as string;
    expect(page).toBe(compareHtml(report, null, null));
    expect(page).toMatch(/^<!DOCTYPE html>/);
  });
});

describe("verifyProgram checks its options as verifySchedule does", () => {
  const prog = lowerSchedule(m, s).program;

  it("null options (was: TypeError reading 'maxElements' of null)", () => {
    expect(refused(() => loose(verifyProgram)(m, prog, null), "BAD_OPTION", "options")).toBe(
      "verify: options must be an object or undefined, got null",
    );
  });

  it("a misspelt key (was: dropped, and the default limit used)", () => {
    expect(refused(() => loose(verifyProgram)(m, prog, { maxElemnts: 1 }), "BAD_OPTION", "maxElemnts")).toBe(
      "verify: unknown option 'maxElemnts' (did you mean maxElements?); known: maxElements",
    );
    // spelt right, the limit refuses this program: the misspelling had changed the answer
    refused(() => verifyProgram(m, prog, { maxElements: 1 }), "UNSUPPORTED", "maxElements");
    expect(verifyProgram(m, prog, {}).ok).toBe(true);
  });
});

describe("an algorithm or a machine of the wrong kind is named as given", () => {
  it("plan and findPlanner: an algorithm that is not a string (was: 'unknown algorithm number')", () => {
    expect(refused(() => loose(plan)(m, 42), "BAD_OPTION", "algorithm")).toBe(
      "planner: the algorithm must be a planner's name (a string), got 42",
    );
    expect(refused(() => loose(findPlanner)(undefined), "BAD_OPTION", "algorithm")).toBe(
      "planner: the algorithm must be a planner's name (a string), got undefined",
    );
    expect(refused(() => findPlanner("shfit"), "BAD_OPTION", "algorithm")).toMatch(
      /^planner: unknown algorithm 'shfit' \(did you mean shift\?\); known: /,
    );
  });

  it("planAuto and scheduleCost: an options object where the machine goes (was: 'the machine has no name')", () => {
    expect(refused(() => loose(planAuto)(m, { machine }), "BAD_OPTION", "machine")).toBe(
      "auto: the machine is an options object ({ machine, ... }), not a machine model: give the model itself " +
        "(findMachine(name) or an entry of MACHINES)",
    );
    expect(refused(() => loose(scheduleCost)(s, { name: "" }, "blocking"), "BAD_OPTION", "machine")).toBe(
      "machines: the machine has no name",
    );
  });
});

describe("commplan/io's in-memory writers and parsers check their argument (were: TypeErrors from inside)", () => {
  it("matrixTo*Text of null: BAD_INPUT naming the matrix", () => {
    for (const f of [matrixToJsonText, matrixToCsvText, matrixToMtxText])
      expect(refused(() => loose(f)(null), "BAD_INPUT", "matrix")).toMatch(/^matrix: the matrix is not a CommMatrix/);
    expect(matrixToCsvText(m)).toMatch(/^# commplan elementBytes=/);
  });

  it("scheduleToJsonText and programToJsonText of null: BAD_INPUT naming the schedule or program", () => {
    expect(refused(() => loose(scheduleToJsonText)(null), "BAD_INPUT", "schedule")).toMatch(/^schedule: /);
    expect(refused(() => loose(programToJsonText)(null), "BAD_INPUT", "program")).toBe(
      "program: programToJsonText: the program is not a Program object, got null",
    );
    expect(JSON.parse(programToJsonText(lowerSchedule(m, s).program))).toHaveProperty("format");
  });

  it("parseMatrixText and parseScheduleJsonText of a non-string: BAD_OPTION naming the text", () => {
    expect(refused(() => loose(parseMatrixText)(null), "BAD_OPTION", "text")).toBe(
      "matrix: the text must be a string, got null",
    );
    expect(refused(() => loose(parseScheduleJsonText)(42), "BAD_OPTION", "text")).toBe(
      "schedule: the text must be a string, got 42",
    );
    expect(parseScheduleJsonText(scheduleToJsonText(s)).stepCount).toBe(s.stepCount);
    expect(parseMatrixText(matrixToCsvText(m)).p).toBe(3);
  });
});
