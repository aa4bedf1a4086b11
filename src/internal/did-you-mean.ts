/** "Did you mean" for a mistyped name: the known names nearest it by edit distance, or that it begins. */

/**
 * The optimal-string-alignment distance of `a` and `b`: insertions, deletions, substitutions and swaps of two
 * adjacent characters, one edit each.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  return d[a.length]![b.length]!;
}

/**
 * The known names nearest `name`: one that differs from it only in case, else (a name of three characters or more) at
 * most a third of the longer name's length away, at least one edit, else the known names that begin with it (two
 * characters or more; three names at most).
 */
export function nearestNames(name: string, known: readonly string[]): readonly string[] {
  if (typeof name !== "string" || name === "") return [];
  // a name in another case (FAT-TREE, T3D-004) means the known one, however many edits the case makes
  const folded = known.filter((k) => k !== name && k.toLowerCase() === name.toLowerCase());
  if (folded.length > 0) return folded;
  const scored = known
    .filter((k) => k !== name)
    .map((k) => [k, editDistance(name, k)] as const)
    .filter(([k, dist]) => name.length >= 3 && dist <= Math.max(1, Math.floor(Math.max(k.length, name.length) / 3)));
  const best = Math.min(...scored.map(([, dist]) => dist));
  const near = scored.filter(([, dist]) => dist === best).map(([k]) => k);
  if (near.length > 0 || name.length < 2) return near;
  return known.filter((k) => k.startsWith(name) && k !== name).slice(0, 3);
}

/** ` (did you mean X?)` naming the known names nearest `name` (`X or Y`), or "" when none is near. */
export function didYouMean(name: string, known: readonly string[]): string {
  const near = nearestNames(name, known);
  return near.length === 0 ? "" : ` (did you mean ${near.join(" or ")}?)`;
}
