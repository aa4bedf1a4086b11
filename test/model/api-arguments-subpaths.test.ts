/**
 * Every function of every subpath entry (commplan/model, io, planner, patterns, sim, export, compare, store, testing)
 * answers a plain-JavaScript caller's bad arguments (nothing, null, undefined, a number, a string, an empty object, a
 * value of the wrong kind later on) with a one-line CommplanError, never a TypeError from inside, a hang or a wrong
 * answer. The table is checked against the entries' exports: a new export without a row fails the first test.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as compare from "../../src/entries/compare.js";
import * as exporting from "../../src/entries/export.js";
import * as io from "../../src/entries/io.js";
import * as model from "../../src/entries/model.js";
import * as patterns from "../../src/entries/patterns.js";
import * as planner from "../../src/entries/planner.js";
import * as sim from "../../src/entries/sim.js";
import * as store from "../../src/entries/store.js";
import * as testing from "../../src/testing/index.js";
import { isCommplanError } from "../../src/model/errors.js";
import { tempDir } from "../helpers/temp-dir.js";

const ENTRIES: readonly (readonly [string, object])[] = [
  ["commplan/model", model],
  ["commplan/io", io],
  ["commplan/planner", planner],
  ["commplan/patterns", patterns],
  ["commplan/sim", sim],
  ["commplan/export", exporting],
  ["commplan/compare", compare],
  ["commplan/store", store],
  ["commplan/testing", testing],
];

const m = model.matrixFromRows([
  [0, 1, 2],
  [3, 0, 1],
  [1, 1, 0],
]);
const machine = sim.findMachine("t3d-004");
const s = planner.plan(m, "shift", { payload: true });
const prog = exporting.lowerSchedule(m, s).program;

/** The usual wrong first arguments: nothing, null, undefined, a number, a string. */
const NULLISH: readonly unknown[][] = [[], [null], [undefined], [42], ["x"]];
/** NULLISH and an empty object (for an argument that must be a matrix, schedule, program or other object). */
const OBJ: readonly unknown[][] = [...NULLISH, [{}]];
/** Calls of a function whose first argument must be a string. */
const STR: readonly unknown[][] = [[], [null], [undefined], [42], [{}]];
/**
 * The bad calls of every function, by name (a name exported by two entries is the same function). A function whose
 * messages are shared with the command line name its module and argument, not itself: those are in SHARED_WORDING.
 */
