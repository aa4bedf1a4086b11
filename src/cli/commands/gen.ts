/** commplan gen: generate a seeded matrix from a named pattern. */
import type { Command } from "commander";
import { fail } from "../../model/errors.js";
import { PATTERNS, findPattern, generatePattern } from "../../patterns/index.js";
import { matrixToCsvText, matrixToJsonText } from "../../patterns/files/matrix-write.js";
import type { CliContext } from "../context.js";
import { intOption, numberOption, writeTextTarget } from "../io.js";

/** Registers `gen`. */
export function registerGen(program: Command, ctx: CliContext): void {
  const names = [...new Set(PATTERNS.flatMap((p) => p.options.map((o) => o.name)))].sort();
  const cmd = program
    .command("gen")
    .argument("<pattern>", `pattern name (see 'commplan patterns'): ${PATTERNS.map((p) => p.name).join(", ")}`)
    .description("generate a communication matrix from a seeded pattern")
    .requiredOption("--p <n>", "number of nodes P")
    .option("--seed <s>", "random seed", "1")
    .option("-o, --output <file>", "output file, - for stdout", "-")
    .option("--format <fmt>", "json or csv", "json")
    .option("--sparse", "write the sparse JSON form (entries) even for dense matrices")
    .option("--dense", "write the dense JSON form (rows) even for sparse matrices");
  for (const n of names) cmd.option(`--${n} <value>`, `pattern option ${n} (see 'commplan patterns')`);
  cmd.action((pattern: string, o: Record<string, string | boolean | undefined>) => {
    const def = findPattern(pattern);
    const p = intOption("p", String(o["p"]), 1, 16384);
    const seed = intOption("seed", String(o["seed"]), 0, 0xffffffff);
    const given: Record<string, number> = {};
    for (const n of names) {
      const v = o[n];
      if (v === undefined) continue;
      if (!def.options.some((x) => x.name === n)) {
        throw fail("gen", "BAD_OPTION", `pattern '${pattern}' has no option --${n} (its options: ${def.options.map((x) => `--${x.name}`).join(", ") || "none"})`, { field: n });
      }
      given[n] = numberOption(n, String(v));
    }
    const m = generatePattern(pattern, p, given, seed);
    const format = String(o["format"]);
    if (format !== "json" && format !== "csv") throw fail("gen", "BAD_OPTION", `--format must be json or csv, got '${format}'`, { field: "format" });
    if (o["sparse"] && o["dense"]) throw fail("gen", "BAD_OPTION", "--sparse and --dense exclude each other");
    const text = format === "csv" ? matrixToCsvText(m) : matrixToJsonText(m, o["sparse"] ? { sparse: true } : o["dense"] ? { sparse: false } : {});
    writeTextTarget(String(o["output"]), text, ctx.io);
  });
}
