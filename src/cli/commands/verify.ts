/** commplan verify: check a schedule against its matrix and print the report (exit 1 when a check fails). */
import type { Command } from "commander";
import { fail } from "../../model/errors.js";
import { checkMemory, scheduleWorkBytes } from "../../model/memory-budget.js";
import { readScheduleFile } from "../../io/schedule-read.js";
import { readMatrixFile } from "../../io/matrix-read.js";
import { isSparse, matrixBytes, nonzeroCount } from "../../model/matrix.js";
import { checkFilesMatch } from "../made-for.js";
import { verifySchedule, type Report } from "../../verifier/index.js";
import { loadTopology } from "./topologies.js";
import { networkOption } from "./network-flags.js";
import type { CliContext } from "../context.js";
import { withProgress } from "../progress.js";
import { fmt, SCHEDULE_ARGUMENT_HELP, table } from "../io.js";
import { counted } from "../../internal/plural.js";
import { portsOption, VERIFIER_PORTS } from "../ports-option.js";
import { cliMessage } from "../option-flags.js";
import { findMachine } from "../../machines/presets.js";
import { oneLine } from "../../internal/quoted.js";

/**
 * The port count of `verify`: `--ports k` or `unlimited` (Infinity), else the machine's (`--machine`), else 1 (the
 * papers' single-port machines).
 */
export function verifyPorts(ports: string | undefined, machine: string | undefined): number {
  if (ports !== undefined) return portsOption(ports, { command: "verify", ...VERIFIER_PORTS });
  return machine === undefined ? 1 : findMachine(machine).ports;
}

/** The report with each option its texts name written as the command line's flag (how to prove what is unproven). */
export function cliReport(r: Report): Report {
  if (r.unproven === undefined) return r;
  return { ...r, unproven: r.unproven.map((u) => ({ ...u, howToProve: cliMessage(u.howToProve) })) };
}

/** The report as a text table, failing checks with their witness. */
export function formatReport(report: Report, width?: number): string {
  const r = cliReport(report);
  const rows = r.checks.map((c) => [
    c.holds ? "ok" : "FAIL",
    c.id,
    fmt(c.measured),
    c.bound === null ? "" : `bound ${fmt(c.bound)}`,
    c.title,
  ]);
  let text =
    `${oneLine(r.algorithm)}, P = ${r.p}: ${r.ok ? "all checks hold" + (r.unproven ?? []).map((u) => `; ${u.id} unproven ${u.reason}: ${u.howToProve}`).join("") : `${counted(r.checks.filter((c) => !c.holds).length, "check", "checks")} FAIL`}\n` +
    table(rows, width, 2); // a check is named by its verdict and its id, repeated in each block on a narrow terminal
  for (const c of r.checks) if (!c.holds) text += `  ${c.id}: ${c.witness ?? "(no witness)"}  [${c.source}]\n`;
  return text;
}

/** The report as commplan.report/v1 JSON: indented, with the per-node peak buffers on one line. */
export function reportJson(report: Report): string {
  const { peakBufferPerNode, ...rest } = cliReport(report);
  const text = JSON.stringify(rest, null, 2);
  if (peakBufferPerNode === undefined) return text + "\n";
  return `${text.slice(0, text.lastIndexOf("}")).trimEnd()},\n  "peakBufferPerNode": ${JSON.stringify(peakBufferPerNode)}\n}\n`;
}

/** Registers `verify`. */
export function registerVerify(program: Command, ctx: CliContext): void {
  program
    .command("verify")
    .argument("<schedule>", SCHEDULE_ARGUMENT_HELP)
    .description(
      "check a schedule against its matrix: delivery, causality, node contention (link contention with --network), bounds; exit 1 when a check fails",
    )
    .requiredOption("-m, --matrix <file>", "the matrix the schedule was planned for")
    .option(
      "--ports <k>",
      "send and receive ports per node, or 'unlimited' (a plan posting many messages per node at once, e.g. mpi-linear); default: --machine's, else 1",
    )
    .option("--machine <name>", "take the port count from this machine (see 'commplan machines')")
    .addOption(networkOption("also check link contention on a network"))
    .option("--json", "print the report as commplan.report/v1 JSON (with the peak buffer of every node)")
    .action(
      async (
        file: string,
        o: { matrix: string; ports?: string; machine?: string; json?: boolean; network?: string },
      ) => {
        const ports = verifyPorts(o.ports, o.machine);
        if (file === "-" && o.matrix === "-")
          throw fail(
            "verify",
            "BAD_OPTION",
            "the schedule and --matrix cannot both be read from stdin ('-'): give one of them as a file",
            { field: "matrix" },
          );
        const m = readMatrixFile(o.matrix, { maxMemory: ctx.maxMemory });
        const s = await readScheduleFile(file, { maxMemory: ctx.maxMemory });
        // a schedule for another matrix is told as that, before the memory its (other) P would need
        checkFilesMatch("verify", m, s, "the schedule", { doc: file, matrix: o.matrix });
        // per node: the verifier's counters, and a P x P delivery table (dense) or one slot per non-zero entry
        // (sparse); per transfer (16 bytes: its columns, read in place, and the checks' counters; measured by
        // bench/memory.ts, the peak less the matrix and the table is 28, 17 and 9 bytes a transfer at P = 1024, 2048
        // and 4096 dense) and per chunk
        const chunks = s.chunks === null ? 0 : s.chunks.origin.length;
        const pairs = isSparse(m) ? nonzeroCount(m) * 32 : s.p * s.p * 16;
        checkMemory(
          "verify",
          matrixBytes(m) + pairs + scheduleWorkBytes(s, 512, 64, 16) + chunks * 96,
          `verifying ${s.transferCount} transfers on ${s.p} nodes`,
          ctx.maxMemory,
          { file },
        );
        const network = o.network !== undefined ? loadTopology(o.network, s.p, ctx.maxMemory).routes : undefined;
        const r = withProgress(ctx.io.interactive, "verify", null, (progress) =>
          verifySchedule(m, s, { ports, ...(network ? { network } : {}), progress }),
        );
        if (!r.ok) ctx.exitCode = 1; // set first: a closed stdout pipe exits with the code set so far
        ctx.io.out(o.json ? reportJson(r) : formatReport(r, ctx.io.stdoutColumns));
      },
    );
}
