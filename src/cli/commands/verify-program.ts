/**
 * commplan verify-program: check a lowered program (commplan.program/v1) against its matrix; exit 1 when a check fails.
 */
import type { Command } from "commander";
import { fail } from "../../model/errors.js";
import { readMatrixFile } from "../../io/matrix-read.js";
import { checkFilesMatch } from "../made-for.js";
import { rankFieldPlace, readProgramJson } from "../../io/program-json-read.js";
import { checkMemory, NO_MACHINE_BYTES } from "../../model/memory-budget.js";
import { matrixBytes } from "../../model/matrix.js";
import { programCheckBytes, programTableBytes, verifyProgram } from "../../verifier/program/index.js";
import { CHECK_BYTES_PER_SLOT, largestBufferSize } from "../../verifier/program/check-bytes.js";
import type { CliContext } from "../context.js";
import { fmt } from "../io.js";
import { formatReport, reportJson } from "./verify.js";

/** Registers `verify-program`. */
export function registerVerifyProgram(program: Command, ctx: CliContext): void {
  program
    .command("verify-program")
    .argument(
      "<program>",
      "program JSON (commplan.program/v1: a whole program, or a --split directory or its index.json, whose rank files are read relative to it; - for stdin, relative to the current directory)",
    )
    .description(
      "check a lowered program by executing it on tagged elements: layout, send/receive matching, delivery to every displacement, scratch safety, deadlock freedom; exit 1 when a check fails",
    )
    .requiredOption("-m, --matrix <file>", "the matrix the program was lowered for")
    .option("--json", "print the report as commplan.report/v1 JSON")
    .action((file: string, o: { matrix: string; json?: boolean }) => {
      const m = readMatrixFile(o.matrix, { maxMemory: ctx.maxMemory });
      const doc = readProgramJson(file, { maxMemory: ctx.maxMemory });
      if (doc.ranks.length !== doc.program.p) {
        throw fail(
          "verify-program",
          "BAD_INPUT",
          `holds ${doc.ranks.length} of ${doc.program.p} ranks: give the whole program or the split's directory`,
          { file },
        );
      }
      // a program for another matrix is told as that, naming both files, before the memory its P would need
      checkFilesMatch("verify-program", m, doc.program, "the program", { doc: file, matrix: o.matrix });
      // the checks' memory as the budget bounds it (what the program and the matrix hold, and what checking allocates)
      const prog = doc.program;
      // a buffer whose slots alone no machine could hold is named: the field to blame, not only the sum
      // (named where it is written: a split program's rank file, and the JSON pointer there)
      const top = largestBufferSize(prog);
      const place = CHECK_BYTES_PER_SLOT * top.elements > NO_MACHINE_BYTES && rankFieldPlace(doc, top.rank, top.field);
      checkMemory(
        "verify-program",
        matrixBytes(m) + programTableBytes(prog) + programCheckBytes(m, prog),
        `checking ${prog.ops.rank.length} operations on P = ${prog.p}` +
          (place ? ` (rank ${top.rank}'s ${top.field} at ${place.field} is ${fmt(top.elements)} elements)` : ""),
        ctx.maxMemory,
        place || { file },
      );
      const r = verifyProgram(m, prog, { maxElements: Number.MAX_SAFE_INTEGER });
      if (!r.ok) ctx.exitCode = 1;
      ctx.io.out(o.json ? reportJson(r) : formatReport(r, ctx.io.stdoutColumns));
    });
}