const CASES: { readonly [name: string]: readonly unknown[][] } = {
  // commplan/model
  classify: [...OBJ, [new Uint32Array(3), null], [new Uint32Array(3), new Uint32Array(2)]],
  createRng: [[], [null], [NaN], ["x"], [{}]],
  entry: [...OBJ, [m, 3, 0], [m, 0, null], [m, "1", 0]],
  isSparse: OBJ,
  matrixCols: OBJ,
  matrixDigest: OBJ,
  matrixFromCoordinates: [...NULLISH, [2, null, null, null], [2, new Uint32Array(1), new Uint32Array(1), [1]]],
  matrixFromData: [...NULLISH, [2, [0, 1, 1, 0]], [2, new Float64Array(4), null]],
  matrixFromEntries: [...NULLISH, [2, null], [2, [], null]],
  matrixFromRows: [...NULLISH, [[[0]], null]],
  matrixRows: OBJ,
  matrixStats: OBJ,
  matrixToRows: OBJ,
  nonzeroCount: OBJ,
  recvDisplOf: [...OBJ, [prog.layout, 3, 0, null], [prog.layout, 3, 5, 0], [prog.layout, null, 0, 0]],
  sendDisplOf: [...OBJ, [prog.layout, 3, 0, null], [prog.layout, 3, 0, 3]],
  slotCount: [...OBJ, [null, null], [{}, 3]],
  slotOf: [...OBJ, [null, 3, 0, 3], [null, 3, null, 0]],
  slotPeer: [...OBJ, [null, 3, 9], [null, 3, "1"]],
  slotStart: [...OBJ, [null, 3, 4], [null, 3, null]],
  sparseFromCoordinates: [...NULLISH, [2, 2, null, null], [2, 2, new Int32Array([5]), new Int32Array([0])]],
  sparseMatrix: OBJ,
  stageOfStep: OBJ,
  stepOfTransfer: OBJ,
  toDense: OBJ,
  toSparse: OBJ,
  withElementBytes: [...OBJ, [m, null], [m, "8"]],
  zeroMatrix: [[], [null], ["x"], [{}], [0], [2, "8"]],
  // commplan/io
  decodeScheduleArrow: [...OBJ, [new Uint8Array(8), null]],
  decodeScheduleArrowWithHeader: [...OBJ, [new Uint8Array(8), null]],
  encodeScheduleArrow: [...OBJ, [s, null], [s, {}, null]],
  loadSchema: [...STR, ["x"]],
  matrixFormatOfName: STR,
  matrixPieces: [...OBJ, [m, "xml"]],
  matrixToCsvText: OBJ,
  matrixToJsonText: [...OBJ, [m, null]],
  matrixToMtxText: OBJ,
  parseMatrixText: STR,
  parseScheduleJsonText: STR,
  parseSparseMatrixMarket: [...STR, ["x"], ["%%MatrixMarket matrix coordinate pattern general\n1 1 0\n", 42]],
  parseTopologyJsonText: [...STR, ["x"], ["{}", 42]],
  programJsonPieces: [...OBJ, [s], [prog, [7]], [prog, undefined, "x"], [prog, undefined, 4096, null]],
  programToJsonText: [...OBJ, [m], [prog, [3]]],
  readMatrixFile: STR,
  readProgramJson: STR,
  readScheduleArrowHeader: OBJ,
  readScheduleFile: STR,
  readScheduleJson: [...STR, [""]],
  readSparseMatrixFile: STR,
  readTopologyJson: STR,
  scheduleArrowHeader: [...OBJ, [m], [s, null]],
  scheduleJsonPieces: [...OBJ, [m], [s, "x"], [s, 0]],
  scheduleToJsonText: OBJ,
  sniffMatrixFormat: STR,
  writeMatrixFile: [...OBJ, [m, null], [m, 42]],
  writeProgramJson: [...OBJ, [prog, null], [prog, 42]],
  writeProgramSplit: [...OBJ, [prog, null], [{}, "split"]],
  writeScheduleJson: [...OBJ, [s, null], [s, 42]],
  // commplan/planner
  findPlanner: STR,
  plan: [...OBJ, [m, null], [m, "shift", null]],
  resolvePlanOptions: [...OBJ, [planner.findPlanner("shift"), null], [planner.findPlanner("shift"), 42]],
  // commplan/patterns
  checkPatternInput: [...OBJ, [patterns.findPattern("uniform"), null], [patterns.findPattern("spmv"), { sparse: {} }]],
  dimsCreate: [...NULLISH, ["halo", null, [0, 0]], ["halo", 12, null], ["halo", 12, [0, "x"]]],
  findPattern: STR,
  generatePattern: [...STR, ["uniform", null], ["uniform", 4, null]],
  generatePatternWithNotes: [...STR, ["uniform", null], ["uniform", 4, null]],
  haloNeighbours: [...NULLISH, [42, 4], [2, null], [2, 42]],
  moeCapacity: [...NULLISH, [4, null], [4, { tokens: 8 }]],
  resolvePatternOptions: [...OBJ, [patterns.findPattern("uniform"), null]],
  spmvFromStructure: [...NULLISH, [4, null], [4, {}], [4, { rows: 1, cols: 1 }]],
  blockOwner: [...NULLISH, [10, 0, 1], [10, 3, 10], [10, 3, -1], [10, 2.5, 1], [10, 3, 1.5], [NaN, 3, 1], [0, 3, 0]],
  blockStart: [...NULLISH, [10, 0, 0], [10, 3, 4], [10, 3, -1], [10, 3, 0.5], [-1, 3, 0], [10, "3", 0]],
  // commplan/sim
  bestBound: [...NULLISH, [[], null]],
  buildTopology: [...NULLISH, [{}]],
  busiestLinkBound: [...OBJ, [m, null], [m, {}]],
  compileRoutes: [...OBJ, [{ graph: 1 }]],
  describeTopology: OBJ,
  findMachine: STR,
  findRuntimeModel: STR,
  flatClusterNetwork: [...NULLISH, [4, null], [4, {}]],
  flatOverhead: [[], [null], ["x"], [-1], [1, "x"]],
  graphFromDescription: [...OBJ, [{ hosts: [], switches: [], links: [] }, 42], [{ hosts: [] }]],
  libraryAlltoallvOps: STR,
  libraryAlltoallvPick: [...STR, ["default", null]],
  lowerBounds: [...OBJ, [m, "cost-blocking"], [m, "cost-blocking", null]],
  nodeLoads: [...OBJ, [m, null], [m, 1, 42]],
  overheadUs: [...OBJ, [[{}], 1], [[], null]],
  parseOverhead: [...STR, ["0", null]],
  parseTopologySpec: [...STR, ["x"]],
  protocolRequestOf: [[null], [42], ["x"]],
  relayRounds: [...NULLISH, [3, 0], [3, null]],
  replayLibraryAlltoallvAs: [...STR, ["x"]],
  replayOpsOf: [...OBJ, [m], [s]],
  replayProgram: [...OBJ, [prog], [prog, {}], [prog, null], [m, { machine }]],
  replayProgramOps: [...OBJ, [{}, {}], [sim.replayOpsOf(prog), null], [sim.replayOpsOf(prog), {}]],
  replayRequestOf: [[null], [42], ["x"]],
  resolveSimRequest: [[null], [42], ["x"], [{ kind: "replay" }, null]],
  runProtocol: [...OBJ, [m, machine, null], [m, null, { protocol: "async" }]],
  runtimeModelsFor: [...OBJ, ["t3d-004"]],
  scheduleClass: [...OBJ, [m, null]],
  scheduleCost: [...OBJ, [s, null, "blocking"], [s, machine, 42]],
  simRequestProblem: [[null], [42], ["x"]],
  simulateSchedule: [...OBJ, [s, null], [s, machine, null]],
  smpiConfigOf: [...OBJ, [sim.findRuntimeModel("smpi"), null], [{ name: "x", eagerBytes: 1 }, machine]],
  smpiOverheadText: [...OBJ, [[null]]],
  withRuntime: [...OBJ, [sim.findRuntimeModel("smpi"), null]],
  // commplan/export
  exportFormat: [...STR, ["goal", null]],
  goalPieces: [...OBJ, [m], [prog, null]],
  goalText: [...OBJ, [m], [prog, null]],
  linkLoadSvg: [...OBJ, [[null]], [[], null]],
  lowerSchedule: [...OBJ, [m, null], [m, s, null]],
  mscclXml: [...OBJ, [s], [prog, null]],
  simgridHostfile: [[], [null], [0], ["x"], [{}]],
  simgridPlatformXml: [...NULLISH, [{}], [4, null], [4, "t3d-004"]],
  simgridTopologyHostfile: [...OBJ, [{ hosts: [] }, null]],
  simgridTopologyPlatformPieces: [...OBJ, [{ hosts: [], links: [] }, null], [{ hosts: [], links: [] }, {}]],
  simgridTraceFiles: [...OBJ, [m], [prog, null]],
  stepGrid: [...OBJ, [s, null], [s, 9]],
  stepGridSvg: OBJ,
  stepGridText: [...OBJ, [{ senders: [], rows: [] }, "x"]],
  timelineToChromeTrace: [...OBJ, [{ p: 2 }]],
  timelineToSvg: [...OBJ, [{ p: 2 }, 1]],
  verifyProgram: [...OBJ, [m, null], [m, prog, null]],
  // commplan/compare
  autoHeader: OBJ,
  autoVariantLabels: [],
  compareChartSvg: OBJ,
  compareHtml: OBJ,
  compareMatrix: [...OBJ, [m, null], [m, { machine: null }]],
  compareText: OBJ,
  parseSweep: [...STR, ["x"]],
  planAuto: [...OBJ, [m, null], [m, machine, null]],
  runCandidates: [...OBJ, [m, null]],
  runSweep: [...OBJ, [m, null], [m, [1, 2], null]],
  scaleMatrix: [...OBJ, [m, null]],
  sweepChartSvg: [...OBJ, [{ points: [], algorithms: [] }, null]],
  // commplan/store
  addPlan: [...OBJ, [{ dir: "" }, {}, s]],
  gcStore: [...OBJ, [{ dir: 42 }]],
  getOrPlan: [...OBJ, [{}, m, { algorithm: "shift" }]],
  getPlan: [...OBJ, [{ dir: 42 }, {}]],
  getPlanById: [...OBJ, [{ dir: 42 }, "id"]],
  listPlans: [...OBJ, [{ dir: 42 }]],
  openPlanStore: [[], [null], [42], [{}], [""]],
  verifyStore: [...OBJ, [{ dir: 42 }]],
  // commplan/testing
  anyMatrixArb: [[null], [42], ["x"], [{ maxp: 1 }]],
  anyPatternArb: [[null], [42], ["x"], [{ minp: 1 }]],
  asyncPlannerProperty: [...OBJ, [() => s, null]],
  checkScheduleFor: [...OBJ, [m, s, null]],
  checkTimedCausality: OBJ,
  dRegularArb: [[null], [42], ["x"], [{ units: 1 }]],
  failureLine: OBJ,
  hRelationArb: [[null], [42], ["x"], [{ H: 1 }]],
  matrixArb: [[null], [42], ["x"], [{ maxp: 1 }]],
  patternArb: [...STR, ["uniform", null]],
  planFailure: [...OBJ, [() => s, null], [() => s, m, null]],
  plannerOutputFailure: [...OBJ, [m, s, null]],
  plannerProperty: [...OBJ, [() => s, null]],
  realisedFailure: [...OBJ, [m, null]],
  replayFailure: [...OBJ, [() => s, null], [() => s, m, null]],
  runtimeFailure: [...OBJ, [() => null, m, null]],
  runtimeProperty: [...OBJ, [() => null, null]],
  scheduleFromOutput: [...OBJ, [s, null]],
  trafficLowerBound: [...OBJ, [s, machine], [m, null]],
  verifyOrThrow: [...OBJ, [m, s, null]],
};

