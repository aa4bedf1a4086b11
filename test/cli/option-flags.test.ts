/** cliMessage: the library's messages name options; the command line names its flags, in today's words. */
import { describe, expect, it } from "vitest";
import { cliMessage } from "../../src/cli/option-flags.js";
import { generatePattern } from "../../src/patterns/registry.js";
import { checkMemory } from "../../src/model/memory-budget.js";
import { matrixDigest, matrixFromRows } from "../../src/model/matrix.js";
import { plan } from "../../src/planner/index.js";
import { findMachine } from "../../src/machines/presets.js";
import { simulateSchedule } from "../../src/machines/sim/simulate.js";
import { exportFormat, refuseForeignOptions } from "../../src/export/registry.js";
import { requireSingleFile, targetDirectory } from "../../src/export/export-target.js";
import type { ExportTarget } from "../../src/export/types.js";
import { nodeArrayRow, stepGrid } from "../../src/export/step-grid.js";
import { parseSweep } from "../../src/compare/sweep.js";
import { verifySchedule } from "../../src/verifier/index.js";
import { formatReport, reportJson } from "../../src/cli/commands/verify.js";
import { handSchedule } from "../helpers/schedule-edit.js";

/** Library messages hard to provoke in a unit test (limits, rounding, other modules' checks), and the CLI's text. */
const LITERAL_CASES: readonly [string, string][] = [
  [
    "two-stage: payload plans are limited to P <= 4096 (got P = 5000); plan at message level (without the option payload)",
    "two-stage: payload plans are limited to P <= 4096 (got P = 5000); plan at message level (without --payload)",
  ],
  [
    "simulate: a timeline of 9 transfers is too large (at most 8); run without a timeline (timeline: false)",
    "simulate: a timeline of 9 transfers is too large (at most 8); run without a timeline (timeline: false, no --trace / --svg)",
  ],
  [
    "simulate: sendWaits data on a plan without payload chunks assumes a stage forwards nothing it receives; without the stage barriers a relay could send before its data arrived: give a payload plan (the option payload) or sendWaits steps",
    "simulate: sendWaits data on a plan without payload chunks assumes a stage forwards nothing it receives; without the stage barriers a relay could send before its data arrived: give a payload plan (plan --payload) or sendWaits steps (--send-waits steps)",
  ],
  [
    "simulate: the ocpc topology is defined per step (001 sec 2): use it with lockstep (lockstep: true)",
    "simulate: the ocpc topology is defined per step (001 sec 2): use it with lockstep (--lockstep)",
  ],
  [
    "simulate: drs-n: simulated time stopped advancing at 1.000 us (an inquiry of 0 us is lost in rounding); use a larger inquiry",
    "simulate: drs-n: simulated time stopped advancing at 1.000 us (an inquiry of 0 us is lost in rounding); use a larger --inquiry",
  ],
  [
    "simulate: drs-n: more than 9 inquiries (1 of 2 messages delivered at 3.000 us); nodes keep inquiring while their destinations are busy: use a larger inquiry or set busyMeasure",
    "simulate: drs-n: more than 9 inquiries (1 of 2 messages delivered at 3.000 us); nodes keep inquiring while their destinations are busy: use a larger --inquiry or --busy-measure",
  ],
  [
    'export: format program writes one file (output, "-" for stdout) or one per rank (split), not a directory (dir)',
    "export: --format program writes one file (-o FILE, or nothing for stdout) or one per rank (--split DIR), not --out",
  ],
  [
    "export: format simgrid needs a machine (the platform's latency and bandwidth come from the preset)",
    "export: --format simgrid needs --machine (the platform's latency and bandwidth come from the preset)",
  ],
  [
    "msccl-xml: the step count of the thread block of rank 0's copy (9 elements in chunks of 1; the option chunk sets a larger chunk) is at least 65",
    "msccl-xml: the step count of the thread block of rank 0's copy (9 elements in chunks of 1; --chunk sets a larger chunk) is at least 65",
  ],
  [
    "export: d/hosts: refusing to overwrite an input with the export's hosts: choose another directory (dir)",
    "export: d/hosts: refusing to overwrite an input with the export's hosts: choose another --out directory",
  ],
  [
    "compare: the option network replaces the machine's topology; x is on cm5-fat-tree: use a machine on the flat topology",
    "compare: --network replaces the machine's topology; x is on cm5-fat-tree: use a machine on the flat topology",
  ],
];

