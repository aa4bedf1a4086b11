/** commplan show: the step x sender grid of one stage, as in 004 figure 10 (X for stalls), as text or SVG. */
import { Option, type Command } from "commander";
import { readScheduleFile } from "../../io/schedule-read.js";
import { refuseOutputOntoInput } from "../../io/file-output.js";
import { checkMemory } from "../../model/memory-budget.js";
import type { Schedule } from "../../model/schedule.js";
import { nodeArrayRow, stepGrid, stepGridSvg, stepGridText } from "../../export/step-grid.js";
import { fail } from "../../model/errors.js";
import { namesStdout, refuseStdoutTarget } from "./json-summary.js";
import type { CliContext } from "../context.js";
import { intOption, SCHEDULE_ARGUMENT_HELP, writeTextTarget } from "../io.js";

/** Parses --nodes "16,17,18" or "16-23,58". */
export function nodeList(v: string): number[] {
  const out: number[] = [];
  for (const part of v.split(",")) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m)
      throw fail(
        "show",
        "BAD_OPTION",
        `--nodes must be a comma-separated list of nodes or ranges like 16-23, got '${v}'`,
        { field: "nodes" },
      );
    const a = Number(m[1]),
      b = m[2] === undefined ? a : Number(m[2]);
    if (b < a || b - a > 1 << 20)
      throw fail(
        "show",
        "BAD_OPTION",
        `--nodes: bad range '${part.trim()}' (${b < a ? "it ends before it starts" : "more than 2^20 nodes"})`,
        { field: "nodes" },
      );
    for (let u = a; u <= b; u++) out.push(u);
  }
  return out;
}

/** Bytes per grid cell (the cell, its text, and SVG markup when drawn) and per grid row, rough upper figures. */
const CELL_BYTES = 48,
  SVG_CELL_BYTES = 160,
  ROW_BYTES = 200;

/**
 * Refuses up front a grid past the memory budget: steps of the stage x senders (at most P, at most its transfers and
 * stalls).
 */
function checkGridMemory(s: Schedule, stage: number, svg: boolean, file: string, maxMemory: number): void {
  const st = s.stages[stage];
  if (st === undefined) return; // the grid names the missing stage
  const first = st.firstStep,
    end = first + st.stepCount;
  const events = s.stepStart[end]! - s.stepStart[first]! + (s.stallStart[end]! - s.stallStart[first]!);
  const cols = Math.min(s.p, events);
  checkMemory(
    "show",
    st.stepCount * (cols * (CELL_BYTES + (svg ? SVG_CELL_BYTES : 0)) + ROW_BYTES),
    `the grid of stage ${stage + 1} (${st.stepCount} steps x ${cols} senders)`,
    maxMemory,
    { file },
  );
}

/** Registers `show`. */
export function registerShow(program: Command, ctx: CliContext): void {
  program
    .command("show")
    .argument("<schedule>", SCHEDULE_ARGUMENT_HELP)
    .description(
      "print the step x sender grid of one stage (each cell the receiver, X a stall, . idle), as in 004 figure 10",
    )
    .option("--stage <k>", "stage number, 1-based (stage I is 1)", "1")
    .addOption(
      new Option(
        "--row <r>",
        "0-based row of the four-stage node array (row-major, C = ceil(sqrt P) columns, or floor(sqrt P) when P = ceil(sqrt P) * floor(sqrt P) - 1; docs/algorithms/four-stage.md): its nodes, plus outside nodes sending into it in this stage",
      ).conflicts("nodes"),
    )
    .option(
      "--nodes <list>",
      "senders to show, e.g. 16-23,58; a node given twice is shown once (default: every node active in the stage)",
    )
    .option(
      "--svg <file>",
      "also draw the grid as SVG to FILE (- for stdout instead of the text); past 64 senders or steps a compact picture, each cell coloured by (receiver - sender) mod P",
    )
    .option("--json", "machine-readable output")
    .action(async (file: string, o: { stage: string; row?: string; nodes?: string; svg?: string; json?: boolean }) => {
      // --svg /dev/stdout (this process's stdout) is --svg -: the SVG in place of the text
      const svg = namesStdout(o.svg) ? "-" : o.svg;
      if (o.json) {
        const why = "stdout carries the SVG in place of the text, so --json has nowhere to go; write --svg to a file";
        refuseStdoutTarget("show", "--svg", o.svg, why, "svg");
      }
      const stage = intOption("stage", o.stage, 1) - 1;
      await refuseOutputOntoInput("show", [file], [["--svg", svg]]);
      const s = await readScheduleFile(file, { maxMemory: ctx.maxMemory });
      checkGridMemory(s, stage, svg !== undefined, file, ctx.maxMemory);
      const senders =
        o.row !== undefined
          ? nodeArrayRow(s.p, intOption("row", o.row, 0))
          : o.nodes !== undefined
            ? nodeList(o.nodes)
            : undefined;
      const g = stepGrid(s, stage, senders, o.row !== undefined);
      if (svg !== undefined) await writeTextTarget(svg, stepGridSvg(g), ctx.stdout);
      if (svg === "-") return;
      if (o.json)
        return ctx.io.out(
          JSON.stringify({
            format: "commplan.show/v1",
            stage: g.stage + 1,
            name: g.stageName,
            senders: g.senders,
            steps: g.rows,
          }) + "\n",
        );
      ctx.io.out(stepGridText(g, ctx.io.stdoutColumns));
    });
}
