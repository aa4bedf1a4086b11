/** commplan gen: generate a seeded matrix from a named pattern. */
import { Option, type Command } from "commander";
import { fail } from "../../model/errors.js";
import { isSparse, MAX_P, nonzeroCount, type CommMatrix } from "../../model/matrix.js";
import { MAX_DENSE_P } from "../../model/limits.js";
import { MAX_SEED } from "../../model/param-spec.js";
import { PATTERNS, findPattern, generatePatternWithNotes, patternOptionList } from "../../patterns/index.js";
import { readSparseMatrixFile } from "../../io/sparse-matrix-read.js";
import { matrixFormatOfName, type MatrixFileFormat } from "../../io/matrix-read.js";
import { writeMatrixFile } from "../../io/matrix-write.js";
import { refuseOutputOntoInput } from "../../io/file-output.js";
import type { CliContext } from "../context.js";
import { intOption, MAX_ELEMENT_BYTES, numberOption, RANKS_FLAGS } from "../io.js";
import { counted } from "../../internal/plural.js";
import { quoted } from "../../internal/quoted.js";
import { namesArrow, outputFormat } from "../output-format.js";
import { JSON_SUMMARY_HELP, printJson, refuseJsonOnStdout, writtenBytes } from "./json-summary.js";
import { patternFlag, patternFlagAlias } from "../pattern-flags.js";

const FORMATS: readonly MatrixFileFormat[] = ["json", "csv", "mtx"];
/** Where commander keeps the value of a hidden camelCase alias (--elementBytes apart from --element-bytes). */
function aliasAttribute(name: string): string {
  return `${name}Flag`;
}

/**
 * How an error names pattern option `n`: a one-letter option, stored under its letter whichever of its two flags was
 * typed, by its readable flag with the letter beside it (`--non-uniformity (--l)`, as `--ranks (--p)`); another by the
 * flag given, kebab case (`byFlag`) or its camelCase alias.
 */
function flagAsGiven(n: string, byFlag: boolean): string {
  const alias = patternFlagAlias(n);
  if (alias !== undefined && alias.length === 1) return `--${patternFlag(n)} (--${n})`;
  return `--${byFlag ? patternFlag(n) : n}`;
}

/**
 * The help of pattern option `n`: what it is, in the words of each pattern that takes it (`wang-set1, wang-set2:
 * active entries in every row and every column ...`). Its camelCase spelling stays accepted, unshown, as `--p` is.
 */
function patternOptionHelp(n: string): string {
  const byText = new Map<string, string[]>();
  for (const p of PATTERNS) {
    const text = (p.options as { readonly [k: string]: { readonly description: string } | undefined })[n]?.description;
    if (text !== undefined) byText.set(text, [...(byText.get(text) ?? []), p.name]);
  }
  return [...byText].map(([text, users]) => `${users.join(", ")}: ${text}`).join("; ");
}

/** Adds every pattern option as a flag: its kebab-case spelling, a one-letter option's readable name beside it. */
function addPatternOptions(cmd: Command, names: readonly string[]): void {
  for (const n of names) {
    const alias = patternFlagAlias(n);
    if (alias !== undefined && alias.length === 1) {
      // a one-letter option: both spellings are flags of one option (`--d, --degree`)
      const opt = new Option(`--${n}, --${patternFlag(n)} <value>`, patternOptionHelp(n));
      opt.attributeName = () => n;
      cmd.addOption(opt);
      continue;
    }
    if (n !== "elementBytes") cmd.option(`--${patternFlag(n)} <value>`, patternOptionHelp(n));
    if (alias === undefined) continue;
    // the camelCase name stays accepted but the kebab-case flag is documented ('commplan patterns' lists it); stored
    // apart (commander would give both the same attribute, the later silently winning) so that giving both is refused
    const opt = new Option(`--${alias} <value>`, `pattern option ${n}`);
    opt.attributeName = () => aliasAttribute(n);
    cmd.addOption(opt.hideHelp().conflicts(n));
  }
}

