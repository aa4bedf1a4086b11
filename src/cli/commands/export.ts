/**
 * commplan export: lower a schedule to per-rank programs and write them in a runtime format; the formats, their options
 * and writers are the export registry's (src/export/registry.ts).
 */
import { checkMemory } from "../../model/memory-budget.js";
import { matrixBytes, type CommMatrix } from "../../model/matrix.js";
import type { Schedule } from "../../model/schedule.js";
import { Option, type Command } from "commander";
import { fail } from "../../model/errors.js";
import {
  EXPORT_FORMATS,
  EXPORT_OPTIONS,
  exportFormat,
  exportOptionHelp,
  matrixOptionHelp,
  refuseForeignOptions,
  type ExportFormat,
  type ExportOptionName,
} from "../../export/index.js";
import { checkOutputDirectory, checkOutputTargets, refuseOutputOntoInput } from "../../io/file-output.js";
import { findMachine } from "../../machines/presets.js";
import { LAYOUT_FORMS, type LayoutForm, type ProgramVariant } from "../../model/program.js";
import { readScheduleFile } from "../../io/schedule-read.js";
import { readMatrixFile } from "../../io/matrix-read.js";
import { checkFilesMatch, checkFilesP } from "../made-for.js";
import { refuseSplitOntoInput } from "../../io/program-json-write.js";
import { lowerSchedule } from "../../lower/index.js";
import type { CliContext } from "../context.js";
import { fmt, intOption, refuseDashDirectory, SCHEDULE_ARGUMENT_HELP, writingBar } from "../io.js";
import { withProgress, withProgressAsync } from "../progress.js";
import { JSON_SUMMARY_HELP, printJson, refuseJsonOnStdout, writtenBytes } from "./json-summary.js";
import { counted } from "../../internal/plural.js";
import { oneLine } from "../../internal/quoted.js";
import { refuseExportName } from "../output-format.js";

const VARIANTS: readonly ProgramVariant[] = ["nonblocking", "blocking", "dataflow"];

/** The flag of each option only some formats take. */
const EXPORT_FLAGS: { readonly [name in ExportOptionName]: string } = {
  split: "--split <dir>",
  out: "--out <dir>",
  machine: "--machine <name>",
  chunk: "--chunk <elements>",
};

/** The options `export` takes, as commander gives them. */
interface ExportFlags {
  matrix?: string;
  format: string;
  output: string;
  split?: string;
  out?: string;
  machine?: string;
  chunk?: string;
  variant: string;
  layout?: LayoutForm;
  json?: boolean;
}

/**
 * Registers `export` over the formats of `formats` (the export registry's by default): their names are the --format
 * choices, their options and writers are the ones the command takes and runs.
 */
