/** commplan export: lower a schedule to per-rank programs and write them in a runtime format (program, simgrid, goal, msccl-xml; a table of format -> writer). */
import { existsSync, realpathSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Writable } from "node:stream";
import { Option, type Command } from "commander";
import { fail } from "../../model/errors.js";
import type { MachineModel } from "../../model/machine.js";
import { goalChunks } from "../../export/goal.js";
import { mscclXml } from "../../export/msccl-xml.js";
import { simgridCopyFlopsPerByte, simgridPlatformFiles } from "../../export/simgrid-platform.js";
import { simgridTraceFiles, type ExportedFile } from "../../export/simgrid-trace.js";
import { fsError, refuseOutputOntoInput, writePieces } from "../../io/file-output.js";
import { findMachine } from "../../machines/presets.js";
import { LAYOUT_FORMS, type LayoutForm, type Program, type ProgramVariant } from "../../model/program.js";
import { readScheduleFile } from "../../io/schedule-read.js";
import { encodeScheduleArrow } from "../../io/schedule-arrow.js";
import { writeBytesAtomic } from "../../io/bytes-output.js";
import type { Schedule } from "../../model/schedule.js";
import { readMatrixFile } from "../../io/matrix-read.js";
import { writeProgramJson, writeProgramSplit } from "../../io/program-json-write.js";
import { lowerSchedule } from "../../lower/index.js";
import type { CliContext } from "../context.js";
import { fmt, intOption, SCHEDULE_ARGUMENT_HELP, writingBar } from "../io.js";
import { withProgress, withProgressAsync } from "../progress.js";
import type { ProgressCallback } from "../../model/progress.js";

/** Where an export goes: one file (or "-" for stdout), or a directory of per-rank files. */
export interface ExportTarget {
  readonly output: string;
  readonly split: string | null;
  /** --out DIR: the directory of a multi-file format (simgrid). */
  readonly dir: string | null;
  /** --machine: the preset a format takes its costs from (simgrid's platform, GOAL's calc), or null. */
  readonly machine: MachineModel | null;
  /** --chunk: elements per MSCCL chunk (null: the gcd of every offset and count). */
  readonly chunk: number | null;
  /** The input files (schedule, matrix), which no output may replace. */
  readonly inputs: readonly string[];
  /** Where an output of "-" is written (the run's stdout). */
  readonly stdout: Writable;
}

/** Writes files into a directory (created if missing), each atomically; refuses a file that would replace an input; `progress`: files written. */
async function writeFiles(
  files: readonly ExportedFile[],
  dir: string,
  inputs: readonly string[],
  progress: ProgressCallback | null,
): Promise<void> {
  const real = (f: string): string => (existsSync(f) ? realpathSync(f) : resolve(f));
  const guarded = new Set(inputs.filter((f) => f !== "-").map(real));
  for (const f of files) {
    const target = join(dir, f.name);
    if (guarded.has(real(target)))
      throw fail(
        "export",
        "BAD_OPTION",
        `refusing to overwrite an input with the export's ${f.name}: choose another --out directory`,
        { file: target },
      );
  }
  try {
    await mkdir(dir, { recursive: true });
  } catch (e) {
    throw fsError(e, "export", dir, true);
  }
  for (const [k, f] of files.entries()) {
    progress?.(k, files.length);
    await writePieces(f.pieces(), join(dir, f.name), "export");
  }
  progress?.(files.length, files.length);
}

function needDir(t: ExportTarget, format: string): string {
  const dir = t.dir ?? t.split;
  if (dir === null)
    throw fail("export", "BAD_OPTION", `--format ${format} writes several files: give --out DIR`, { field: "out" });
  return dir;
}

function single(t: ExportTarget, format: string): void {
  if (t.dir !== null || t.split !== null)
    throw fail(
      "export",
      "BAD_OPTION",
      `--format ${format} writes one file: give -o FILE (or nothing for stdout), not --out or --split`,
      { field: "out" },
    );
}

/** A format of `commplan export`: a one-line description and its writer. */
export interface ExportFormat {
  readonly description: string;
  /** Writes the program; `split` formats write a directory; `progress` (formats that report): ranks or files written. */
  write(prog: Program, target: ExportTarget, progress: ProgressCallback | null): Promise<void>;
  /** A format of the schedule itself (not lowered, no --matrix needed): writes it instead of `write`. */
  writeSchedule?(s: Schedule, target: ExportTarget): Promise<void>;
}

