/**
 * Pattern registry: every matrix generator of commplan by its CLI name, with option checking (docs/patterns.md).
 */
import { deepFreeze } from "../internal/deep-freeze.js";
import { fail } from "../model/errors.js";
import { MAX_DENSE_P, MAX_P, type CommMatrix } from "../model/matrix.js";
import { checkMaxMemory, checkMemory, denseMatrixBytes } from "../model/memory-budget.js";
import { checkArg, checkOptionsObject, describeValue, isOptionsObject } from "../model/option-checks.js";
import { memoryBudgetOf } from "../host/memory.js";
import { checkSeed, resolveSpecs, type Resolved } from "../model/param-spec.js";
import { createRng } from "../model/rng.js";
import type { PatternDef, PatternInput, PatternOption, PatternOptions } from "./types.js";
export type {
  PatternDef,
  PatternFileSpec,
  PatternInput,
  PatternOption,
  PatternOptions,
  PatternOptionSpec,
} from "./types.js";
import { rankaFig1 } from "./ranka-fig1.js";
import { wangTable1 } from "./wang-table1.js";
import { rankaKl } from "./ranka-kl.js";
import { wangSet1, wangSet2 } from "./wang-test-sets.js";
import { liuPattern1, liuPattern2, liuPattern3 } from "./liu-patterns.js";
import { oneSpike } from "./one-spike.js";
import { transpose2d } from "./transpose-2d.js";
import { hRelation } from "./h-relation.js";
import { uniformPattern } from "./uniform.js";
import { zeroPattern } from "./zero.js";
import { randomPattern } from "./random-matrix.js";
import { moePattern } from "./moe.js";
import { haloPattern } from "./halo.js";
import { shufflePattern } from "./shuffle.js";
import { spmvPattern } from "./spmv.js";
import { didYouMean } from "../internal/did-you-mean.js";
import { sparseStructureProblem } from "../model/sparse-structure.js";

/** Every pattern commplan knows, in the order `commplan patterns` lists them. */
export const PATTERNS: readonly PatternDef[] = deepFreeze([
  rankaFig1,
  wangTable1,
  rankaKl,
  wangSet1,
  wangSet2,
  liuPattern1,
  liuPattern2,
  liuPattern3,
  oneSpike,
  transpose2d,
  hRelation,
  uniformPattern,
  zeroPattern,
  randomPattern,
  moePattern,
  haloPattern,
  shufflePattern,
  spmvPattern,
]);

/** The pattern called `name`; throws a BAD_OPTION CommplanError listing the known names. */
export function findPattern(name: string): PatternDef {
  return patternNamed(name, "findPattern");
}

/** findPattern for the public function `fn`, which its refusal of a name that is not a string names. */
export function patternNamed(name: string, fn: string): PatternDef {
  checkArg("patterns", fn, "name", name, typeof name === "string", "a pattern's name (a string)", "BAD_OPTION");
  const def = PATTERNS.find((d) => d.name === name);
  if (def === undefined) {
    throw fail(
      "patterns",
      "BAD_OPTION",
      `unknown pattern '${String(name)}'${didYouMean(
        name,
        PATTERNS.map((d) => d.name),
      )}; known: ${PATTERNS.map((d) => d.name).join(", ")}`,
      { field: "pattern" },
    );
  }
  return def;
}

/**
 * Fills defaults and checks every option (range, integer, unknown names) once; throws CommplanError naming the option.
 */
export function resolvePatternOptions<S extends PatternOptions>(
  def: PatternDef<S>,
  given: { readonly [k: string]: unknown },
): Resolved<S> {
  checkPatternDef("resolvePatternOptions", def);
  checkArg(
    "patterns",
    "resolvePatternOptions",
    "given",
    given,
    isOptionsObject(given),
    "an object of option values",
    "BAD_OPTION",
  );
  return resolveSpecs(def.options, given, {
    module: "patterns",
    label: (name) => `option '${name}' of pattern '${def.name}'`,
    unknown: (name, known, suggestion) =>
      `unknown option '${name}' for pattern '${def.name}'${suggestion}; known: ${known}`,
    field: (name) => name,
  });
}

/** The options of a pattern with their names, in order. */
export function patternOptionList(def: PatternDef): PatternOption[] {
  return Object.entries(def.options).map(([name, o]) => ({ name, ...o }));
}

/**
 * Checks p for a pattern (a positive integer up to MAX_P for a sparse pattern, MAX_DENSE_P for a dense one within
 * `maxMemory`, equal to fixedP when the pattern has one).
 */
