/** The algorithm a command line names: a planner's name or auto, checked with a suggestion for a mistyped one. */
import { fail } from "../model/errors.js";
import { didYouMean } from "../internal/did-you-mean.js";
import { quoted } from "../internal/quoted.js";
import { PLANNERS } from "../planner/registry.js";

/** Throws a BAD_OPTION CommplanError of `module` unless `name` is a planner's name or "auto". */
export function checkAlgorithmName(module: string, name: string): void {
  const known = [...PLANNERS.map((x) => x.name), "auto"];
  if (!known.includes(name))
    throw fail(
      module,
      "BAD_OPTION",
      `unknown algorithm ${quoted(name)}${didYouMean(name, known)}; known: ${known.join(", ")}`,
      {
        field: "algorithm",
      },
    );
}
