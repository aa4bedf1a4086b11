/**
 * precompute --from-capture --json: the commplan.precompute-capture/v1 document of a run
 * (schemas/precompute-capture.v1.schema.json): the target, every captured pattern (sorted by key) with what precompute
 * did with it, and the totals.
 */
import { basename } from "node:path";
import type { CaptureOutcome, CapturedPattern, CaptureTarget } from "./precompute-capture.js";

/** The format of precompute --from-capture --json. */
export const PRECOMPUTE_CAPTURE_FORMAT = "commplan.precompute-capture/v1";

/**
 * What became of one captured pattern: its outcome, or the one-line error that stopped the run at it (failed), or
 * nothing (skipped: the run stopped at an earlier pattern's failure).
 */
export type CaptureResult =
  | { readonly pattern: CapturedPattern; readonly outcome: CaptureOutcome }
  | { readonly pattern: CapturedPattern; readonly failed: string }
  | { readonly pattern: CapturedPattern; readonly skipped: true };

/** The status of a result: the outcome's (added, present, replaced), failed or skipped. */
function statusOf(r: CaptureResult): "added" | "present" | "replaced" | "failed" | "skipped" {
  return "outcome" in r ? r.outcome.status : "failed" in r ? "failed" : "skipped";
}

/** One pattern's entry: the capture's record, the status, the program written and the plan's verdict. */
function patternEntry(r: CaptureResult, stoppedAt: string | null): Record<string, unknown> {
  const pat = r.pattern;
  const o = "outcome" in r ? r.outcome : null;
  const message =
    "failed" in r ? r.failed : "skipped" in r ? `not planned: the run stopped at ${stoppedAt ?? "?"}` : null;
  return {
    key: pat.key,
    p: pat.p,
    elementBytes: pat.elementBytes,
    call: pat.call,
    kinds: pat.kinds,
    sites: pat.sites,
    calls: pat.calls,
    records: pat.files.map((f) => basename(f)),
    matrix: basename(pat.matrixFile),
    status: statusOf(r),
    replaced: o?.was === undefined ? null : { was: o.was, because: o.replacedBecause ?? "another target" },
    program: o === null ? null : `programs/${pat.key}`,
    plan:
      o === null
        ? null
        : {
            algorithm: o.algorithm,
            variant: o.variant,
            payload: o.payload,
            entry: o.entry,
            replay: o.replay,
            reason: o.reason,
            planUs: o.planUs,
            libraryUs: o.libraryUs,
            gain: o.gain,
          },
    message,
  };
}

/**
 * The document of a run over the capture directory `capture` into `store` for `target`: every pattern in `results`
 * (one per captured key) sorted by key, and the totals (`replay`: the patterns whose plan.json says to replay).
 */
export function captureSummary(
  capture: string,
  store: string,
  target: CaptureTarget,
  results: readonly CaptureResult[],
): object {
  const failed = results.find((r) => "failed" in r);
  const stoppedAt = failed === undefined ? null : failed.pattern.key;
  const count = (s: ReturnType<typeof statusOf>): number => results.filter((r) => statusOf(r) === s).length;
  const runtime = target.runtime;
  return {
    format: PRECOMPUTE_CAPTURE_FORMAT,
    capture,
    store,
    target: {
      machine: target.machine.name,
      runtime: runtime === null ? null : runtime.name,
      freeCopies: runtime === null ? null : !runtime.copies,
      network: target.network?.spec ?? null,
      portSharing: target.network?.portSharing ?? null,
    },
    patterns: [...results]
      .sort((a, b) => (a.pattern.key < b.pattern.key ? -1 : a.pattern.key > b.pattern.key ? 1 : 0))
      .map((r) => patternEntry(r, stoppedAt)),
    totals: {
      patterns: results.length,
      added: count("added"),
      present: count("present"),
      replaced: count("replaced"),
      failed: count("failed"),
      skipped: count("skipped"),
      replay: results.filter((r) => "outcome" in r && r.outcome.replay).length,
    },
  };
}
