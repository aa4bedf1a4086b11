/** The table at the end of 001 sec 4: rounds and time/h of "our protocol" and of the direct protocol, transcribed. */

/** A numeric column of 001's table. */
export type PaperTeField = "oursRounds" | "oursTimePerH" | "directRounds" | "directTimePerH";

/**
 * One row of 001's table; null where the OCR of the paper lost the number and its partner too. A
 * number lost in the text whose partner survives is derived from time/h = rounds * N / h (rounds to
 * 1 decimal, time/h to 2) and listed in `derived`.
 */
export interface PaperTeRow {
  readonly n: number;
  /** h as a multiple of N. */
  readonly hOverN: number;
  readonly oursRounds: number | null;
  readonly oursTimePerH: number | null;
  readonly directRounds: number | null;
  readonly directTimePerH: number | null;
  /** Fields not printed (lost in the text) but derived from their partner column. */
  readonly derived: readonly PaperTeField[];
}

/** h / N values of the table. */
export const PAPER_H_OVER_N: readonly number[] = [4, 8, 10, 16, 32, 50, 64];
/** N values of the table. */
export const PAPER_N: readonly number[] = [64, 128, 256, 512, 1024];

type Cell = readonly [number | null, number | null, number | null, number | null];
// Rows in the order 4N, 8N, 10N, 16N, 32N, 50N, 64N. The OCR dropped some h labels and numbers;
// rows were placed by time/h = rounds * N / h (every printed pair satisfies it to rounding).
const RAW: { readonly [n: number]: readonly Cell[] } = {
  64: [
    [8.0, 2.0, 12.7, 3.18],
    [12.3, 1.54, 19.9, 2.49],
    [14.4, 1.44, 23.8, 2.38],
    [21.0, 1.31, 31.6, 1.98],
    [38.1, 1.19, 53.1, 1.66],
    [57.0, 1.14, 78.2, 1.56],
    [71.0, 1.1, 93.8, 1.47],
  ],
  128: [
    [8.0, 2.0, 13.6, 3.4],
    [12.4, 1.55, null, 2.7],
    [14.9, 1.49, 25.1, 2.51],
    [21.0, 1.31, 34.2, 2.14],
    [38.0, 1.19, 56.4, 1.76],
    [57.0, 1.14, 81.1, 1.62],
    [71.0, 1.11, 93.8, 1.47],
  ],
  256: [
    [8.0, 2.0, 15.0, 3.75],
    [12.9, 1.61, 22.4, 2.8],
    [15.0, 1.5, 26.6, 2.66],
    [21.1, 1.32, 36.0, 2.25],
    [38.1, 1.19, 59.1, 1.85],
    [57.0, 1.14, 83.2, 1.67],
    [71.3, 1.11, 100.3, 1.57],
  ],
  512: [
    [8.0, 2.0, 16.0, 4.0],
    [13.0, 1.63, 23.8, 2.98],
    [15.0, 1.5, 28.0, 2.8],
    [21.0, 1.31, 36.9, 2.31],
    [38.0, 1.19, 62.2, 1.95],
    [null, 1.14, 84.9, 1.7],
    [71.5, 1.12, 103.1, 1.61],
  ],
  1024: [
    [8.0, 2.0, 17.3, 4.33],
    [13.0, 1.63, 24.9, null],
    [null, null, null, null],
    [21.7, 1.36, null, null],
    [38.6, 1.21, null, 1.96],
    [57.2, 1.14, 88.9, 1.78],
    [72.0, 1.12, 106.0, 1.66],
  ],
};

/** rounds from time/h (1 decimal) or time/h from rounds (2 decimals); null if both are lost. */
function fill(
  rounds: number | null,
  t: number | null,
  hOverN: number,
): [number | null, number | null, boolean, boolean] {
  if (rounds === null && t !== null) return [Math.round(t * hOverN * 10) / 10, t, true, false];
  if (t === null && rounds !== null) return [rounds, Math.round((rounds / hOverN) * 100) / 100, false, true];
  return [rounds, t, false, false];
}

/** The paper's rows: printed numbers, and lost numbers derived from their partner where it survives (see `derived`). */
export const PAPER_TE_TABLE: readonly PaperTeRow[] = PAPER_N.flatMap((n) =>
  RAW[n]!.map((c, k) => {
    const hOverN = PAPER_H_OVER_N[k]!;
    const [oursRounds, oursTimePerH, dOR, dOT] = fill(c[0], c[1], hOverN);
    const [directRounds, directTimePerH, dDR, dDT] = fill(c[2], c[3], hOverN);
    const derived: PaperTeField[] = [];
    if (dOR) derived.push("oursRounds");
    if (dOT) derived.push("oursTimePerH");
    if (dDR) derived.push("directRounds");
    if (dDT) derived.push("directTimePerH");
    return { n, hOverN, oursRounds, oursTimePerH, directRounds, directTimePerH, derived };
  }),
);

/** The paper's row for (N, h / N), if the table has one. */
export function paperRow(n: number, hOverN: number): PaperTeRow | undefined {
  return PAPER_TE_TABLE.find((r) => r.n === n && r.hOverN === hOverN);
}

/** time/h of a total-exchange protocol: rounds of N steps each (001 sec 4) over h. */
export function timePerH(rounds: number, n: number, h: number): number {
  return h === 0 ? 0 : (rounds * n) / h;
}