/** Exports that take no argument a caller can get wrong, each with its reason. */
const UNCHECKED: { readonly [name: string]: string } = {
  CommplanError: "the error class itself: any message and place make one",
  ScheduleBuilder: "a class whose header and calls test/model/api-arguments.test.ts checks",
  ScheduleCheckError: "the testing kit's failure class (a failed check, not an argument problem)",
  isCommplanError: "a predicate: any value is its input",
  isColumnarSchedule: "a predicate: any value is its input",
};

/**
 * Functions with at least one refusal that names its module and the argument but not the function ("matrix: rows must
 * be an array of rows, got null", "export: options must be an object or undefined, got null"): wording shared with the
 * command line and pinned by earlier tests, or an options check shared by many functions. Their refusals must still be
 * one-line CommplanErrors that start with the module; naming the function in them is left to do.
 */
const SHARED_WORDING: readonly string[] = [
  "anyMatrixArb",
  "anyPatternArb",
  "asyncPlannerProperty",
  "buildTopology",
  "busiestLinkBound",
  "checkScheduleFor",
  "compareMatrix",
  "dRegularArb",
  "decodeScheduleArrow",
  "decodeScheduleArrowWithHeader",
  "encodeScheduleArrow",
  "findMachine",
  "findPlanner",
  "findRuntimeModel",
  "generatePattern",
  "generatePatternWithNotes",
  "getOrPlan",
  "goalPieces",
  "goalText",
  "hRelationArb",
  "libraryAlltoallvOps",
  "libraryAlltoallvPick",
  "linkLoadSvg",
  "lowerBounds",
  "lowerSchedule",
  "matrixArb",
  "matrixFromCoordinates",
  "matrixFromData",
  "matrixFromEntries",
  "matrixFromRows",
  "matrixPieces",
  "matrixStats",
  "matrixToCsvText",
  "matrixToJsonText",
  "matrixToMtxText",
  "matrixToRows",
  "mscclXml",
  "openPlanStore",
  "parseMatrixText",
  "parseScheduleJsonText",
  "parseSparseMatrixMarket",
  "parseSweep",
  "parseTopologyJsonText",
  "parseTopologySpec",
  "patternArb",
  "planAuto",
  "planFailure",
  "plannerOutputFailure",
  "plannerProperty",
  "programJsonPieces",
  "readMatrixFile",
  "readProgramJson",
  "readScheduleArrowHeader",
  "readScheduleFile",
  "replayFailure",
  "replayLibraryAlltoallvAs",
  "replayProgram",
  "resolvePlanOptions",
  "resolveSimRequest",
  "runCandidates",
  "runProtocol",
  "runSweep",
  "runtimeFailure",
  "runtimeProperty",
  "scaleMatrix",
  "scheduleArrowHeader",
  "scheduleClass",
  "scheduleCost",
  "simgridHostfile",
  "simgridPlatformXml",
  "simgridTraceFiles",
  "simulateSchedule",
  "stepGrid",
  "toDense",
  "toSparse",
  "verifyOrThrow",
  "verifyProgram",
  "withElementBytes",
  "writeMatrixFile",
  "writeProgramJson",
  "writeScheduleJson",
  "zeroMatrix",
];

