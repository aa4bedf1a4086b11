/** commplan te-table: the table of 001 sec 4 (rounds and time/h for random h-relations) beside our protocols. */
import { Option, type Command } from "commander";
import { fail } from "../../model/errors.js";
import {
  checkOffline,
  compareDirect,
  directCheckRows,
  NOISE_Z,
  offlineCheckRows,
  PAPER_H_OVER_N,
  PAPER_N,
  runTeTable,
  TE_TABLE_ALGORITHMS,
  teTableRows,
  teTableViolations,
} from "../../experiments/index.js";
import type { CliContext } from "../context.js";
import { intOption, table } from "../io.js";
import { counted } from "../../internal/plural.js";

/**
 * Parses a comma-separated list of integers (h values may carry a trailing N: "4N,8N"); a value given twice is kept
 * once, where it first appears (as compare's --algorithms and --sweep drop repeats).
 */
function intList(name: string, flag: string, text: string, min: number, max: number, suffix = ""): number[] {
  const items = text
    .split(",")
    .map((x) => x.trim())
    .filter((x) => x !== "");
  if (items.length === 0)
    throw fail("te-table", "BAD_OPTION", `${flag} needs at least one value, got '${text}'`, { field: name });
  const values = items.map((x) => {
    const bare = suffix && x.toUpperCase().endsWith(suffix) ? x.slice(0, -suffix.length) : x;
    if (suffix && !/^\d+$/.test(bare))
      throw fail(
        "te-table",
        "BAD_OPTION",
        `${flag} takes integers in ${min}..${max}, each bare or followed by ${suffix} (e.g. 4 or 4${suffix}), got '${x}'`,
        { field: name },
      );
    return intOption(name, bare, min, max, flag);
  });
  return [...new Set(values)];
}

/** Registers `te-table`. */
export function registerTeTable(program: Command, ctx: CliContext): void {
  program
    .command("te-table")
    .description(
      "001 sec 4 table: rounds and time/h of the paper's protocols beside te-direct, te-balanced, te-offline (mean over seeds)",
    )
    .option("--seeds <k>", "random h-relations per cell (seeds 1..k)", "10")
    .addOption(
      letterOption("--n, --nodes <list>", `comma-separated N values, a repeat dropped (default ${PAPER_N.join(",")})`),
    )
    .addOption(
      letterOption(
        "--h, --h-over-n <list>",
        `comma-separated h / N values, e.g. 4N,8N or 4,8, a repeat dropped (default ${PAPER_H_OVER_N.join(",")})`,
      ),
    )
    .option("--json", "machine-readable output")
    .action((o: { seeds: string; n?: string; h?: string; json?: boolean }) => {
      const seeds = intOption("seeds", o.seeds, 1, 10000);
      const ns = o.n === undefined ? [...PAPER_N] : intList("n", "--nodes (--n)", o.n, 2, 4096);
      const hs = o.h === undefined ? [...PAPER_H_OVER_N] : intList("h", "--h-over-n (--h)", o.h, 1, 1024, "N");
      // progress: one line rewritten in place on a terminal, nothing when stderr is a file or pipe
      const progress = ctx.io.interactive ? (line: string) => ctx.io.err(`\r\x1b[K${line}`) : undefined;
      const cells = runTeTable({ ns, hOverNs: hs, seeds, ...(progress ? { progress } : {}) });
      if (progress) ctx.io.err("\r\x1b[K");
      if (o.json) {
        const checks = {
          noiseZ: NOISE_Z,
          direct: cells.map(compareDirect),
          offline: cells.map(checkOffline),
          violations: teTableViolations(cells),
        };
        ctx.io.out(
          JSON.stringify(
            {
              format: "commplan.te-table/v1",
              seeds,
              algorithms: TE_TABLE_ALGORITHMS,
              source: "001 sec 4, table; time/h = rounds * N / h",
              cells,
              checks,
            },
            null,
            2,
          ) + "\n",
        );
        return;
      }
      ctx.io.out(
        `Total-exchange rounds for random h-relations (001 sec 4), mean over ${counted(seeds, "seed", "seeds")}; time/h = rounds * N / h ('-': not in the paper's text, '*': derived from the partner column)\n`,
      );
      ctx.io.out(table(teTableRows(cells), ctx.io.stdoutColumns));
      ctx.io.out(
        `\nte-direct against the paper's direct column (within noise: |mean - paper| <= ${NOISE_Z} SE, SE = max(sample SE, model sd / sqrt(seeds)); '-' with one seed)\n`,
      );
      ctx.io.out(table(directCheckRows(cells), ctx.io.stdoutColumns));
      ctx.io.out("\nte-offline against the paper's protocol and the lower bounds\n");
      ctx.io.out(table(offlineCheckRows(cells), ctx.io.stdoutColumns));
      for (const v of teTableViolations(cells)) ctx.io.out(`goal missed: ${v}\n`);
    });
}

/** An option with a one-letter flag and a readable one (`--n, --nodes`), kept under the letter's name. */
function letterOption(flags: string, description: string): Option {
  const option = new Option(flags, description);
  const letter = flags.slice(2, 3);
  option.attributeName = () => letter;
  return option;
}
