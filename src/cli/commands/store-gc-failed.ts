/** store gc's summary of what it could not do, from the library's failures by their kind. */
import type { StoreGcFailure } from "../../store/plan-store.js";
import { counted } from "../../internal/plural.js";

/**
 * What gc could not do, by the failures' `kind`: `could not remove N paths`, `could not make N directories anew`, or
 * both joined by "and".
 */
export function gcFailedText(failed: readonly Pick<StoreGcFailure, "kind">[]): string {
  const unmade = failed.filter((f) => f.kind === "remake").length;
  const unremoved = failed.length - unmade;
  return [
    ...(unremoved > 0 ? [`could not remove ${counted(unremoved, "path", "paths")}`] : []),
    ...(unmade > 0 ? [`could not make ${counted(unmade, "directory", "directories")} anew`] : []),
  ].join(" and ");
}
