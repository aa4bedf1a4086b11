/** Report: the verifier's result, a list of named checks with their source, measure, bound and witness. */

/** One check of a schedule. `holds` is false when the schedule breaks it; `witness` names the first counterexample. */
export interface Check {
  readonly id: string;
  readonly title: string;
  /** The paper, section and lemma (or DESIGN.md rule) the check comes from. */
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
  /** Peak elements held by each node at a step boundary (the `peak-buffer` check measures their maximum); absent when the schedule is not well formed. */
  readonly peakBufferPerNode?: readonly number[];
  /** Checks that could not be made (e.g. delivery of a message-level plan that relays); absent when every check was made. `ok` ignores them. */
  readonly unproven?: readonly Unproven[];
}

/** Builds a check row. */
export function check(id: string, title: string, source: string, holds: boolean, measured: number | null = null, bound: number | null = null, witness: string | null = null): Check {
  return { id, title, source, holds, measured, bound, witness: holds ? null : witness };
}

/** A check that compares a measured value with an upper bound. */
export function atMost(id: string, title: string, source: string, measured: number, bound: number, witness: string | null): Check {
  return check(id, title, source, measured <= bound, measured, bound, witness);
}

/** A check that compares a measured value with a lower bound. */
export function atLeast(id: string, title: string, source: string, measured: number, bound: number, witness: string | null): Check {
  return check(id, title, source, measured >= bound, measured, bound, witness);
}

/** Makes the report from its checks (and the per-node peak buffers when measured). */
export function makeReport(algorithm: string, p: number, checks: readonly Check[], peakBufferPerNode?: Float64Array): Report {
  const r: Report = { format: "commplan.report/v1", ok: checks.every((c) => c.holds), algorithm, p, checks };
  return peakBufferPerNode === undefined ? r : { ...r, peakBufferPerNode: Array.from(peakBufferPerNode) };
}
