/** commplan algorithms | machines | patterns: what is available, with sources. */
import type { Command } from "commander";
import { MACHINES } from "../../machines/presets.js";
import { PATTERNS } from "../../patterns/index.js";
import { PLANNERS } from "../../planner/registry.js";
import type { CliContext } from "../context.js";
import { fmt, table } from "../io.js";

/** Registers the three listing commands. */
export function registerLists(program: Command, ctx: CliContext): void {
  program
    .command("algorithms")
    .description("list the planning algorithms with their sources")
    .option("--json", "machine-readable output")
    .action((o: { json?: boolean }) => {
      const rows = PLANNERS.map((p) => ({ name: p.name, title: p.title, source: p.source }));
      ctx.io.out(o.json ? JSON.stringify(rows, null, 2) + "\n" : table(rows.map((r) => [r.name, r.title, `[${r.source}]`])));
    });
  program
    .command("machines")
    .description("list the machine models (start-up T_s, per-byte t_c, t_d, t_m in microseconds) with their sources")
    .option("--json", "machine-readable output")
    .action((o: { json?: boolean }) => {
      if (o.json) return ctx.io.out(JSON.stringify(MACHINES, null, 2) + "\n");
      ctx.io.out(table([["name", "T_s", "t_c", "t_d", "t_m", "ports", "source"], ...MACHINES.map((m) => [m.name, fmt(m.ts), fmt(m.tc), fmt(m.td), fmt(m.tm), String(m.ports), m.source])]));
    });
  program
    .command("patterns")
    .description("list the matrix patterns of 'commplan gen' with their options and sources")
    .option("--json", "machine-readable output")
    .action((o: { json?: boolean }) => {
      if (o.json) return ctx.io.out(JSON.stringify(PATTERNS.map(({ generate: _g, ...rest }) => rest), null, 2) + "\n");
      let text = "";
      for (const p of PATTERNS) {
        text += `${p.name}${p.fixedP !== undefined ? ` (P = ${p.fixedP})` : ""}: ${p.title} [${p.source}]\n`;
        for (const x of p.options) text += `    --${x.name} (default ${x.default}${x.integer ? ", integer" : ""}, >= ${x.min}${x.max !== undefined ? `, <= ${x.max}` : ""}): ${x.description}\n`;
      }
      ctx.io.out(text);
    });
}
