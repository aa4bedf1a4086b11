/** The shapes shared by the pattern generators and their registry. */
import type { CommMatrix } from "../model/matrix.js";
import type { Rng } from "../model/rng.js";

/** One numeric option of a pattern (bounds inclusive). */
export interface PatternOption {
  readonly name: string;
  readonly description: string;
  readonly default: number;
  readonly min: number;
  readonly max?: number;
  readonly integer: boolean;
}

/** A named matrix generator with its source, options and generate function. */
export interface PatternDef {
  readonly name: string;
  readonly title: string;
  readonly source: string;
  readonly options: readonly PatternOption[];
  /** fixed P for fixtures (e.g. 8), else undefined */
  readonly fixedP?: number;
  /** Builds the matrix; `opts` must come from resolvePatternOptions; checks only what depends on p. */
  generate(p: number, opts: Readonly<Record<string, number>>, rng: Rng): CommMatrix;
}