export function checkPatternP(def: PatternDef, p: unknown, maxMemory?: number): number {
  const max = def.sparse === true ? MAX_P : MAX_DENSE_P;
  if (typeof p !== "number" || !Number.isInteger(p) || p < 1 || p > max) {
    const why = def.sparse === true ? "" : ` (pattern '${def.name}' makes a dense matrix)`;
    throw fail("patterns", "BAD_OPTION", `p must be an integer in 1..${max}${why}, got ${describeValue(p)}`, {
      field: "p",
    });
  }
  if (def.sparse !== true)
    checkMemory("patterns", denseMatrixBytes(p), `the dense ${p} x ${p} matrix`, memoryBudgetOf({ maxMemory }), {
      field: "p",
    });
  if (def.fixedP !== undefined && p !== def.fixedP) {
    throw fail(
      "patterns",
      "BAD_OPTION",
      `pattern '${def.name}' is a fixed ${def.fixedP} x ${def.fixedP} matrix; p must be ${def.fixedP}, got ${p}`,
      { field: "p" },
    );
  }
  return p;
}

/** The largest seed accepted; seeds are unsigned 32-bit integers. */
export { MAX_SEED } from "../model/param-spec.js";

/** Checks that `input` holds what the pattern's `file` asks for (and nothing for a pattern that reads no file). */
export function checkPatternInput(def: PatternDef, input: PatternInput): void {
  checkPatternDef("checkPatternInput", def);
  checkArg(
    "patterns",
    "checkPatternInput",
    "input",
    input,
    isOptionsObject(input),
    "a PatternInput object ({ sparse?, maxMemory? })",
    "BAD_OPTION",
  );
  const sparseProblem = input.sparse === undefined ? null : sparseStructureProblem(input.sparse);
  if (sparseProblem !== null)
    throw fail("patterns", "BAD_INPUT", `checkPatternInput: input.sparse: ${sparseProblem}`, { field: "sparse" });
  const hasSparse = input.sparse !== undefined;
  if (def.file === undefined && hasSparse)
    throw fail("patterns", "BAD_OPTION", `pattern '${def.name}' reads no file; it takes no input sparse`, {
      field: "file",
    });
  if (def.file?.kind === "sparse-matrix" && !hasSparse)
    throw fail(
      "patterns",
      "BAD_OPTION",
      `pattern '${def.name}' needs a sparse matrix: input sparse, a Matrix Market structure (${def.file.description})`,
      { field: "file" },
    );
}

/** Refuses a def that is not a PatternDef (an entry of PATTERNS or findPattern's), naming `fn`. */
function checkPatternDef(fn: string, def: unknown): void {
  const ok = isOptionsObject(def) && typeof def["name"] === "string" && isOptionsObject(def["options"]);
  checkArg("patterns", fn, "def", def, ok, "a PatternDef (an entry of PATTERNS or findPattern's)", "BAD_OPTION");
}

/**
 * Generates pattern `name` for P nodes from a seed, after checking p, the seed, every option and the input (`--file`)
 * it needs.
 */
export function generatePattern(
  name: string,
  p: number,
  given: { readonly [k: string]: number },
  seed: number,
  input: PatternInput = {},
): CommMatrix {
  return patternWithNotes(name, p, given, seed, input, "generatePattern").matrix;
}

/**
 * generatePattern, with the pattern's notes on the result (dropped tokens, the process grid used, ...; empty for most
 * patterns).
 */
export function generatePatternWithNotes(
  name: string,
  p: number,
  given: { readonly [k: string]: number },
  seed: number,
  input: PatternInput = {},
): { readonly matrix: CommMatrix; readonly notes: readonly string[] } {
  return patternWithNotes(name, p, given, seed, input, "generatePatternWithNotes");
}

/** generatePatternWithNotes called as the public function `fn` (named when the pattern's name is not a string). */
function patternWithNotes(
  name: string,
  p: number,
  given: { readonly [k: string]: number },
  seed: number,
  input: PatternInput,
  fn: string,
): { readonly matrix: CommMatrix; readonly notes: readonly string[] } {
  const def = patternNamed(name, fn);
  checkOptionsObject("patterns", "input", input);
  checkMaxMemory("patterns", input.maxMemory);
  checkPatternP(def, p, input.maxMemory);
  checkSeed("patterns", seed);
  checkOptionsObject("patterns", "options", given);
  const opts = resolvePatternOptions(def, given ?? {});
  for (const [option, reason] of def.inapplicable?.(opts) ?? [])
    if (given !== undefined && given !== null && Object.hasOwn(given, option))
      throw fail("patterns", "BAD_OPTION", `option '${option}' of pattern '${def.name}' ${reason}`, { field: option });
  checkPatternInput(def, input);
  const matrix = def.generate(p, opts, createRng(seed), input);
  return { matrix, notes: def.notes?.(matrix, opts, input) ?? [] };
}
