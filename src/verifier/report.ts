/** Report: the verifier's result, a list of named checks with their source, measure, bound and witness. */

/** One check of a schedule. `holds` is false when the schedule breaks it; `witness` names the first counterexample. */
export interface Check {
  readonly id: string;
  readonly title: string;
  /** The paper, section and lemma (or docs page and section) the check comes from. */
  readonly source: string;
  readonly holds: boolean;
  readonly measured: number | null;
  readonly bound: number | null;
  readonly witness: string | null;
}

/** A check that could not be made (not a failure): what it is, why not, and how to make it. */
export interface Unproven {
  readonly id: string;
  readonly title: string;
  /** Short: where the check stops (e.g. "at message level"). */
  readonly reason: string;
  /** What made it undecidable, with a witness. */
  readonly detail: string;
  readonly howToProve: string;
}

/** The verifier's report on one schedule. */
export interface Report {
  readonly format: "commplan.report/v1";
  /** True when every check holds. */
  readonly ok: boolean;
  readonly algorithm: string;
  readonly p: number;
  readonly checks: readonly Check[];
  /**
   * Peak elements held by each node at a step boundary (the `peak-buffer` check measures their maximum); absent when
   * the schedule is not well formed.
   */
  readonly peakBufferPerNode?: readonly number[];
  /**
   * Checks that could not be made (e.g. delivery of a message-level plan that relays); absent when every check was
   * made. `ok` ignores them.
   */
  readonly unproven?: readonly Unproven[];
}

/** Builds a check row. */
export function check(
  id: string,
  title: string,
  source: string,
  holds: boolean,
  measured: number | null = null,
  bound: number | null = null,
  witness: string | null = null,
): Check {
  return { id, title, source, holds, measured, bound, witness: holds ? null : witness };
}

/** A check that compares a measured value with an upper bound. */
export function atMost(
  id: string,
  title: string,
  source: string,
  measured: number,
  bound: number,
  witness: string | null,
): Check {
  return check(id, title, source, measured <= bound, measured, bound, witness);
}

/** A check that compares a measured value with a lower bound. */
export function atLeast(
  id: string,
  title: string,
  source: string,
  measured: number,
  bound: number,
  witness: string | null,
): Check {
  return check(id, title, source, measured >= bound, measured, bound, witness);
}

/**
 * A check over items (sources, destinations, nodes, stages) that each have their own upper bound.
 * While every item holds, the row shows the largest measured value and the largest bound; once an
 * item exceeds its bound, the row shows that item's measured value and bound (the first failing
 * item), so a FAIL row never prints a measured value within its printed bound. `add` returns true
 * for the first failing item only: the caller then sets `witness`, naming that item.
 */
export class PerItemBound {
  private maxMeasured = 0;
  private maxBound = 0;
  private failMeasured: number | null = null;
  private failBound = 0;
  /** Names the first failing item (set by the caller when `add` returns true). */
  witness: string | null = null;

  /** `tolerance`: an item holds when measured <= bound + tolerance (for bounds computed in floating point). */
  constructor(private readonly tolerance = 0) {}

  /** Records one item; true when it is the first item over its bound. */
  add(measured: number, bound: number): boolean {
    if (measured > this.maxMeasured) this.maxMeasured = measured;
    if (bound > this.maxBound) this.maxBound = bound;
    if (this.failMeasured !== null || measured <= bound + this.tolerance) return false;
    this.failMeasured = measured;
    this.failBound = bound;
    return true;
  }

  /** True while every item recorded so far is within its bound. */
  get holds(): boolean {
    return this.failMeasured === null;
  }

  /** The check row: the maxima when every item holds, else the first failing item's value, bound and witness. */
  row(id: string, title: string, source: string): Check {
    if (this.failMeasured === null) return check(id, title, source, true, this.maxMeasured, this.maxBound);
    return check(id, title, source, false, this.failMeasured, this.failBound, this.witness);
  }
}

/** Makes the report from its checks (and the per-node peak buffers when measured). */
export function makeReport(
  algorithm: string,
  p: number,
  checks: readonly Check[],
  peakBufferPerNode?: Float64Array,
): Report {
  const r: Report = { format: "commplan.report/v1", ok: checks.every((c) => c.holds), algorithm, p, checks };
  return peakBufferPerNode === undefined ? r : { ...r, peakBufferPerNode: Array.from(peakBufferPerNode) };
}
