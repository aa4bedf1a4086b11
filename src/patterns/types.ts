/** The shapes shared by the pattern generators and their registry. */
import type { CommMatrix } from "../model/matrix.js";
import type { InputSpec, Resolved } from "../model/param-spec.js";
import type { Rng } from "../model/rng.js";
import type { SparseStructure } from "../model/sparse-structure.js";

/** One numeric option spec of a pattern (an integer or number, bounds inclusive, with a default). */
export type PatternOptionSpec = InputSpec<number, true>;

/** The options of a pattern by name, in the order `commplan patterns` lists them. */
export type PatternOptions = { readonly [name: string]: PatternOptionSpec };

/** One numeric option of a pattern with its name. */
export type PatternOption = PatternOptionSpec & { readonly name: string };

/** Data a pattern reads besides its numeric options (the CLI reads it from `--file`). */
export interface PatternInput {
  /** The sparse matrix of the `spmv` pattern (a Matrix Market file). */
  readonly sparse?: SparseStructure;
  /** Bytes the generated matrix may take (checked before it is made); default: half the memory, <= 32 GiB. */
  readonly maxMemory?: number;
}

/** What a pattern takes from `--file`: the kind of file and one line on what it is for. */
export interface PatternFileSpec {
  readonly kind: "sparse-matrix";
  readonly description: string;
}

/** A named matrix generator with its source, options and generate function. */
export interface PatternDef<S extends PatternOptions = PatternOptions> {
  readonly name: string;
  readonly title: string;
  readonly source: string;
  readonly options: S;
  /** fixed P for fixtures (e.g. 8), else undefined */
  readonly fixedP?: number;
  /** The pattern builds a sparse matrix (O(P + E) memory; P up to MAX_P); else a dense one (P up to MAX_DENSE_P). */
  readonly sparse?: boolean;
  /** The file the pattern requires (`--file`), absent for patterns that read none. */
  readonly file?: PatternFileSpec;
  /** Builds the matrix; `opts` must come from resolvePatternOptions; checks only what depends on p. */
  generate(p: number, opts: Resolved<S>, rng: Rng, input?: PatternInput): CommMatrix;
  /**
   * Facts about a generated matrix worth telling the user (e.g. dropped tokens), one line each; computed from the
   * matrix and the options.
   */
  notes?(m: CommMatrix, opts: Resolved<S>, input?: PatternInput): readonly string[];
  /**
   * The options that do not apply under these (resolved) options, each with the reason (halo's z options in 2D):
   * generatePattern refuses one that was given, where generate alone would drop it without a word.
   */
  inapplicable?(opts: Resolved<S>): readonly (readonly [option: string, reason: string])[];
}