/** Registers `gen`. */
export function registerGen(program: Command, ctx: CliContext): void {
  const names = [...new Set(PATTERNS.flatMap((p) => Object.keys(p.options)))].sort();
  const cmd = program
    .command("gen")
    .argument(
      "<pattern>",
      `pattern name (see 'commplan patterns'): ${PATTERNS.map((p) => p.name).join(", ")}`,
      // judged as the arguments are read, before the required options: a mistyped name gets its suggestion first;
      // a fixed-size pattern (ranka-fig1, wang-table1) supplies its own P when none is given
      (name: string) => {
        const def = findPattern(name);
        if (def.fixedP !== undefined && cmd.getOptionValue("ranks") === undefined)
          cmd.setOptionValueWithSource("ranks", String(def.fixedP), "default");
        return def.name;
      },
    )
    .description("generate a communication matrix from a seeded pattern")
    .requiredOption("--p, --ranks <n>", `number of nodes P (${ranksNote()})`)
    .option("--seed <s>", "random seed", "1")
    .option(
      "--file <path>",
      `the input file of a pattern that reads one (${PATTERNS.filter((d) => d.file !== undefined)
        .map((d) => `${d.name}: a Matrix Market sparse matrix`)
        .join("; ")})`,
    )
    .option(
      "-o, --output <file>",
      "output file, - for stdout (written in pieces, atomically; a symbolic link is followed, a device or FIFO written in place)",
      "-",
    )
    .addOption(
      new Option(
        "-f, --format <fmt>",
        "json, csv or mtx (Matrix Market); default: from the output file's extension, else json",
      ).choices(FORMATS),
    )
    .option(
      "--element-bytes <n>",
      "bytes per element stored in the matrix (default: the pattern's; CSV and Matrix Market keep it in a comment line)",
    )
    .addOption(
      new Option("--sparse", "write the sparse JSON form (entries) even for dense matrices").conflicts("dense"),
    )
    .option("--dense", "write the dense JSON form (rows) even for sparse matrices")
    .option("--json", JSON_SUMMARY_HELP);
  addPatternOptions(cmd, names);
  cmd.action(async (pattern: string, o: Record<string, string | boolean | undefined>) => {
    const def = findPattern(pattern);
    const p = intOption("p", String(o["ranks"]), 1, MAX_P, RANKS_FLAGS);
    const seed = intOption("seed", String(o["seed"]), 0, MAX_SEED);
    const given: Record<string, number> = {};
    for (const n of names) {
      const v = o[n] ?? o[aliasAttribute(n)];
      if (v === undefined) continue;
      const flag = flagAsGiven(n, o[n] !== undefined);
      if (n === "elementBytes") {
        given[n] = intOption(n, String(v), 1, MAX_ELEMENT_BYTES, flag);
        continue;
      }
      const opt = patternOptionList(def).find((x) => x.name === n);
      if (opt === undefined) {
        throw fail(
          "gen",
          "BAD_OPTION",
          `pattern ${quoted(pattern)} has no option ${flag} (its options: ${
            Object.keys(def.options)
              .map((x) => `--${patternFlag(x)}`)
              .join(", ") || "none"
          })`,
          { field: n },
        );
      }
      given[n] =
        opt.type === "integer"
          ? intOption(n, String(v), opt.min ?? Number.MIN_SAFE_INTEGER, opt.max, flag)
          : numberOption(n, String(v), flag); // the pattern checks a number's range
    }
    const output = String(o["output"]);
    refuseJsonOnStdout("gen", o["json"] === true, output);
    // a matrix has no Arrow form: by the name a reader would expect Arrow and find JSON there
    if (namesArrow(output))
      throw fail(
        "gen",
        "BAD_OPTION",
        `-o ${output}: a matrix is written as json, csv or mtx (by the extension or --format); Arrow files hold schedules`,
        { field: "output" },
      );
    // --format is one of FORMATS (commander's choices)
    const format = outputFormat("gen", o["format"] as MatrixFileFormat | undefined, output, matrixFormatOfName, "json");
    if ((o["sparse"] || o["dense"]) && format !== "json")
      throw fail(
        "gen",
        "BAD_OPTION",
        `--${o["sparse"] ? "sparse" : "dense"} applies to JSON only (the output format is ${format})`,
      );
    const file = o["file"] as string | undefined;
    if (file !== undefined && def.file === undefined)
      throw fail("gen", "BAD_OPTION", `pattern ${quoted(pattern)} reads no file; it takes no --file`, {
        field: "file",
      });
    await refuseOutputOntoInput("gen", [file], [["-o", output]]);
    const maxMemory = ctx.maxMemory;
    const input = file !== undefined ? { sparse: readSparseMatrixFile(file, { maxMemory }), maxMemory } : { maxMemory };
    const { matrix: m, notes } = generatePatternWithNotes(pattern, p, given, seed, input);
    for (const note of notes) ctx.io.err(`gen: ${pattern}: ${note}\n`);
    await writeMatrixFile(m, output, format, {
      ...(o["sparse"] ? { sparse: true } : o["dense"] ? { sparse: false } : {}),
      stdout: ctx.stdout,
    });
    reportGen(ctx, { pattern, seed, format, output, notes, json: o["json"] === true }, m);
  });
}

/** --ranks' range: a dense pattern's up to MAX_DENSE_P, a sparse one's up to MAX_P; a fixed-size one needs none. */
function ranksNote(): string {
  const fixed = PATTERNS.filter((d) => d.fixedP !== undefined).map((d) => d.name);
  const sparse = PATTERNS.filter((d) => d.sparse === true).map((d) => d.name);
  return `1..${MAX_DENSE_P}, or 1..${MAX_P} for ${sparse.join(" and ")}, which make a sparse matrix; ${fixed.join(" and ")} give their own`;
}

/**
 * What gen tells of the matrix it wrote: the commplan.gen/v1 summary on stdout with --json, and a summary line on
 * stderr when the matrix went to a file (on stdout the line would join the data).
 */
function reportGen(
  ctx: CliContext,
  r: {
    pattern: string;
    seed: number;
    format: MatrixFileFormat;
    output: string;
    notes: readonly string[];
    json: boolean;
  },
  m: CommMatrix,
): void {
  const nonzeros = nonzeroCount(m);
  if (r.json)
    printJson(ctx, {
      format: "commplan.gen/v1",
      pattern: r.pattern,
      p: m.p,
      seed: r.seed,
      elementBytes: m.elementBytes,
      storage: isSparse(m) ? "sparse" : "dense",
      nonzeros,
      matrixFormat: r.format,
      output: r.output,
      bytes: writtenBytes(r.output),
      notes: r.notes,
    });
  if (r.output !== "-")
    ctx.io.err(
      `gen: ${r.pattern}: P = ${m.p}, ${counted(nonzeros, "non-zero entry", "non-zero entries")}, ${r.format} -> ${r.output}\n`,
    );
}
