// The export registry: every format declares its input, options and writer; the CLI's --format choices, option help
// and checks come from it, so a format added to the registry (a toy one here) is listed and written by `commplan export`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerExport } from "../../src/cli/commands/export.js";
import type { CliContext } from "../../src/cli/context.js";
import { textSink } from "../../src/cli/io.js";
import { defaultMemoryBudget } from "../../src/host/memory.js";
import {
  EXPORT_FORMATS,
  exportFormat,
  exportOptionHelp,
  matrixOptionHelp,
  refuseForeignOptions,
  type ExportFormat,
  type ProgramExportFormat,
} from "../../src/export/index.js";
import { writePieces } from "../../src/io/file-output.js";
import { run } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const dir = tempDir("export-registry");
const f = (name: string): string => join(dir, name);

/** A toy format: one line per rank with its operation count, written to -o. */
const toy: ProgramExportFormat = {
  name: "toy",
  title: "one line per rank: its operation count",
  input: "program",
  options: [{ option: "machine", help: "ignored" }],
  progressUnit: "ranks",
  write: async (prog, t) => {
    const lines = Array.from({ length: prog.p }, (_, r) => `${r} ${prog.rankStart[r + 1]! - prog.rankStart[r]!}\n`);
    await writePieces(lines, t.output, "export", t.stdout === undefined ? {} : { stdout: t.stdout });
  },
};

/** Runs `commplan export ...argv` in process over `formats`; returns the exit code's cause and what was written. */
async function runWith(formats: readonly ExportFormat[], argv: string[]) {
  let out = "",
    err = "";
  const io = { out: (t: string) => void (out += t), err: (t: string) => void (err += t), interactive: false };
  const ctx: CliContext = { io, stdout: textSink(io), maxMemory: defaultMemoryBudget(), exitCode: 0 };
  const program = new Command().name("commplan").exitOverride();
  program.configureOutput({ writeOut: (s) => void (out += s), writeErr: (s) => void (err += s) });
  registerExport(program, ctx, formats);
  let failure: unknown = null;
  try {
    await program.parseAsync(["export", ...argv], { from: "user" });
  } catch (e) {
    failure = e;
  }
  return { out, err, failure };
}

describe("export registry", () => {
  it("names every format once, in --format order, each with a writer and a title", () => {
    expect(EXPORT_FORMATS.map((x) => x.name)).toEqual(["program", "simgrid", "goal", "arrow", "msccl-xml"]);
    for (const x of EXPORT_FORMATS) {
      expect(exportFormat(x.name)).toBe(x);
      expect(typeof x.write).toBe("function");
      expect(x.title.length).toBeGreaterThan(0);
    }
    expect(exportFormat("nope")).toBeUndefined();
    expect(exportFormat("arrow")!.input).toBe("schedule");
  });

  it("builds the options' help from the formats that take them", () => {
    expect(matrixOptionHelp()).toBe("the matrix the schedule was planned for (every format but arrow)");
    expect(exportOptionHelp("machine")).toBe(
      "machine preset (simgrid: the platform; goal: calc of copies); see 'commplan machines'",
    );
    expect(exportOptionHelp("split")).toBe(
      "program: write one file per rank and an index into this directory (a regular file there is replaced; a link, FIFO or directory at one of their names is refused)",
    );
    expect(exportOptionHelp("machine", [...EXPORT_FORMATS, toy])).toBe(
      "machine preset (simgrid: the platform; goal: calc of copies; toy: ignored); see 'commplan machines'",
    );
  });

  it("refuses --chunk for a format that has no chunks, naming the format that takes it", () => {
    expect(() => refuseForeignOptions(exportFormat("goal")!, ["chunk"])).toThrow(
      "export: the option chunk goes with format msccl-xml (goal has no chunks)",
    );
    expect(() => refuseForeignOptions(exportFormat("msccl-xml")!, ["chunk"])).not.toThrow();
    expect(() => refuseForeignOptions(exportFormat("goal")!, ["machine"])).not.toThrow();
  });

  it("refuses --machine for a format that takes none (it was ignored), naming the formats that take it", () => {
    for (const name of ["program", "arrow", "msccl-xml"])
      expect(() => refuseForeignOptions(exportFormat(name)!, ["machine"])).toThrow(
        `export: the option machine goes with format simgrid or goal (${name} takes no machine)`,
      );
  });

  it("a toy format added to the registry is a --format choice of the CLI and is written", async () => {
    expect((await run("gen", "pattern1", "--p", "6", "--seed", "2", "-o", f("m.json"))).code).toBe(0);
    expect((await run("plan", f("m.json"), "--algorithm", "shift", "-o", f("s.json"))).code).toBe(0);
    const formats = [...EXPORT_FORMATS, toy];
    const help = await runWith(formats, ["--help"]);
    expect(help.out).toMatch(/"msccl-xml",\s+"toy"\)/);
    expect(help.out).toContain("toy: ignored");
    const without = await runWith(EXPORT_FORMATS, [f("s.json"), "-m", f("m.json"), "-f", "toy", "-o", f("toy.txt")]);
    expect(without.err).toContain("argument 'toy' is invalid");
    const written = await runWith(formats, [f("s.json"), "-m", f("m.json"), "-f", "toy", "-o", f("toy.txt")]);
    expect(written.failure).toBeNull();
    const lines = readFileSync(f("toy.txt"), "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(6);
    expect(lines.every((l, r) => new RegExp(`^${r} [1-9]\\d*$`).test(l))).toBe(true);
    expect(written.err).toMatch(/^export: shift, P = 6, toy \(nonblocking\): \d+ rounds/);
  });

  it("the export summary's schema lists exactly the registry's formats as exportFormat", () => {
    const schema = JSON.parse(
      readFileSync(new URL("../../schemas/export.v1.schema.json", import.meta.url), "utf8"),
    ) as { properties: { exportFormat: { enum: string[] } } };
    expect(schema.properties.exportFormat.enum).toEqual(EXPORT_FORMATS.map((x) => x.name));
  });
});