/** Every function exported by a subpath entry, by name. */
function exportedFunctions(): string[] {
  const names = new Set<string>();
  for (const [, mod] of ENTRIES)
    for (const [name, v] of Object.entries(mod)) if (typeof v === "function") names.add(name);
  return [...names].sort();
}

/** Calls f with args as plain JavaScript would, running a generator and awaiting a promise; what it threw. */
async function thrownBy(f: (...args: unknown[]) => unknown, args: unknown[]): Promise<unknown> {
  try {
    const r = f(...args);
    if (r instanceof Promise) await r;
    else if (typeof r === "object" && r !== null && Symbol.iterator in r && "next" in r)
      Array.from(r as Iterable<unknown>);
  } catch (e) {
    return e;
  }
  return undefined;
}

/** A call's arguments for a failure message. */
const shown = (args: unknown[]): string =>
  args
    .map((a) => (typeof a === "object" && a !== null ? (Array.isArray(a) ? "[...]" : "{...}") : String(a)))
    .join(", ");

describe("every subpath function refuses bad arguments in one line naming itself", () => {
  const fns = new Map<string, (...args: unknown[]) => unknown>();
  for (const [, mod] of ENTRIES)
    for (const [name, v] of Object.entries(mod))
      if (typeof v === "function") fns.set(name, v as (...args: unknown[]) => unknown);

  it("the table has a row for every exported function, and no row for a name no entry exports", () => {
    const names = exportedFunctions();
    const rows = [...Object.keys(CASES), ...Object.keys(UNCHECKED)].sort();
    expect(rows).toEqual(names);
    expect(names.length).toBeGreaterThan(150);
  });

  for (const name of Object.keys(CASES).sort())
    it(name, async () => {
      const f = fns.get(name)!;
      const wrong: string[] = [];
      const cwd = tempDir("api-arguments-subpaths");
      for (const args of CASES[name]!) {
        // a path argument "x" must not name a file of the repository
        const inDir = args.map((a) => (a === "x" || a === "split" ? join(cwd, String(a)) : a));
        const e = await thrownBy(f, inDir);
        const text = e instanceof Error ? e.message : String(e);
        const named = SHARED_WORDING.includes(name) ? /^[a-z-]+: /.test(text) : text.includes(name);
        if (!isCommplanError(e) || text.includes("\n") || !named) wrong.push(`(${shown(args)}): ${text}`);
      }
      expect(wrong).toEqual([]);
    });
});

describe("the table keeps to the entries' source", () => {
  it("UNCHECKED and SHARED_WORDING name exports, and no export is in both CASES and UNCHECKED", () => {
    const names = exportedFunctions();
    for (const n of [...Object.keys(UNCHECKED), ...SHARED_WORDING]) expect(names).toContain(n);
    expect(Object.keys(CASES).filter((n) => n in UNCHECKED)).toEqual([]);
  });
});
