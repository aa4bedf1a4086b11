/** Options of the export functions (and of the charts, bounds, matrix text and topology specs) as a library caller passes them: a wrong type or range is a one-line BAD_OPTION naming the option, never NaN or "[object Object]" in the file, a TypeError or a long loop. */
import { describe, expect, it } from "vitest";
import { goalText } from "../../src/export/goal.js";
import { mscclXml } from "../../src/export/msccl-xml.js";
import { timelineToSvg } from "../../src/export/svg-gantt.js";
import { linkLoadSvg } from "../../src/export/svg-link-load.js";
import { lowerSchedule } from "../../src/lower/index.js";
import { findMachine } from "../../src/machines/presets.js";
import { simulateSchedule } from "../../src/machines/sim/simulate.js";
import { compareMatrix } from "../../src/compare/compare.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { plan } from "../../src/planner/registry.js";
import { simgridHostfile, simgridPlatformXml } from "../../src/export/simgrid-platform.js";
import { compareChartSvg } from "../../src/compare/compare-chart.js";
import { lowerBounds } from "../../src/bounds/index.js";
import { parseMatrixText } from "../../src/io/matrix-read.js";
import { buildTopology } from "../../src/topology/index.js";
import { openPlanStore } from "../../src/store/index.js";
import { errorOf } from "../helpers/errors.js";

const m = generatePattern("liu-pattern3", 8, { lmax: 4 }, 1);
const s = plan(m, "shift", {});
const prog = lowerSchedule(m, s).program;
const sim = simulateSchedule(s, findMachine("t3d-004"), { timeline: true });
const links = [{ label: "a->b", load: 0.5 }];
const compared = compareMatrix(m, { machine: findMachine("t3d-004"), planners: [] }).report;

/** Every value here must be refused (the option's type or range). */
const NOT_NUMBERS: unknown[] = [Number.NaN, Infinity, "12", {}, null, Symbol("s"), () => 1];
const NOT_STRINGS: unknown[] = [12, {}, null, Symbol("s"), ["x"]];

/** One option of one export function, its value, and what the refusal must say. */
const CASES: [string, (v: unknown) => unknown, unknown[], RegExp][] = [
  [
    "goal calcPerByte",
    (v) => goalText(prog, { calcPerByte: v as number }),
    [...NOT_NUMBERS, -1, 2e9],
    /^export: calcPerByte must be a number in 0\.\.1000000000, got /,
  ],
  ["msccl name", (v) => mscclXml(prog, { name: v as string }), NOT_STRINGS, /^export: name must be a string, got /],
  [
    "msccl proto",
    (v) => mscclXml(prog, { proto: v as "LL" }),
    [...NOT_STRINGS, "ll", "LL\n"],
    /^export: proto must be one of Simple, LL, LL128, got /,
  ],
  [
    "gantt width",
    (v) => timelineToSvg(sim.timeline, sim.makespan, { width: v as number }),
    [...NOT_NUMBERS, 0, -5, 1e9],
    /^svg: width must be a number in 200\.\.100000, got /,
  ],
  [
    "gantt rowHeight",
    (v) => timelineToSvg(sim.timeline, sim.makespan, { rowHeight: v as number }),
    [...NOT_NUMBERS, 0, 2000],
    /^svg: rowHeight must be a number in 3\.\.1000, got /,
  ],
  [
    "gantt title",
    (v) => timelineToSvg(sim.timeline, sim.makespan, { title: v as string }),
    NOT_STRINGS,
    /^svg: title must be a string, got /,
  ],
  [
    "link-load top",
    (v) => linkLoadSvg(links, { top: v as number }),
    [...NOT_NUMBERS, 0, 1.5],
    /^svg: top must be an integer in 1\.\.100000, got /,
  ],
  [
    "link-load title",
    (v) => linkLoadSvg(links, { title: v as string }),
    NOT_STRINGS,
    /^svg: title must be a string, got /,
  ],
  [
    "lower sendDispls",
    (v) => lowerSchedule(m, s, { sendDispls: v as Float64Array }),
    [null, [0, 1], {}],
    /^lower: sendDispls must be a Float64Array, got /,
  ],
  [
    "lower recvSize",
    (v) => lowerSchedule(m, s, { recvSize: v as Float64Array }),
    [null, new Float64Array(8).fill(Number.NaN)],
    /^lower: recvSize/,
  ],
  [
    "compare mode",
    (v) => compareMatrix(m, { machine: findMachine("t3d-004"), mode: v as "blocking" }),
    ["fast", Symbol("s")],
    /^compare: unknown mode /,
  ],
  // Infinity ran the host name loop until a RangeError (38 s)
  [
    "simgrid hostfile p",
    (v) => simgridHostfile(v as number),
    [...NOT_NUMBERS, 0, 2.5, 2 ** 21],
    /^export: p must be an integer in 1\.\.1048576, got /,
  ],
  [
    "simgrid platform p",
    (v) => simgridPlatformXml(v as number, findMachine("t3d-004")),
    [...NOT_NUMBERS, 0],
    /^export: p must be an integer in 1\.\.1048576, got /,
  ],
  [
    "compare chart width",
    (v) => compareChartSvg(compared, { width: v as number }),
    [...NOT_NUMBERS, 10],
    /^compare: width must be a number in 300\.\.100000, got /,
  ],
  [
    "lowerBounds pairTd",
    (v) => lowerBounds(m, "sim-blocking", { machine: findMachine("t3d-004"), pairTd: v as () => number }),
    NOT_STRINGS.slice(0, 3),
    /^bounds: pairTd must be a function/,
  ],
  [
    "parseMatrixText file",
    (v) => parseMatrixText("1,2\n3,4\n", { file: v as string }),
    [12, {}, null],
    /^matrix: file must be a string/,
  ],
  [
    "openPlanStore dir",
    (v) => openPlanStore(v as string, true),
    [12, null, "", {}],
    /^store: the store directory must be a non-empty path, got /,
  ],
  [
    "plan algorithm",
    (v) => plan(m, v as string, {}),
    [Symbol("s"), 3, "no\nplanner"],
    /^planner: (the algorithm must be a planner's name \(a string\), got (Symbol\(s\)|3)|unknown algorithm "no\\nplanner"; known: )/,
  ],
  [
    "buildTopology spec",
    (v) => buildTopology(v as string, 8),
    NOT_STRINGS,
    /^topology: the topology spec must be a string, got /,
  ],
];

describe("options from a library caller", () => {
  for (const [name, f, values, message] of CASES)
    it(`${name}: refused in one line`, () => {
      for (const v of values) {
        const text = errorOf(() => f(v)).message;
        expect(text, `${name} = ${String(v)}`).toMatch(message);
        expect(text).not.toContain("\n");
      }
    });

  it("sound values are taken", () => {
    expect(goalText(prog, { calcPerByte: 0.5 })).toContain("calc ");
    expect(mscclXml(prog, { name: "my algo", proto: "LL128" })).toMatch(/<algo name="my_algo" proto="LL128"/);
    expect(timelineToSvg(sim.timeline, sim.makespan, { width: 800, rowHeight: 10, title: "t" })).toMatch(/width="800"/);
    expect(linkLoadSvg(links, { top: 1, width: 300, title: "x" })).toContain("<svg");
  });
});
