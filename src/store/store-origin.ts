/** StoreOrigin (where an entry's matrix came from) and its one check, as a caller gives it to addPlan or getOrPlan. */
import { fail } from "../model/errors.js";
import { describeValue, isOptionsObject } from "../model/option-checks.js";

/**
 * Where an entry's matrix came from, kept in the entry so `store list` can say it without the matrix: a pattern with
 * its options, seed and P (precompute), or the name of the matrix file planned (`store add`; "-" for standard input).
 * Not part of the key: the first writer's record stays.
 */
export type StoreOrigin =
  | {
      readonly pattern: string;
      readonly options: { readonly [k: string]: number };
      readonly seed: number;
      readonly p: number;
    }
  | { readonly matrixFile: string; readonly p: number };

const PATTERN_KEYS = ["pattern", "options", "seed", "p"];
const FILE_KEYS = ["matrixFile", "p"];

/** What is wrong with `o` as a StoreOrigin (the shape schemas/store-list.v1.schema.json gives an origin), or null. */
function originProblem(o: unknown): string | null {
  if (!isOptionsObject(o)) return `must be { pattern, options, seed, p } or { matrixFile, p }, got ${describeValue(o)}`;
  const keys = "matrixFile" in o ? FILE_KEYS : PATTERN_KEYS;
  const extra = Object.keys(o).find((k) => !keys.includes(k));
  if (extra !== undefined) return `has an unknown key '${extra}' (known: ${keys.join(", ")})`;
  const missing = keys.find((k) => !(k in o));
  if (missing !== undefined) return `has no ${missing}`;
  if (!(typeof o.p === "number" && Number.isSafeInteger(o.p) && o.p >= 1))
    return `p must be a positive integer, got ${describeValue(o.p)}`;
  if ("matrixFile" in o)
    return typeof o.matrixFile === "string" ? null : `matrixFile must be a string, got ${describeValue(o.matrixFile)}`;
  if (typeof o.pattern !== "string") return `pattern must be a pattern's name, got ${describeValue(o.pattern)}`;
  if (!(typeof o.seed === "number" && Number.isSafeInteger(o.seed) && o.seed >= 0))
    return `seed must be an integer >= 0, got ${describeValue(o.seed)}`;
  const options = o.options;
  if (!isOptionsObject(options)) return `options must be an object of name: number, got ${describeValue(options)}`;
  const bad = Object.entries(options).find(([, v]) => typeof v !== "number" || !Number.isFinite(v));
  return bad === undefined ? null : `options.${bad[0]} must be a finite number, got ${describeValue(bad[1])}`;
}

/**
 * Throws a one-line BAD_OPTION error of `module` on field origin unless `origin` is null, undefined or of the
 * StoreOrigin shape (a pattern with its options, seed and P, or a matrix file's name with P; no other keys).
 */
export function checkStoreOrigin(module: string, origin: unknown): StoreOrigin | null {
  if (origin === undefined || origin === null) return null;
  const problem = originProblem(origin);
  if (problem !== null) throw fail(module, "BAD_OPTION", `origin ${problem}`, { field: "origin" });
  return origin as StoreOrigin;
}
