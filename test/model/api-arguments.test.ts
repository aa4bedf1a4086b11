/**
 * What a plain-JavaScript caller of the root entry can get wrong: a misspelt option key, a value of the wrong type, a
 * matrix or schedule that is not one. Each is a one-line CommplanError naming what is wrong, never a result computed
 * with a default in place of the misspelt option, nor a TypeError from inside.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  compareMatrix,
  EXPORT_FORMATS,
  findMachine,
  generatePattern,
  getOrPlan,
  lowerSchedule,
  matrixFromEntries,
  matrixFromRows,
  matrixStats,
  openPlanStore,
  plan,
  planAuto,
  readMatrixFile,
  readProgramJson,
  readScheduleFile,
  runProtocol,
  ScheduleBuilder,
  scheduleCost,
  simulateSchedule,
  verifyProgram,
  verifySchedule,
  writeMatrixFile,
  writeProgramJson,
  writeScheduleJson,
  type ExportFormat,
} from "../../src/index.js";
import type { ExportTarget } from "../../src/entries/export.js";
import { scheduleToJsonText } from "../../src/entries/io.js";
import { compareText, runSweep, scaleMatrix } from "../../src/entries/compare.js";
import { matrixToRows, toDense, toSparse, withElementBytes } from "../../src/entries/model.js";
import { bestBound, lowerBounds, replayProgram, scheduleClass, simRequestProblem } from "../../src/entries/sim.js";
import {
  anyMatrixArb,
  anyPatternArb,
  dRegularArb,
  fc,
  hRelationArb,
  matrixArb,
  patternArb,
  plannerProperty,
  runtimeProperty,
  verifyOrThrow,
} from "../../src/testing/index.js";
import { errorOf, loose, refused } from "../helpers/errors.js";
import { writeProgramSplit } from "../../src/io/program-json-write.js";
import { tempDir } from "../helpers/temp-dir.js";

const m = matrixFromRows([
  [0, 1, 2],
  [3, 0, 1],
  [1, 1, 0],
]);
const machine = findMachine("t3d-004");
const s = plan(m, "shift", { payload: true });

describe("an unknown option key is refused, with a suggestion, not dropped", () => {
  const cases: [string, () => unknown, string][] = [
    [
      "plan",
      () => loose(plan)(m, "shift", { paylod: true }),
      "planner: unknown option 'paylod' (did you mean payload?)",
    ],
    [
      "verifySchedule",
      () => loose(verifySchedule)(m, s, { prots: 2 }),
      "verify: unknown option 'prots' (did you mean ports?)",
    ],
    [
      "simulateSchedule",
      () => loose(simulateSchedule)(s, machine, { mdoe: "nonblocking" }),
      "simulate: unknown option 'mdoe' (did you mean mode?)",
    ],
    [
      "simulateSchedule, nested form",
      () => loose(simulateSchedule)(s, machine, { kind: "replay", mode: "blocking", seeed: 2 }),
      "simulate: unknown option 'seeed' (did you mean seed?)",
    ],
    [
      "runProtocol",
      () => loose(runProtocol)(m, machine, { protocol: "async", timeLine: false }),
      "simulate: unknown option 'timeLine' (did you mean timeline?)",
    ],
    [
      "lowerSchedule",
      () => loose(lowerSchedule)(m, s, { varient: "blocking" }),
      "lower: unknown option 'varient' (did you mean variant?)",
    ],
    [
      "matrixFromRows",
      () => loose(matrixFromRows)([[0]], { elementbytes: 4 }),
      "matrix: unknown option 'elementbytes' (did you mean elementBytes?)",
    ],
    [
      "matrixFromEntries",
      () => loose(matrixFromEntries)(2, [], { elementbytes: 4 }),
      "matrix: unknown option 'elementbytes' (did you mean elementBytes?)",
    ],
    [
      "planAuto",
      () => loose(planAuto)(m, machine, { finalist: 2 }),
      "auto: unknown option 'finalist' (did you mean finalists?)",
    ],
    [
      "compareMatrix",
      () => loose(compareMatrix)(m, { machine, plannres: [] }),
      "compare: unknown option 'plannres' (did you mean planners?)",
    ],
  ];
  for (const [name, f, text] of cases)
    it(name, () => {
      const field = /unknown option '(\w+)'/.exec(text)![1]!;
      const message = refused(f, "BAD_OPTION", field);
      expect(message.startsWith(`${text}; known: `)).toBe(true);
    });

  it("getOrPlan, whose request is a plan request with an algorithm", () => {
    const store = openPlanStore(tempDir("api-arguments"), true);
    expect(refused(() => loose(getOrPlan)(store, m, { algorithm: "shift", sed: 2 }), "BAD_OPTION", "sed")).toMatch(
      /^store: unknown option 'sed' \(did you mean seed\?\); known: algorithm, payload, seed, .*, origin$/,
    );
  });

  it("the known keys still pass, and the misspelt plan option would have changed the answer", () => {
    expect(
      plan(m, "shift", { payload: true, seed: 1, machine: null, params: {}, progress: null }).chunks,
    ).not.toBeNull();
    expect(plan(m, "shift", {}).chunks).toBeNull();
    const sim = simulateSchedule(s, machine, { mode: "nonblocking", timeline: false });
    expect(sim.makespan).toBeGreaterThan(0);
  });
});

describe("the other kind's field in a simulator request gets its own rule, not 'unknown option'", () => {
  const cases: [string, () => unknown, string, string][] = [
    [
      "a protocol field in a replay",
      () => loose(simulateSchedule)(s, machine, { inquiry: 3 }),
      "inquiry",
      "simulate: inquiry is an option of a protocol run",
    ],
    [
      "a replay field in a protocol run",
      () => loose(runProtocol)(m, machine, { protocol: "async", lockstep: true }),
      "lockstep",
      "simulate: lockstep does not apply to a protocol run (the protocols run blocking, one port per node, " +
        "without stage barriers or a schedule)",
    ],
    [
      "stageBarriers in a protocol run",
      () => loose(runProtocol)(m, machine, { protocol: "drs-n", stageBarriers: false }),
      "stageBarriers",
      "simulate: stageBarriers does not apply to a protocol run (the protocols have no stages)",
    ],
  ];
  for (const [name, f, field, text] of cases) it(name, () => expect(refused(f, "BAD_OPTION", field)).toBe(text));

  it("a key of neither kind is still unknown, 'protocol' in a replay too (it would be dropped)", () => {
    expect(refused(() => loose(simulateSchedule)(s, machine, { protocol: "async" }), "BAD_OPTION", "protocol")).toMatch(
      /^simulate: unknown option 'protocol'/,
    );
  });
});

describe("plan(m, 'auto'), as the command line spells auto, names the function that makes auto's choice", () => {
  it("is refused with planAuto named, no 'did you mean' another planner", () => {
    const message = refused(() => plan(m, "auto"), "BAD_OPTION", "algorithm");
    expect(message).toMatch(
      /^planner: unknown algorithm 'auto': auto is no planner .*planAuto\(matrix, machine, options\)/,
    );
    expect(message).not.toContain("did you mean");
    // a misspelt planner still gets its suggestion
    expect(refused(() => plan(m, "shitf"), "BAD_OPTION", "algorithm")).toContain("(did you mean shift?)");
  });
});

describe("a matrix that is not a CommMatrix is refused in one line", () => {
  const notMatrices: [string, unknown, RegExp][] = [
    ["null", null, /the matrix is not a CommMatrix, got null \(make one with matrixFromRows or matrixFromEntries\)$/],
    [
      "rows",
      [
        [0, 1],
        [1, 0],
      ],
      /the matrix is not a CommMatrix, got an array/,
    ],
    ["a plain object", { p: 2, elementBytes: 8, data: [0, 1, 1, 0] }, /data is not a Float64Array, got an array/],
    ["no elementBytes", { p: 2, data: new Float64Array(4) }, /elementBytes is not a positive integer, got undefined$/],
    ["a string p", { p: "2", elementBytes: 8, data: new Float64Array(4) }, /p is not an integer in 1\.\.\d+, got "2"$/],
    ["short data", { p: 3, elementBytes: 8, data: new Float64Array(4) }, /data has 4 entries, not p \* p = 9$/],
  ];
  for (const [name, bad, text] of notMatrices)
    it(name, () => {
      for (const f of [
        () => loose(plan)(bad, "shift"),
        () => loose(verifySchedule)(bad, s),
        () => loose(lowerSchedule)(bad, s),
        () => loose(matrixStats)(bad),
        () => loose(planAuto)(bad, machine),
        () => loose(compareMatrix)(bad, { machine }),
        () => loose(runProtocol)(bad, machine, { protocol: "async" }),
      ])
        expect(refused(f, "BAD_INPUT", "matrix")).toMatch(text);
    });
});

describe("a schedule or program that is not one is refused in one line", () => {
  it("null, a number, an array", () => {
    for (const bad of [null, 3, []]) {
      expect(refused(() => loose(verifySchedule)(m, bad), "BAD_INPUT", "schedule")).toMatch(
        /^verify: the schedule is not a Schedule object, got (null|number|an array)$/,
      );
      expect(refused(() => loose(simulateSchedule)(bad, machine), "BAD_INPUT", "schedule")).toMatch(
        /^simulate: the schedule is not well formed: the schedule is not a Schedule object/,
      );
      refused(() => loose(lowerSchedule)(m, bad), "BAD_INPUT", "schedule");
      refused(() => loose(scheduleCost)(bad, machine, "blocking"), "BAD_INPUT", "schedule");
    }
    expect(refused(() => loose(verifyProgram)(m, null), "BAD_INPUT", "p")).toBe(
      "verify: the program is not an object, got null",
    );
  });

  it("the parsed JSON of a schedule document: a reader makes the Schedule", () => {
    const doc: unknown = JSON.parse(scheduleToJsonText(s));
    const hint = /the schedule is a plain commplan\.schedule\/v1 object, not a Schedule: read the document with/;
    expect(refused(() => loose(verifySchedule)(m, doc), "BAD_INPUT", "schedule")).toMatch(hint);
    expect(refused(() => loose(simulateSchedule)(doc, machine), "BAD_INPUT", "schedule")).toMatch(hint);
    expect(refused(() => loose(lowerSchedule)(m, doc), "BAD_INPUT", "schedule")).toMatch(hint);
  });

  it("a schedule object without a digest", () => {
    expect(
      refused(() => loose(verifySchedule)(m, { ...s, matrixDigest: undefined }), "BAD_INPUT", "matrixDigest"),
    ).toBe("verify: the schedule has no matrixDigest string (got undefined)");
  });
});

describe("values of the wrong type are named as given", () => {
  it("a string where a number goes is quoted, so '8' is not read as 8", () => {
    expect(errorOf(() => loose(generatePattern)("pattern1", "8", {}, 1)).message).toMatch(/, got "8"$/);
    expect(errorOf(() => loose(matrixFromEntries)("2", [])).message).toBe(
      'matrix: p must be a positive integer, got "2"',
    );
    expect(
      errorOf(() =>
        matrixFromRows([
          [0, "1" as unknown as number],
          [1, 0],
        ]),
      ).message,
    ).toBe('matrix: entry M[0][1] = "1" is not a finite number');
  });

  it("rows or entries that are not arrays", () => {
    for (const bad of ["abc", null, undefined, { 0: [0] }])
      expect(refused(() => loose(matrixFromRows)(bad), "BAD_INPUT", "rows")).toMatch(
        /^matrix: rows must be an array of rows, got /,
      );
    expect(refused(() => loose(matrixFromEntries)(2, null), "BAD_INPUT", "entries")).toBe(
      "matrix: entries must be an array of [i, j, m], got null",
    );
  });

  it("a machine's name where the model goes", () => {
    for (const f of [
      () => loose(scheduleCost)(s, "t3d-004", "blocking"),
      () => loose(simulateSchedule)(s, "t3d-004"),
      () => loose(planAuto)(m, "t3d-004"),
      () => loose(compareMatrix)(m, { machine: "t3d-004" }),
    ])
      expect(refused(f, "BAD_OPTION", "machine")).toMatch(
        /: the machine is a name, not a machine model object: give findMachine\("t3d-004"\)$/,
      );
  });

  it("a request that is not an object", () => {
    refused(() => loose(simulateSchedule)(s, machine, null), "BAD_OPTION", "request");
    refused(() => loose(runProtocol)(m, machine, "async"), "BAD_OPTION", "request");
    expect(refused(() => loose(runProtocol)(m, machine), "BAD_OPTION", "request")).toBe(
      'protocols: a request is needed: { protocol: "async" or "drs-n", ... }',
    );
    refused(() => loose(verifySchedule)(m, s, null), "BAD_OPTION", "options");
    refused(() => loose(lowerSchedule)(m, s, 1), "BAD_OPTION", "options");
  });
});

describe("the testing kit refuses an unknown option key, naming the function", () => {
  const cases: [string, () => unknown, string][] = [
    [
      "verifyOrThrow",
      () => loose(verifyOrThrow)(m, s, { maxStep: 1 }),
      "testing: unknown option 'maxStep' (did you mean maxSteps?)",
    ],
    [
      "plannerProperty",
      () => loose(plannerProperty)(() => s, { maxBufer: 2 }),
      "testing: unknown option 'maxBufer' (did you mean maxBuffer?)",
    ],
    [
      "the time bound",
      () => loose(verifyOrThrow)(m, s, { time: { machine: "t3d-004", factor: 2, mdoe: "blocking" } }),
      "testing: time: unknown option 'mdoe' (did you mean mode?)",
    ],
    [
      "matrixArb",
      () => loose(matrixArb)({ maxp: 4 }),
      "testing: matrixArb: unknown option 'maxp' (did you mean maxP?)",
    ],
    [
      "anyMatrixArb",
      () => loose(anyMatrixArb)({ maxEntries: 4 }),
      "testing: anyMatrixArb: unknown option 'maxEntries'",
    ],
    [
      "verifyOrThrow given plannerProperty's matrices (it would be ignored)",
      () => loose(verifyOrThrow)(m, s, { matrices: matrixArb({ maxP: 3 }) }),
      "testing: unknown option 'matrices'",
    ],
    ["patternArb", () => loose(patternArb)("uniform", { maxp: 4 }), "testing: patternArb: unknown option 'maxp'"],
    ["hRelationArb", () => loose(hRelationArb)({ H: 2 }), "testing: hRelationArb: unknown option 'H'"],
    ["dRegularArb", () => loose(dRegularArb)({ units: 2 }), "testing: dRegularArb: unknown option 'units'"],
    ["anyPatternArb", () => loose(anyPatternArb)({ minp: 2 }), "testing: anyPatternArb: unknown option 'minp'"],
    [
      "runtimeProperty",
      () => loose(runtimeProperty)(() => ({ start: [], end: [] }), { port: 2 }),
      "testing: runtimeProperty: unknown option 'port' (did you mean ports?)",
    ],
  ];
  for (const [name, f, text] of cases)
    it(name, () => {
      const field = /unknown option '(\w+)'/.exec(text)![1]!;
      expect(refused(f, "BAD_OPTION", field).startsWith(text)).toBe(true);
    });

  it("a misspelt bound would have let a schedule over it pass", () => {
    expect(verifyOrThrow(m, s).ok).toBe(true);
    expect(() => verifyOrThrow(m, s, { maxSteps: 1 })).toThrow(/check 'max-steps' fails/);
    // the property hands its options, matrices included, to each run's check
    const prop = plannerProperty((x) => plan(x, "shift", { payload: true }), { matrices: matrixArb({ maxP: 3 }) });
    expect(fc.check(prop, { seed: 1, numRuns: 5 }).failed).toBe(false);
  });
});

describe("the file readers and writers check their arguments before they touch a file", () => {
  it("a path that is not a string is BAD_OPTION, not Node's TypeError", async () => {
    expect(refused(() => loose(readMatrixFile)(42), "BAD_OPTION", "path")).toBe(
      'matrix: the file must be a path or "-", got 42',
    );
    expect(refused(() => loose(readProgramJson)(null), "BAD_OPTION", "path")).toMatch(/^program: the file must be/);
    await expect(loose(readScheduleFile)(undefined)).rejects.toThrow(/^schedule: the file must be a path or "-"/);
    await expect(loose(writeScheduleJson)(s, 5)).rejects.toMatchObject({
      code: "BAD_OPTION",
      message: 'schedule: the output must be a path or "-", got 5',
    });
  });

  it("an unknown option key is refused", async () => {
    const dir = tempDir("api-arguments");
    const file = join(dir, "m.json");
    await writeMatrixFile(m, file);
    expect(refused(() => loose(readMatrixFile)(file, { elementbytes: 4 }), "BAD_OPTION", "elementbytes")).toMatch(
      /^matrix: unknown option 'elementbytes' \(did you mean elementBytes\?\)/,
    );
    expect(readMatrixFile(file, { elementBytes: 4 }).elementBytes).toBe(4);
    await expect(loose(readScheduleFile)(file, { maxmemory: 1 })).rejects.toThrow(/unknown option 'maxmemory'/);
    await expect(loose(writeScheduleJson)(s, join(dir, "s.json"), { progres: null })).rejects.toThrow(
      /^schedule: unknown option 'progres' \(did you mean progress\?\)/,
    );
    await expect(loose(writeMatrixFile)(m, join(dir, "m2.json"), "json", { spares: true })).rejects.toThrow(
      /^matrix: unknown option 'spares' \(did you mean sparse\?\)/,
    );
    expect(readdirSync(dir)).toEqual(["m.json"]);
  });

  it("what is written must be a schedule, matrix or program: BAD_INPUT, not an IO error quoting a TypeError", async () => {
    const dir = tempDir("api-arguments");
    await expect(loose(writeScheduleJson)(null, join(dir, "s.json"))).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: "schedule: the schedule is not a Schedule object, got null",
    });
    await expect(loose(writeMatrixFile)(null, join(dir, "m.json"))).rejects.toMatchObject({ code: "BAD_INPUT" });
    await expect(loose(writeProgramJson)(null, join(dir, "p.json"))).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: "program: the program is not a Program object, got null",
    });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("an unknown option key is quoted in one bounded line", () => {
  it("a key with a newline is JSON-escaped, not a second line", () => {
    const text = refused(() => loose(plan)(m, "shift", { "pay\nload": true }), "BAD_OPTION", "pay\nload");
    expect(text.startsWith('planner: unknown option "pay\\nload" (did you mean payload?); known: ')).toBe(true);
  });

  it("a 100-character key is cut at 40", () => {
    const key = "k".repeat(100);
    const text = refused(() => loose(plan)(m, "shift", { [key]: true }), "BAD_OPTION", key);
    expect(text.startsWith(`planner: unknown option "${"k".repeat(40)}..."; known: `)).toBe(true);
    expect(text).not.toContain("k".repeat(41));
  });

  it("writeProgramSplit refuses an unknown key as writeProgramJson does, before writing anything", async () => {
    const dir = tempDir("api-arguments");
    const prog = lowerSchedule(m, s);
    await expect(loose(writeProgramSplit)(prog, join(dir, "split"), { progres: null })).rejects.toThrow(
      /^program: unknown option 'progres' \(did you mean progress\?\); known: /,
    );
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("ScheduleBuilder checks the header it is given", () => {
  const header = { p: 3, algorithm: "mine", params: {}, seed: null, elementBytes: 8, matrixDigest: "" };
  it("a string p is refused where it is made, not read later as a plan for another matrix", () => {
    expect(
      refused(() => new ScheduleBuilder({ ...header, p: "3" as unknown as number }, false), "BAD_INPUT", "header"),
    ).toBe('schedule: ScheduleBuilder: p must be an integer in 1..1048576, got "3"');
    for (const bad of [
      null,
      { ...header, elementBytes: 0 },
      { ...header, matrixDigest: undefined },
      { ...header, seed: 1.5 },
    ])
      refused(() => loose((h: never) => new ScheduleBuilder(h, false))(bad), "BAD_INPUT", "header");
  });

  it("a node out of 0..P-1 is refused by transfer and stall where it is given, naming it and P", () => {
    const b = new ScheduleBuilder(header, false).stage("direct");
    expect(refused(() => b.transfer(0, 3, 1), "BAD_INPUT", "dst")).toBe(
      "schedule: ScheduleBuilder.transfer: dst 3 is not a node of P = 3 (an integer in 0..2)",
    );
    for (const bad of [-1, 1.5, NaN, "1"]) refused(() => loose(b.transfer.bind(b))(bad, 1, 1), "BAD_INPUT", "src");
    expect(refused(() => b.stall(7), "BAD_INPUT", "node")).toBe(
      "schedule: ScheduleBuilder.stall: node 7 is not a node of P = 3 (an integer in 0..2)",
    );
    expect(b.transfer(2, 0, 1)).toBe(0);
    expect(Array.from(b.build().src)).toEqual([2]);
  });

  it("a sound header builds a plan the verifier checks", () => {
    const b = new ScheduleBuilder({ ...header, matrixDigest: s.matrixDigest }, false).stage("direct");
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) if (i !== j) b.step().transfer(i, j, m.data[i * 3 + j]!);
    expect(verifySchedule(m, b.build()).ok).toBe(true);
  });
});

describe("an export format checks the target a plain-JavaScript caller gives it", () => {
  const prog = lowerSchedule(m, s).program;
  const format = (name: string): ExportFormat => EXPORT_FORMATS.find((f) => f.name === name)!;
  const write = (name: string, target: unknown): Promise<void> => {
    const f = format(name);
    const t = target as Parameters<typeof f.write>[1];
    return f.input === "program" ? f.write(prog, t, null) : f.write(s, t);
  };

  it("fields left out are their defaults (none), not a directory given", async () => {
    const dir = tempDir("api-arguments");
    for (const name of ["program", "goal", "msccl-xml", "arrow"]) await write(name, { output: join(dir, name) });
    await write("simgrid", { output: "-", dir: join(dir, "sg"), machine });
    expect(readdirSync(dir).sort()).toEqual(["arrow", "goal", "msccl-xml", "program", "sg"]);
    await expect(write("simgrid", { output: "-", dir: join(dir, "sg2") })).rejects.toThrow(
      /^export: format simgrid needs a machine/,
    );
  });

  it("a TypeScript caller writes only the fields it means: the others are optional in ExportTarget's type", async () => {
    // typed, not cast: `npm test`'s typecheck (tsc --noEmit over test/) refuses these if a defaulted field is required
    const dir = tempDir("api-arguments");
    const only: ExportTarget = { output: join(dir, "goal") };
    const simgrid: ExportTarget = { output: "-", dir: join(dir, "sg"), machine };
    const chunked: ExportTarget = { output: join(dir, "x.xml"), chunk: 1 };
    const typed = (name: string, t: ExportTarget): Promise<void> => {
      const f = format(name);
      return f.input === "program" ? f.write(prog, t, null) : f.write(s, t);
    };
    await typed("goal", only);
    await typed("simgrid", simgrid);
    await typed("msccl-xml", chunked);
    expect(readdirSync(dir).sort()).toEqual(["goal", "sg", "x.xml"]);
  });

  it("a field of the wrong kind or an unknown key is BAD_OPTION naming it", async () => {
    const dir = tempDir("api-arguments");
    const cases: [string, unknown, string][] = [
      [
        "simgrid",
        { output: "-", dir, machine: "t3d-004" },
        'export: the machine is a name, not a machine model object: give findMachine("t3d-004")',
      ],
      [
        "goal",
        { output: join(dir, "g"), mahcine: machine },
        "export: unknown option 'mahcine' (did you mean machine?)",
      ],
      ["msccl-xml", { output: join(dir, "x"), chunk: 0 }, "export: chunk must be a positive integer or null, got 0"],
      ["program", { output: 7 }, 'export: output must be a path or "-", got 7'],
      ["program", undefined, "export: the target must be an object: { output, ... }"],
    ];
    for (const [name, target, text] of cases)
      await expect(write(name, target)).rejects.toMatchObject({
        code: "BAD_OPTION",
        message: expect.stringContaining(text),
      });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("commplan/sim, commplan/compare and commplan/model refuse what would be a wrong answer", () => {
  it("replayProgram: a misspelt runtime key would have replayed under the default runtime", () => {
    const prog = lowerSchedule(m, s).program;
    expect(refused(() => loose(replayProgram)(prog, { machine, runtim: "smpi" }), "BAD_OPTION", "runtim")).toMatch(
      /^machines: program replay: unknown option 'runtim' \(did you mean runtime\?\)/,
    );
    expect(refused(() => loose(replayProgram)(null, { machine }), "BAD_INPUT", "program")).toBe(
      "machines: program replay: the program is not a Program object, got null",
    );
    expect(replayProgram(prog, { machine, runtime: "smpi" }).makespanUs).toBeGreaterThan(0);
  });

  it("lowerBounds: options and matrix checked", () => {
    expect(refused(() => loose(lowerBounds)(m, "cost-blocking"), "BAD_OPTION", "options")).toBe(
      "bounds: lowerBounds needs options: { machine, ... }",
    );
    refused(() => loose(lowerBounds)(m, "cost-blocking", { machine, prots: 2 }), "BAD_OPTION", "prots");
    refused(() => loose(lowerBounds)(null, "cost-blocking", { machine }), "BAD_INPUT", "matrix");
    expect(lowerBounds(m, "cost-blocking", { machine }).length).toBeGreaterThan(0);
  });

  it("scaleMatrix and runSweep: a factor that is not a finite number > 0 made NaN entries", () => {
    for (const f of [NaN, 0, -2, Infinity, "2"])
      expect(refused(() => loose(scaleMatrix)(m, f), "BAD_OPTION", "sweep")).toMatch(
        /^compare: sweep: a factor must be a finite number > 0, got /,
      );
    refused(() => loose(runSweep)(m, [1, 0], { machine }), "BAD_OPTION", "sweep");
    refused(() => loose(runSweep)(m, [], { machine }), "BAD_OPTION", "sweep");
    expect(Array.from(scaleMatrix(m, 2).data)).toEqual([0, 2, 4, 6, 0, 2, 2, 2, 0]);
  });

  it("withElementBytes: elementBytes checked as the makers check it", () => {
    expect(refused(() => withElementBytes(m, 0), "BAD_INPUT", "elementBytes")).toBe(
      "matrix: elementBytes must be a positive integer, got 0",
    );
    expect(withElementBytes(m, 4).elementBytes).toBe(4);
  });
});

describe("the small helpers of commplan/model and commplan/sim refuse a null in one line", () => {
  it("matrixToRows, toDense, toSparse, scheduleClass, bestBound", () => {
    for (const f of [matrixToRows, toDense, toSparse])
      expect(refused(() => loose(f)(null), "BAD_INPUT", "matrix")).toMatch(/^matrix: the matrix is not a CommMatrix/);
    refused(() => loose(scheduleClass)(null, s), "BAD_INPUT", "matrix");
    expect(refused(() => loose(scheduleClass)(m, null), "BAD_INPUT", "schedule")).toBe(
      "bounds: the schedule is not a Schedule object, got null",
    );
    refused(() => loose(bestBound)(null, { direct: true, contentionFree: true }), "BAD_INPUT", "bounds");
    refused(() => loose(bestBound)([], null), "BAD_INPUT", "schedule");
    const bounds = lowerBounds(m, "cost-blocking", { machine });
    expect(bestBound(bounds, scheduleClass(m, s))).not.toBeNull();
    expect(matrixToRows(toDense(toSparse(m)))).toEqual([
      [0, 1, 2],
      [3, 0, 1],
      [1, 1, 0],
    ]);
  });
});

describe("simRequestProblem and compareText refuse what is not their argument in one line, not with a TypeError", () => {
  it("simRequestProblem: a request that is not an object", () => {
    expect(refused(() => loose(simRequestProblem)(null), "BAD_OPTION", "request")).toBe(
      "simulate: simRequestProblem: the request must be an object, got null",
    );
    refused(() => loose(simRequestProblem)(undefined), "BAD_OPTION", "request");
    refused(() => loose(simRequestProblem)("async"), "BAD_OPTION", "request");
    expect(simRequestProblem({ kind: "replay", mode: "blocking" })).toBeNull();
  });

  it("compareText: a report that is not compareMatrix's", () => {
    expect(refused(() => loose(compareText)(null), "BAD_INPUT", "report")).toBe(
      "compare: compareText: the report is not a CompareReport (compareMatrix's), got null",
    );
    expect(refused(() => loose(compareText)({}), "BAD_INPUT", "report")).toMatch(/without its format and rows$/);
    expect(compareText(compareMatrix(m, { machine }).report)).toMatch(/^compare on /);
  });
});