export function registerExport(
  program: Command,
  ctx: CliContext,
  formats: readonly ExportFormat[] = EXPORT_FORMATS,
): void {
  const command = program
    .command("export")
    .argument("<schedule>", SCHEDULE_ARGUMENT_HELP)
    .description(
      "lower a schedule to a per-rank program (MPI_Alltoallv buffers, scratch, rounds of send / recv / copy) and write it in a runtime format",
    )
    .option("-m, --matrix <file>", matrixOptionHelp(formats))
    .addOption(
      new Option("-f, --format <name>", "output format").choices(formats.map((f) => f.name)).makeOptionMandatory(),
    )
    .option("-o, --output <file>", "output file (- for stdout)", "-");
  for (const name of Object.keys(EXPORT_OPTIONS) as ExportOptionName[])
    if (formats.some((f) => f.options.some((u) => u.option === name)))
      command.option(EXPORT_FLAGS[name], exportOptionHelp(name, formats));
  command
    .addOption(
      new Option(
        "--variant <v>",
        "nonblocking (post a round at once), blocking (ordered for blocking rendezvous sends) or dataflow (each operation posted once the operations it waits for are done: no round barriers)",
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
    .option("--json", JSON_SUMMARY_HELP)
    .action((file: string, o: ExportFlags, cmd: Command) => runExport(ctx, formats, file, o, cmd));
}

/** Bytes a lowered operation takes (its columns, its piece starts and the lowering's per-operation work). */
const LOWER_OP_BYTES = 64;
/** Bytes a piece of an operation takes (buffer, offset, count), on the send and the receive side of a chunk. */
const LOWER_PIECE_BYTES = 2 * 24;

/** `n` (grouped by thousands) and `noun`, plural unless n is 1: "1 round", "1,024 operations". */
function many(n: number, noun: string): string {
  return `${fmt(n)} ${noun}${n === 1 ? "" : "s"}`;
}

/**
 * What lowering `s` holds: the matrix, the schedule's columns, a send and a receive operation per transfer (with their
 * pieces), and the full layout's P^2 blocks when the layout is full (lower/layout.ts refuses that part itself).
 */
function lowerBytes(m: CommMatrix, s: Schedule): number {
  const chunks = s.chunks === null ? 0 : s.chunks.origin.length;
  const schedule = s.transferCount * 16 + chunks * 24;
  return (
    matrixBytes(m) +
    schedule +
    2 * s.transferCount * LOWER_OP_BYTES +
    Math.max(chunks, s.transferCount) * LOWER_PIECE_BYTES
  );
}

/**
 * Runs `export`: checks the options, then writes the schedule (a format of the schedule) or lowers it and writes the
 * program.
 */
async function runExport(
  ctx: CliContext,
  formats: readonly ExportFormat[],
  file: string,
  o: ExportFlags,
  cmd: Command,
): Promise<void> {
  const format = exportFormat(o.format, formats)!; // one of the choices commander checked
  const given = (Object.keys(EXPORT_OPTIONS) as ExportOptionName[]).filter((name) => o[name] !== undefined);
  refuseForeignOptions(format, given, formats);
  const written = writtenTo(o);
  refuseJsonOnStdout("export", o.json, written.path);
  refuseExportName("export", format.name, o.output);
  if (format.input === "schedule") {
    refuseLoweringOptions(format, formats, o, cmd);
    await refuseOutputOntoInput("export", [file], [["-o", o.output]]);
    await checkExportTargets(o);
    const t = { output: o.output, split: o.split ?? null, dir: o.out ?? null, machine: null, chunk: null };
    const schedule = await readScheduleFile(file, { maxMemory: ctx.maxMemory });
    await format.write(schedule, {
      ...t,
      inputs: [file],
      stdout: ctx.stdout,
    });
    if (o.json) printJson(ctx, exportSummary(format.name, schedule.algorithm, schedule.p, written, null));
    if (written.path !== "-")
      ctx.io.err(
        `export: ${oneLine(schedule.algorithm)}, P = ${schedule.p}, ${format.name}: ${counted(schedule.stepCount, "step", "steps")}, ${counted(schedule.transferCount, "transfer", "transfers")} -> ${written.path}\n`,
      );
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
  await checkExportTargets(o);
  const m = readMatrixFile(o.matrix, { maxMemory: ctx.maxMemory });
  if (o.split !== undefined) await refuseSplitOntoInput("export", [file, o.matrix], o.split, m.p, "--split");
  const s = await readScheduleFile(file, { maxMemory: ctx.maxMemory });
  // as lowerSchedule checks (the digest of a schedule with one, else its P), but naming the two files
  const files = { doc: file, matrix: o.matrix };
  if (s.matrixDigest !== "") checkFilesMatch("export", m, s, "the schedule", files);
  else checkFilesP("export", m, s.p, "the schedule", files);
  checkMemory("export", lowerBytes(m, s), `lowering ${s.transferCount} transfers on P = ${s.p}`, ctx.maxMemory, {
    file,
  });
  const { program: prog, scratchPeak } = withProgress(ctx.io.interactive, "export: lowering", null, (progress) =>
    lowerSchedule(m, s, {
      variant: o.variant as ProgramVariant,
      ...(o.layout === undefined ? {} : { form: o.layout }),
      progress,
      maxMemory: ctx.maxMemory,
    }),
  );
  const target = { output: o.output, split: o.split ?? null, dir: o.out ?? null, machine, chunk, stdout: ctx.stdout };
  const inputs = [file, o.matrix];
  await withProgressAsync(
    writingBar(ctx.io, o.split ?? o.out ?? o.output),
    "export: writing",
    format.progressUnit,
    (progress) => format.write(prog, { ...target, inputs }, progress),
  );
  let scratch = 0,
    peak = 0;
  for (let r = 0; r < prog.p; r++) {
    scratch = Math.max(scratch, prog.layout.scratchSize[r]!);
    peak = Math.max(peak, scratchPeak[r]!);
  }
  if (o.json)
    printJson(
      ctx,
      exportSummary(format.name, prog.algorithm, prog.p, written, {
        variant: prog.variant,
        layout: prog.layout.sendPeers === null ? "full" : "peers",
        rounds: prog.rounds,
        operations: prog.ops.kind.length,
        largestScratch: scratch,
        scratchPeak: peak,
      }),
    );
  if (o.split !== undefined || o.out !== undefined || o.output !== "-") {
    // Like the line of a schedule format (and gen's, plan's): the format and where it went, so a run of several
    // exports says which line is which file.
    ctx.io.err(
      `export: ${oneLine(prog.algorithm)}, P = ${prog.p}, ${format.name} (${prog.variant}): ` +
        `${many(prog.rounds, "round")}, ${many(prog.ops.kind.length, "operation")}, ` +
        `largest scratch ${many(scratch, "element")} (live peak ${fmt(peak)}) -> ${written.path}\n`,
    );
  }
}

/**
 * Refuses --variant and --layout, which say how a schedule is lowered to a program, for a format that writes the
 * schedule itself (as the registry refuses an option a format lacks: refuseForeignOptions).
 */
function refuseLoweringOptions(
  format: ExportFormat,
  formats: readonly ExportFormat[],
  o: ExportFlags,
  cmd: Command,
): void {
  const given = (["variant", "layout"] as const).filter(
    (name) => o[name] !== undefined && cmd.getOptionValueSource(name) === "cli",
  );
  if (given.length === 0) return;
  const users = formats.filter((f) => f.input === "program").map((f) => f.name);
  throw fail(
    "export",
    "BAD_OPTION",
    `the option ${given[0]!} goes with format ${users.join(" or ")} (${format.name} writes the schedule, not a program)`,
    { field: given[0]! },
  );
}

/** Checks before the work that export's target (-o, or the directory of --split or --out) can be written. */
async function checkExportTargets(o: ExportFlags): Promise<void> {
  await checkOutputTargets("export", [["-o", o.output]]);
  if (o.split !== undefined) refuseDashDirectory("export", "--split", o.split, "split");
  if (o.out !== undefined) refuseDashDirectory("export", "--out", o.out, "out");
  for (const dir of [o.split, o.out]) if (dir !== undefined) await checkOutputDirectory("export", dir);
}

/** Where export writes: a file (or stdout, "-"), a --split directory of per-rank files, or an --out directory. */
interface Written {
  readonly kind: "file" | "split" | "dir";
  readonly path: string;
}

function writtenTo(o: ExportFlags): Written {
  if (o.split !== undefined) return { kind: "split", path: o.split };
  if (o.out !== undefined) return { kind: "dir", path: o.out };
  return { kind: "file", path: o.output };
}

/** export --json: the commplan.export/v1 summary (`program` null for a format that writes the schedule itself). */
function exportSummary(
  exportFormat: string,
  algorithm: string,
  p: number,
  written: Written,
  program: { [k: string]: string | number } | null,
): object {
  const bytes = written.kind === "file" ? writtenBytes(written.path) : null;
  return { format: "commplan.export/v1", exportFormat, algorithm, p, output: { ...written, bytes }, program };
}
