/** The command line's flags of the pattern options: kebab case, and a readable long name beside a one-letter one. */

/** The readable long flag of each one-letter pattern option (the letter stays a flag too). */
const READABLE: { readonly [name: string]: string } = {
  d: "degree",
  h: "messages",
  k: "fan-out",
  l: "non-uniformity",
  t: "row-sum",
};

/** The flag `gen` documents for pattern option `name`: its readable name, else the name in kebab case. */
export function patternFlag(name: string): string {
  return READABLE[name] ?? name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The other spelling `gen` accepts for pattern option `name` (its one letter, or its camelCase name), if any. */
export function patternFlagAlias(name: string): string | undefined {
  return patternFlag(name) === name ? undefined : name;
}