/** An export target with nothing but what a test gives. */
function target(t: Partial<ExportTarget>): ExportTarget {
  return { output: "-", split: null, dir: null, machine: null, chunk: null, inputs: [], stdout: process.stdout, ...t };
}

/** The message of what f throws. */
function messageOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("expected a throw");
}

describe("cliMessage", () => {
  it("writes every option a library message names as the command's flag", () => {
    expect(cliMessage(messageOf(() => checkMemory("m", 5 * 2 ** 30, "a thing", 2 ** 30)))).toBe(
      "m: a thing needs about 5 GiB, past the memory budget of 1 GiB (raise it with --max-memory, e.g. --max-memory 5G)",
    );
    expect(cliMessage(messageOf(() => generatePattern("spmv", 4, {}, 1)))).toMatch(
      /^patterns: pattern 'spmv' needs a sparse matrix: --file path\.mtx \(a Matrix Market/,
    );
    const a = { rows: 2, cols: 2, rowStart: Int32Array.of(0, 1, 1), colIndex: Int32Array.of(1) };
    expect(cliMessage(messageOf(() => generatePattern("uniform", 4, {}, 1, { sparse: a })))).toBe(
      "patterns: pattern 'uniform' reads no file; it takes no --file",
    );
    expect(
      cliMessage(
        "program-json: p.json: 9 bytes is past the reader's limit of 8: write the program split by rank (writeProgramSplit)",
      ),
    ).toBe("program-json: p.json: 9 bytes is past the reader's limit of 8: write the program with --split");
    expect(
      cliMessage("lower: x relays elements: plan with the option payload (its transfers 0 -> 1 carry 2 elements)"),
    ).toBe("lower: x relays elements: plan with --payload (its transfers 0 -> 1 carry 2 elements)");
  });

  it("writes the library's messages of payloads, the simulator, exports, show and compare as the command says them", () => {
    const m = matrixFromRows([
      [0, 2, 1],
      [1, 0, 3],
      [2, 1, 0],
    ]);
    const machine = findMachine("t3d-004");
    const shift = plan(m, "shift");
    const cases: [string, string][] = [
      [
        messageOf(() => simulateSchedule(shift, machine, { data: m })),
        "simulate: data mode needs a schedule with payload chunks (plan with --payload)",
      ],
      [
        messageOf(() => refuseForeignOptions(exportFormat("goal")!, ["chunk"])),
        "export: --chunk goes with --format msccl-xml (goal has no chunks)",
      ],
      [
        messageOf(() => targetDirectory(target({}), "simgrid")),
        "export: --format simgrid writes several files: give --out DIR",
      ],
      [
        messageOf(() => requireSingleFile(target({ split: "d" }), "goal")),
        "export: --format goal writes one file: give -o FILE (or nothing for stdout), not --out or --split",
      ],
      [messageOf(() => nodeArrayRow(6, 7)), "show: --row must be in 0..1 (P = 6 has 2 rows of 3 nodes), got 7"],
      [messageOf(() => stepGrid(shift, 5)), "show: --stage must be in 1..1, got 6"],
      [
        messageOf(() => parseSweep("0..4")),
        "compare: --sweep: '0' in '0..4' is not a factor > 0 (a number or a fraction such as 1/16)",
      ],
      [messageOf(() => parseSweep("1..2..3")), "compare: --sweep: '1..2..3' is neither a range a..b nor a list a,b,c"],
      ...LITERAL_CASES,
    ];
    for (const [library, cli] of cases) expect(cliMessage(library)).toBe(cli);
  });

  it("the verifier's report says the option; verify's text and JSON say the flag", () => {
    const m = matrixFromRows([
      [0, 1, 0],
      [0, 0, 1],
      [1, 0, 0],
    ]);
    const s = handSchedule(m.p, [[[1, 0, 1]], [[2, 1, 1]], [[0, 2, 1]]], {
      algorithm: "my-router",
      elementBytes: 8,
      matrixDigest: matrixDigest(m),
    });
    const r = verifySchedule(m, s);
    expect(r.unproven![0]!.howToProve).toBe("plan with the option payload to prove it");
    expect(formatReport(r)).toMatch(
      /all checks hold; delivery unproven at message level: plan with --payload to prove it/,
    );
    expect(reportJson(r)).toContain('"howToProve": "plan with --payload to prove it"');
    expect(reportJson(r)).not.toContain("the option payload");
  });

  it("leaves a message that names no option as it is", () => {
    expect(cliMessage("matrix: row 3 has 7 entries, expected 8")).toBe("matrix: row 3 has 7 entries, expected 8");
  });
});
