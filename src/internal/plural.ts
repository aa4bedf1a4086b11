/** Counted nouns in messages: "1 entry", "2 entries". */

/** `n` and the noun in the number `n` asks for: `counted(1, "entry", "entries")` is "1 entry". */
export function counted(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
