/** commplan stats: the statistics of a matrix (000 sec 2, 004 sec 3). */
import type { Command } from "commander";
import { matrixStats, type MatrixStats } from "../../model/matrix-stats.js";
import { readMatrixFile } from "../../io/matrix-read.js";
import { nonzeroCount } from "../../model/matrix.js";
import type { CliContext } from "../context.js";
import { ELEMENT_BYTES_HELP, fmt, matrixReadOptions, table } from "../io.js";

/** The scalar statistics as a plain object (for --json). */
export function statsSummary(s: MatrixStats): Record<string, number | string | boolean> {
  return {
    p: s.p,
    r: s.r,
    c: s.c,
    t: s.t,
    f: s.f,
    g: s.g,
    h: s.h,
    mMax: s.mMax,
    mMaxOffDiagonal: s.mMaxOffDiagonal,
    lMax: s.lMax,
    messages: s.messages,
    networkTotal: s.networkTotal,
    selfTotal: s.selfTotal,
    density: s.density,
    d: s.d,
    classification: s.classification,
    uniform: s.uniform,
  };
}

/** The per-node statistics r_i, c_j, f_i, g_j (000 sec 2) as arrays indexed by node (for --json --per-node). */
export function perNodeStats(s: MatrixStats): { r: number[]; c: number[]; f: number[]; g: number[] } {
  return { r: Array.from(s.rowTraffic), c: Array.from(s.colTraffic), f: Array.from(s.fanOut), g: Array.from(s.fanIn) };
}

/** The per-node table: one row per node with r_i, c_j, f_i, g_j of that node. */
function perNodeTable(s: MatrixStats, width: number | undefined): string {
  const rows: string[][] = [["node", "r_i", "c_j", "f_i", "g_j"]];
  for (let i = 0; i < s.p; i++)
    rows.push([String(i), fmt(s.rowTraffic[i]!), fmt(s.colTraffic[i]!), fmt(s.fanOut[i]!), fmt(s.fanIn[i]!)]);
  return table(rows, width);
}

/** Registers `stats`. */
export function registerStats(program: Command, ctx: CliContext): void {
  program
    .command("stats")
    .argument(
      "[matrix]",
      "matrix file: JSON, CSV or Matrix Market (by the .json/.csv/.mtx extension, else the content); - or none for stdin (none: only when stdin is not a terminal)",
    )
    .description(
      "print the statistics of a matrix: r, c, t, f, g, h (000 sec 2), M_max, L_max (004 sec 3), density, d (003), class; --per-node adds r_i, c_j, f_i, g_j of every node",
    )
    .option("--element-bytes <n>", ELEMENT_BYTES_HELP)
    .option(
      "--per-node",
      "also print r_i, c_j, f_i, g_j of every node: a table after the summary, or with --json the arrays perNode.r, .c, .f, .g (P entries each; left out without --per-node to keep the output small)",
    )
    .option("--json", "machine-readable output")
    .action(
      (given: string | undefined, o: { json?: boolean; perNode?: boolean; elementBytes?: string }, cmd: Command) => {
        if (given === undefined && ctx.io.stdinIsTerminal === true)
          cmd.error("error: missing required argument 'matrix' (give a file, or - to read the terminal)");
        const file = given ?? "-";
        const m = readMatrixFile(file, matrixReadOptions(o, ctx.maxMemory));
        const all = matrixStats(m);
        const s = statsSummary(all);
        if (o.json) {
          const text = JSON.stringify(
            { file, elementBytes: m.elementBytes, storage: m.sparse ? "sparse" : "dense", ...s },
            null,
            2,
          );
          if (!o.perNode) return ctx.io.out(text + "\n");
          // each per-node array on one line, not one line per node
          const arrays = Object.entries(perNodeStats(all)).map(
            ([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`,
          );
          return ctx.io.out(`${text.slice(0, -2)},\n  "perNode": {\n${arrays.join(",\n")}\n  }\n}\n`);
        }
        const rows: string[][] = [
          ["P", fmt(m.p), "nodes"],
          ["r", fmt(s["r"] as number), "max outgoing traffic (elements, diagonal excluded)"],
          ["c", fmt(s["c"] as number), "max incoming traffic"],
          ["t", fmt(s["t"] as number), "max(r, c)"],
          ["f", fmt(s["f"] as number), "max fan-out (messages)"],
          ["g", fmt(s["g"] as number), "max fan-in"],
          ["h", fmt(s["h"] as number), "max(f, g)"],
          ["M_max", fmt(s["mMax"] as number), "longest message (diagonal included, 004)"],
          ["L_max", fmt(s["lMax"] as number), "max traffic at a node (diagonal included, 004)"],
          ["messages", fmt(s["messages"] as number), "non-zero off-diagonal entries"],
          ["density", fmt(s["density"] as number), "fill: messages / P(P-1)"],
          ["d", fmt(s["d"] as number), "messages per node, messages / P (003's density d)"],
          ["class", `${String(s["classification"])}${s["uniform"] ? ", uniform" : ""}`, "000 sec 2"],
          m.sparse
            ? ["storage", "sparse", `${fmt(nonzeroCount(m))} non-zero entries in compressed rows (docs/matrix.md)`]
            : ["storage", "dense", "P x P array (docs/matrix.md)"],
        ];
        ctx.io.out(
          table(rows, ctx.io.stdoutColumns) + (o.perNode ? "\n" + perNodeTable(all, ctx.io.stdoutColumns) : ""),
        );
      },
    );
}
