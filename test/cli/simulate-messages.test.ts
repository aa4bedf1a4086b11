/**
 * simulate's refusals name the flags a user gave, not the library's request fields (`stageBarriers`, `recvOrder`):
 * every combination its --help refuses, run, and each message checked for a field name not followed by its flag. And
 * the options --library's help says it takes run with it, and their own help does not say otherwise.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/program.js";
import type { CliContext } from "../../src/cli/context.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("simulate-messages");

/** The P = 3 matrix every test here plans and simulates, written to `file`. */
function writeMatrix(file: string): void {
  const rows = [
    [0, 1, 2],
    [3, 0, 4],
    [5, 6, 0],
  ];
  writeFileSync(file, JSON.stringify({ format: "commplan.matrix/v1", p: 3, rows }));
}

/** The request fields (camelCase, no English word) a simulate flag sets, with the flag. */
const FIELDS: readonly (readonly [string, string])[] = [
  ["sendBuffers", "--buffers"],
  ["sendWaits", "--send-waits"],
  ["recvOrder", "--recv-order"],
  ["stageBarriers", "--no-stage-barriers"],
  ["generateRecv", "--generate-recv"],
  ["busyMeasure", "--busy-measure"],
  ["earlyGoAhead", "--early-go-ahead"],
  ["portSharing", "--port-sharing"],
  ["linkFactor", "--no-link-factor"],
];

/** The fields `message` names as a word without their flag somewhere after (and a port count given as `ports N`). */
function bareFields(message: string): string[] {
  const fields = FIELDS.filter(([field, flag]) => {
    const at = message.search(new RegExp(`(?<![\\w-])${field}\\b`));
    return at >= 0 && !message.slice(at).includes(flag);
  }).map(([field]) => field);
  return /(?<!-)\bports \d/.test(message) ? [...fields, "ports"] : fields;
}

describe("simulate's refusals name flags", () => {
  it("the scan finds a field named without its flag", () => {
    expect(bareFields("lock-step already puts a barrier: stageBarriers false needs a free run")).toEqual([
      "stageBarriers",
    ]);
    expect(bareFields("give a payload plan or sendWaits steps (--send-waits steps)")).toEqual([]);
    expect(bareFields("use it with lockstep (--lockstep); the ports of a node")).toEqual([]);
    expect(bareFields("one port per node; got ports 2")).toEqual(["ports"]);
    expect(bareFields("one port per node; got --ports 2")).toEqual([]);
  });

  it("every refused combination says it with the flags, in one line, exit 2", async () => {
    const m = join(dir, "m.json");
    const s = join(dir, "s.json");
    writeMatrix(m);
    expect((await run("plan", m, "-a", "shift", "-o", s)).code).toBe(0);
    const replay = [s, "--machine", "t3d-004"];
    const protocol = [m, "--machine", "t3d-004", "--protocol"];
    const refused = [
      [...replay, "--topology", "ocpc"],
      [...replay, "--topology", "ocpc", "--lockstep", "--mode", "nonblocking"],
      [...replay, "--topology", "ocpc", "--lockstep", "--recv-order", "step"],
      [...replay, "--topology", "ocpc", "--lockstep", "--ports", "2"],
      [...replay, "--no-stage-barriers", "--lockstep"],
      [...replay, "--no-stage-barriers", "--data", "-m", m],
      [...replay, "--buffers", "1"],
      [...replay, "--send-waits", "data"],
      [...replay, "--inquiry", "3"],
      [...replay, "--busy-measure"],
      [...replay, "--early-go-ahead"],
      [...replay, "--generate-recv"],
      [...replay, "--port-sharing", "fair"],
      [...replay, "--no-link-factor"],
      [...replay, "--data"],
      [...protocol, "async", "--inquiry", "3"],
      [...protocol, "async", "--no-stage-barriers"],
      [...protocol, "async", "--mode", "nonblocking"],
      [...protocol, "async", "--lockstep"],
      [...protocol, "async", "--ports", "2"],
      [...protocol, "async", "--recv-order", "step"],
      [...protocol, "async", "--topology", "ocpc"],
      [...protocol, "async", "--buffers", "1"],
    ];
    for (const args of refused) {
      const r = await run("simulate", ...args);
      const what = args.slice(1).join(" ");
      expect([r.code, r.err.split("\n").length], what).toEqual([2, 2]);
      expect(bareFields(r.err), `${what}: ${r.err}`).toEqual([]);
    }
  });
});

describe("simulate --library's options", () => {
  it("every option --library's help names runs with it, and its own help, where it says what it goes with, says so", async () => {
    const io = { out: () => undefined, err: () => undefined, interactive: false };
    const ctx: CliContext = { io, stdout: process.stdout, maxMemory: 1 << 30, exitCode: 0 };
    const simulate = (await buildProgram(ctx, ["simulate"])).commands.find((c) => c.name() === "simulate")!;
    const help = (flag: string): string => simulate.options.find((o) => o.long === flag)!.description;
    const named = /\bwith ((?:--[\w-]+(?:, )?)+)\)/.exec(help("--library"))![1]!.split(", ");
    expect(named).toEqual(["--runtime", "--free-copies", "--network", "--element-bytes"]);
    const m = join(dir, "lib-m.json");
    writeMatrix(m);
    const value: { readonly [flag: string]: string[] } = {
      "--runtime": ["smpi"],
      "--free-copies": [],
      "--network": ["flat"],
      "--element-bytes": ["4"],
    };
    for (const flag of named) {
      const goesWith = /^with ([^:]*):/.exec(help(flag))?.[1];
      if (goesWith !== undefined) expect(goesWith, flag).toMatch(/--library|a runtime model/);
      const r = await run("simulate", m, "--library", "default", "--machine", "t3d-004", flag, ...value[flag]!);
      expect([r.code, r.err], flag).toEqual([0, ""]);
    }
  });
});

