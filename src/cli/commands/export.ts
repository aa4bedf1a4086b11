/** commplan export: lower a schedule to per-rank programs and write them in a runtime format (program; a table of format -> writer). */
import type { Command } from "commander";
import { fail } from "../../model/errors.js";
import type { Program, ProgramVariant } from "../../model/program.js";
import { readScheduleJson } from "../../io/schedule-json-read.js";
import { readMatrixFile } from "../../io/matrix-read.js";
import { programJsonPieces, writeProgramJson, writeProgramSplit } from "../../io/program-json-write.js";
import { lowerSchedule } from "../../lower/index.js";
import type { CliContext } from "../context.js";
import { ELEMENT_BYTES_HELP, fmt, matrixReadOptions } from "../io.js";

/** Where an export goes: one file (or "-" for stdout), or a directory of per-rank files. */
export interface ExportTarget {
  readonly output: string;
  readonly split: string | null;
}

/** A format of `commplan export`: a one-line description and its writer. */
export interface ExportFormat {
  readonly description: string;
  /** Writes the program; `split` formats write a directory. */
  write(prog: Program, target: ExportTarget, ctx: CliContext): Promise<void>;
}

/** Every export format by name (adding one is one line). */
export const EXPORT_FORMATS: { readonly [name: string]: ExportFormat } = {
  program: {
    description: "commplan.program/v1 JSON (one document, or --split DIR: rank-<r>.json per rank plus index.json)",
    write: async (prog, t, ctx) => {
      if (t.split !== null) await writeProgramSplit(prog, t.split);
      else if (t.output === "-") for (const piece of programJsonPieces(prog)) ctx.io.out(piece);
      else await writeProgramJson(prog, t.output);
    },
  },
};

const VARIANTS: readonly ProgramVariant[] = ["nonblocking", "blocking"];

/** Registers `export`. */
export function registerExport(program: Command, ctx: CliContext): void {
  program
    .command("export")
    .argument("<schedule>", "schedule JSON (commplan.schedule/v1), - for stdin")
    .description("lower a schedule to a per-rank program (MPI_Alltoallv buffers, scratch, rounds of send / recv / copy) and write it in a runtime format")
    .requiredOption("-m, --matrix <file>", "the matrix the schedule was planned for")
    .requiredOption("-f, --format <name>", `output format: ${Object.keys(EXPORT_FORMATS).join(", ")}`)
    .option("-o, --output <file>", "output file (- for stdout)", "-")
    .option("--split <dir>", "write one file per rank and an index into this directory")
    .option("--variant <v>", "nonblocking (post a round at once) or blocking (ordered for blocking rendezvous sends)", "nonblocking")
    .option("--element-bytes <n>", ELEMENT_BYTES_HELP)
    .action(async (file: string, o: { matrix: string; format: string; output: string; split?: string; variant: string; elementBytes?: string }) => {
      const format = Object.prototype.hasOwnProperty.call(EXPORT_FORMATS, o.format) ? EXPORT_FORMATS[o.format] : undefined;
      if (format === undefined) throw fail("export", "BAD_OPTION", `unknown format '${o.format}'; known: ${Object.keys(EXPORT_FORMATS).join(", ")}`, { field: "format" });
      if (!VARIANTS.includes(o.variant as ProgramVariant)) throw fail("export", "BAD_OPTION", `--variant must be nonblocking or blocking, got '${o.variant}'`, { field: "variant" });
      if (o.split !== undefined && o.output !== "-") throw fail("export", "BAD_OPTION", "give -o or --split, not both", { field: "split" });
      if (file === "-" && o.matrix === "-") throw fail("export", "BAD_OPTION", "the schedule and --matrix cannot both be read from stdin ('-'): give one of them as a file", { field: "matrix" });
      const m = readMatrixFile(o.matrix, matrixReadOptions(o));
      const s = await readScheduleJson(file);
      const { program: prog, scratchPeak } = lowerSchedule(m, s, { variant: o.variant as ProgramVariant });
      await format.write(prog, { output: o.output, split: o.split ?? null }, ctx);
      let scratch = 0, peak = 0;
      for (let r = 0; r < prog.p; r++) {
        scratch = Math.max(scratch, prog.layout.scratchSize[r]!);
        peak = Math.max(peak, scratchPeak[r]!);
      }
      if (o.split !== undefined || o.output !== "-") {
        ctx.io.err(`export: ${prog.algorithm}, P = ${prog.p}, ${prog.variant}: ${fmt(prog.rounds)} rounds, ${fmt(prog.ops.kind.length)} operations, largest scratch ${fmt(scratch)} elements (live peak ${fmt(peak)})\n`);
      }
    });
}