/** Every export format by name (adding one is one line). */
export const EXPORT_FORMATS: { readonly [name: string]: ExportFormat } = {
  program: {
    description: "commplan.program/v1 JSON (one document, or --split DIR: rank-<r>.json per rank plus index.json)",
    write: async (prog, t, progress) => {
      if (t.dir !== null)
        throw fail(
          "export",
          "BAD_OPTION",
          "--format program writes one file (-o FILE, or nothing for stdout) or one per rank (--split DIR), not --out",
          { field: "out" },
        );
      if (t.split !== null) await writeProgramSplit(prog, t.split, { progress, stdout: t.stdout });
      else await writeProgramJson(prog, t.output, { progress, stdout: t.stdout });
    },
  },
  simgrid: {
    description:
      "SimGrid time-independent traces (rank-<r>.txt, index.txt), platform.xml and hosts from --machine, into --out DIR; run from DIR: smpirun -np P -platform platform.xml -hostfile hosts -replay index.txt (docs/runtimes.md)",
    write: async (prog, t, progress) => {
      const dir = needDir(t, "simgrid");
      if (t.machine === null)
        throw fail(
          "export",
          "BAD_OPTION",
          "--format simgrid needs --machine (the platform's latency and bandwidth come from the preset)",
          { field: "machine" },
        );
      await writeFiles(
        [
          ...simgridTraceFiles(prog, { computeFlopsPerByte: simgridCopyFlopsPerByte(t.machine) }),
          ...simgridPlatformFiles(prog.p, t.machine),
        ],
        dir,
        t.inputs,
        progress,
      );
    },
  },
  goal: {
    description:
      "GOAL text for LogGOPSim's txt2bin (rounds chained with requires; copies as calc in picoseconds from --machine's t_m, else calc 0)",
    write: async (prog, t, progress) => {
      single(t, "goal");
      const opts = { calcPerByte: t.machine === null ? 0 : t.machine.tm * 1e6, progress };
      await writePieces(goalChunks(prog, opts), t.output, "export", { stdout: t.stdout });
    },
  },
  arrow: {
    description:
      "the schedule (not lowered; no --matrix) as an Arrow IPC file: transfers with nested chunks (docs/arrow.md)",
    write: () => Promise.reject(new Error("arrow writes the schedule")),
    writeSchedule: async (s, t) => {
      single(t, "arrow");
      await writeBytesAtomic(encodeScheduleArrow(s), t.output, "export");
    },
  },
  "msccl-xml": {
    description:
      "MSCCL-IR XML (uniform chunks of --chunk elements, default the gcd of every offset and count; refused past the runtime's limits)",
    write: async (prog, t) => {
      single(t, "msccl-xml");
      const xml = mscclXml(prog, t.chunk === null ? {} : { chunkElements: t.chunk });
      await writePieces([xml], t.output, "export", { stdout: t.stdout });
    },
  },
};

const VARIANTS: readonly ProgramVariant[] = ["nonblocking", "blocking"];