describe("simulate --program and --library take their options and refuse every other", () => {
  it("each option of simulate, given with --program or --library, runs or is refused as one that does not apply", async () => {
    const io = { out: () => undefined, err: () => undefined, interactive: false };
    const ctx: CliContext = { io, stdout: process.stdout, maxMemory: 1 << 30, exitCode: 0 };
    const simulate = (await buildProgram(ctx, ["simulate"])).commands.find((c) => c.name() === "simulate")!;
    const m = join(dir, "pl-m.json");
    writeMatrix(m);
    expect((await run("plan", m, "-a", "shift", "-o", join(dir, "pl-s.json"))).code).toBe(0);
    const program = join(dir, "pl-p.json");
    expect((await run("export", join(dir, "pl-s.json"), "-m", m, "-f", "program", "-o", program)).code).toBe(0);
    // a value of every option (a new option needs one here, and a place in a list below)
    const value: { readonly [flag: string]: string[] } = {
      "--machine": ["t3d-004"],
      "--mode": ["nonblocking"],
      "--lockstep": [],
      "--ports": ["2"],
      "--topology": ["flat"],
      "--buffers": ["1"],
      "--send-waits": ["data"],
      "--recv-order": ["step"],
      "--network": ["flat"],
      "--port-sharing": ["fair"],
      "--link-svg": [join(dir, "pl-l.svg")],
      "--no-link-factor": [],
      "--no-stage-barriers": [],
      "--barrier": ["0"],
      "--envelope": ["16"],
      "--data": [],
      "--matrix": [m],
      "--element-bytes": ["4"],
      "--json": [],
      "--trace": [join(dir, "pl-t.json")],
      "--svg": [join(dir, "pl-g.svg")],
      "--svg-view": ["lanes", "--svg", join(dir, "pl-g2.svg")],
      "--protocol": ["async"],
      "--realised": [join(dir, "pl-r.json")],
      "--seed": ["2"],
      "--generate-recv": [],
      "--busy-measure": [],
      "--early-go-ahead": [],
      "--inquiry": ["3"],
      "--runtime": ["smpi"],
      "--free-copies": [],
      "--max-memory": ["1G"],
    };
    const takes = {
      "--program": [
        "--network",
        "--json",
        "--trace",
        "--svg",
        "--svg-view",
        "--runtime",
        "--free-copies",
        "--max-memory",
      ],
      "--library": ["--network", "--element-bytes", "--json", "--trace", "--svg", "--svg-view", "--runtime"].concat([
        "--free-copies",
        "--max-memory",
      ]),
    };
    // docs/simulator.md's synopsis of each (its list of simulate's forms) says the same
    const docs = readFileSync(join(import.meta.dirname, "../../docs/simulator.md"), "utf8").replace(/\s+/g, " ");
    for (const mode of ["--program", "--library"] as const) {
      const synopsis =
        docs.match(
          new RegExp(`\`commplan simulate [^\`]*${mode} [^\`]*\` \\((Program replay|Library mirrors) above\\)`),
        )?.[0] ?? "";
      const flags = [...synopsis.matchAll(/\[(--[\w-]+)/g)].map((x) => x[1]!);
      expect(flags.sort(), `docs/simulator.md: ${synopsis}`).toEqual(
        takes[mode].filter((f) => f !== "--max-memory").sort(),
      );
    }
    for (const o of simulate.options) {
      const flag = o.long!;
      if (flag === "--help" || flag === "--program" || flag === "--library") continue;
      expect(value[flag], `a value of ${flag}`).toBeDefined();
      for (const [mode, input] of [
        ["--program", [program]],
        ["--library", [m, "default"]],
      ] as const) {
        const args = mode === "--program" ? [mode, ...input] : [input[0], mode, input[1]];
        const machine = flag === "--machine" ? [] : ["--machine", "t3d-004"];
        const r = await run("simulate", ...args, ...machine, flag, ...value[flag]!);
        if (takes[mode].includes(flag) || flag === "--machine")
          expect([r.code, r.err], `${mode} ${flag}`).toEqual([0, ""]);
        else
          expect([r.code, r.err], `${mode} ${flag}`).toEqual([
            2,
            expect.stringContaining(`${flag} does not apply to ${mode}`),
          ]);
      }
    }
  });
});

describe("simulate --help's sources", () => {
  it("cites the run-time protocols where docs/simulator.md's sources do (003: AC fig. 2, DRS_N fig. 5)", async () => {
    const docs = readFileSync(join(import.meta.dirname, "../../docs/simulator.md"), "utf8").replace(/\s+/g, " ");
    // "003 sections 2.2-4 (Generate_Recv fig. 1, AC fig. 2, DRS_N fig. 5)"
    const sources = /(\d{3}) sections [\d.-]+ \(Generate_Recv fig\. \d+, AC (fig\. \d+), DRS_N (fig\. \d+)\)/.exec(
      docs,
    );
    expect(sources).not.toBeNull();
    const [, paper, ac, drs] = sources!;
    const help = (await run("simulate", "--help")).out.replace(/\s+/g, " ");
    expect(help).toContain(`run a run-time protocol of ${paper} (AC ${ac}, DRS_N ${drs}) on a matrix`);
  });
});
