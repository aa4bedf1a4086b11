/** The reducer of the options meant to be given more than once (`--param a=1 --param b=2`). */

/**
 * Collects repeated option values (commander reducer). program.ts lets an option with this parser repeat, and refuses
 * any other given twice with different values.
 */
export const collect = (v: string, prev: string[] = []): string[] => [...prev, v];