/** Registers `export`. */
export function registerExport(program: Command, ctx: CliContext): void {
  program
    .command("export")
    .argument("<schedule>", SCHEDULE_ARGUMENT_HELP)
    .description(
      "lower a schedule to a per-rank program (MPI_Alltoallv buffers, scratch, rounds of send / recv / copy) and write it in a runtime format",
    )
    .option("-m, --matrix <file>", "the matrix the schedule was planned for (every format but arrow)")
    .addOption(
      new Option("-f, --format <name>", "output format").choices(Object.keys(EXPORT_FORMATS)).makeOptionMandatory(),
    )
    .option("-o, --output <file>", "output file (- for stdout)", "-")
    .option("--split <dir>", "program: write one file per rank and an index into this directory")
    .option("--out <dir>", "simgrid: the directory of its files (traces, platform.xml, hosts)")
    .option("--machine <name>", "machine preset (simgrid: the platform; goal: calc of copies); see 'commplan machines'")
    .option("--chunk <elements>", "msccl-xml: elements per chunk (default: the gcd of every piece offset and count)")
    .addOption(
      new Option(
        "--variant <v>",
        "nonblocking (post a round at once) or blocking (ordered for blocking rendezvous sends)",
      )
        .choices(VARIANTS)
        .default("nonblocking"),
    )
    .addOption(
      new Option(
        "--layout <form>",
        "buffer layout: full (p counts and displacements per rank, as MPI_Alltoallv) or peers (the non-zero blocks only, as MPI_Neighbor_alltoallv); default: peers for a sparse matrix (JSON entries, Matrix Market, halo, spmv), full otherwise",
      ).choices(LAYOUT_FORMS),
    )
    .action(
      async (
        file: string,
        o: {
          matrix?: string;
          format: string;
          output: string;
          split?: string;
          out?: string;
          machine?: string;
          chunk?: string;
          variant: string;
          layout?: LayoutForm;
        },
        cmd: Command,
      ) => {
        const format = EXPORT_FORMATS[o.format]!; // one of the choices commander checked
        if (o.chunk !== undefined && o.format !== "msccl-xml")
          throw fail("export", "BAD_OPTION", `--chunk goes with --format msccl-xml (${o.format} has no chunks)`, {
            field: "chunk",
          });
        if (format.writeSchedule !== undefined) {
          await refuseOutputOntoInput("export", [file], [["-o", o.output]]);
          const t = { output: o.output, split: o.split ?? null, dir: o.out ?? null, machine: null, chunk: null };
          const stdout = ctx.stdout;
          await format.writeSchedule(await readScheduleFile(file, { maxMemory: ctx.maxMemory }), {
            ...t,
            inputs: [file],
            stdout,
          });
          return;
        }
        if (o.matrix === undefined) cmd.error("error: required option '-m, --matrix <file>' not specified");
        if (o.out !== undefined && (o.split !== undefined || o.output !== "-"))
          throw fail("export", "BAD_OPTION", "give one of -o, --split and --out", { field: "out" });
        const machine = o.machine === undefined ? null : findMachine(o.machine);
        const chunk = o.chunk === undefined ? null : intOption("chunk", o.chunk, 1);
        if (o.split !== undefined && o.output !== "-")
          throw fail("export", "BAD_OPTION", "give -o or --split, not both", { field: "split" });
        if (file === "-" && o.matrix === "-")
          throw fail(
            "export",
            "BAD_OPTION",
            "the schedule and --matrix cannot both be read from stdin ('-'): give one of them as a file",
            { field: "matrix" },
          );
        await refuseOutputOntoInput("export", [file, o.matrix], [["-o", o.output]]);
        const m = readMatrixFile(o.matrix, { maxMemory: ctx.maxMemory });
        const s = await readScheduleFile(file, { maxMemory: ctx.maxMemory });
        const { program: prog, scratchPeak } = withProgress(ctx.io.interactive, "export: lowering", null, (progress) =>
          lowerSchedule(m, s, {
            variant: o.variant as ProgramVariant,
            ...(o.layout === undefined ? {} : { form: o.layout }),
            progress,
            maxMemory: ctx.maxMemory,
          }),
        );
        const target = {
          output: o.output,
          split: o.split ?? null,
          dir: o.out ?? null,
          machine,
          chunk,
          stdout: ctx.stdout,
        };
        const inputs = [file, o.matrix];
        await withProgressAsync(
          writingBar(ctx.io, o.split ?? o.out ?? o.output),
          "export: writing",
          o.format === "simgrid" ? "files" : "ranks",
          (progress) => format.write(prog, { ...target, inputs }, progress),
        );
        let scratch = 0,
          peak = 0;
        for (let r = 0; r < prog.p; r++) {
          scratch = Math.max(scratch, prog.layout.scratchSize[r]!);
          peak = Math.max(peak, scratchPeak[r]!);
        }
        if (o.split !== undefined || o.out !== undefined || o.output !== "-") {
          ctx.io.err(
            `export: ${prog.algorithm}, P = ${prog.p}, ${prog.variant}: ${fmt(prog.rounds)} rounds, ${fmt(prog.ops.kind.length)} operations, largest scratch ${fmt(scratch)} elements (live peak ${fmt(peak)})\n`,
          );
        }
      },
    );
}
