/** Shape checks of hand-built IR objects (schedules, programs): columns of the IR's typed arrays and lengths, offset tables that cover their tables. */

/** The typed array classes of the IR's columns. */
export type TypedArrayClass = typeof Uint8Array | typeof Uint32Array | typeof Float64Array;

/** What is wrong with a column: not the IR's typed array, or not `length` entries long (when given). */
export function columnProblem(name: string, a: unknown, type: TypedArrayClass, length?: number): string | null {
  if (!(a instanceof type)) return `${name} is not a ${type.name}`;
  return length === undefined || a.length === length ? null : `${name} has ${a.length} entries, not ${length}`;
}

/** What is wrong with offsets into `end` items: not starting at 0, decreasing, or not ending at `end`. */
export function offsetsProblem(name: string, a: Uint32Array, end: number, what: string): string | null {
  if (a[0] !== 0) return `${name}[0] is ${a[0]}, not 0`;
  for (let k = 1; k < a.length; k++) if (a[k]! < a[k - 1]!) return `${name}[${k}] is below ${name}[${k - 1}]`;
  return a[a.length - 1] === end ? null : `${name} ends at ${a[a.length - 1]}, not at the ${end} ${what}`;
}
