/**
 * Process grids: P factored into a balanced 2D or 3D grid (as MPI_Dims_create does) and rank <-> coordinate maps
 * (row-major, like MPI_Cart_create).
 */
import { optionAgainstP } from "./pattern-options.js";
import { checkArg, isIntIn } from "../model/option-checks.js";
import { MAX_P } from "../model/limits.js";

/**
 * Factors p into `ndims` dimensions as balanced as possible, largest first (MPI_Dims_create's rule:
 * the prime factors, largest first, each multiplied onto the currently smallest dimension).
 * Dimensions given as nonzero in `given` are kept; the others share what is left of p.
 */
export function dimsCreate(pattern: string, p: number, given: readonly number[]): number[] {
  checkArg(
    "patterns",
    "dimsCreate",
    "pattern",
    pattern,
    typeof pattern === "string",
    "a pattern's name (a string)",
    "BAD_OPTION",
  );
  checkArg("patterns", "dimsCreate", "p", p, isIntIn(p, 1, MAX_P), `an integer in 1..${MAX_P}`, "BAD_OPTION");
  const dimsOk = Array.isArray(given) && given.length >= 1 && given.length <= 3 && given.every((d) => isIntIn(d, 0, p));
  checkArg(
    "patterns",
    "dimsCreate",
    "given",
    given,
    dimsOk,
    `1 to 3 dimensions, each 0 (free) or an integer in 1..${p}`,
    "BAD_OPTION",
  );
  const fixed = given.reduce((a, d) => (d > 0 ? a * d : a), 1);
  const free = given.filter((d) => d === 0).length;
  const names = ["px", "py", "pz"];
  if (p % fixed !== 0 || (free === 0 && fixed !== p)) {
    const which = given.flatMap((d, k) => (d > 0 ? [k] : []));
    const first = which[0] ?? 0;
    const verb = free === 0 ? "equal" : "divide";
    const why =
      which.length <= 1
        ? `must ${verb} p`
        : `times ${which
            .slice(1)
            .map((k) => `${names[k]!} = ${given[k]!}`)
            .join(" times ")} (${fixed}) must ${verb} p`;
    optionAgainstP(pattern, names[first]!, given[first]!, p, why);
  }
  const dims = new Array<number>(free).fill(1);
  let rest = p / fixed;
  const primes: number[] = [];
  for (let f = 2; f * f <= rest; f++)
    while (rest % f === 0) {
      primes.push(f);
      rest /= f;
    }
  if (rest > 1) primes.push(rest);
  for (const f of primes.sort((a, b) => b - a)) {
    let k = 0;
    for (let t = 1; t < free; t++) if (dims[t]! < dims[k]!) k = t;
    dims[k]! *= f;
  }
  dims.sort((a, b) => b - a);
  let next = 0;
  return given.map((d) => (d > 0 ? d : dims[next++]!));
}
