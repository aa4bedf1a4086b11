/**
 * Precompute jobs: a spec file (schemas/precompute-spec.v1.schema.json) expanded into its job list, and one job run
 * against a store.
 */
import { fail, isCommplanError } from "../model/errors.js";
import { withElementBytes } from "../model/matrix.js";
import type { JsonValue } from "../model/schedule.js";
import { validateWithSchema } from "../io/json-schema.js";
import { readJsonDocument } from "../io/json-document-read.js";
import { findMachine } from "../machines/presets.js";
import { findPattern, generatePattern, resolvePatternOptions } from "../patterns/index.js";
import { findPlanner } from "../planner/registry.js";
import { resolveParams } from "../planner/plan-params.js";
import { checkAlgorithmName } from "./algorithm-name.js";
import { checkStorePlanMemory } from "./plan-bytes.js";
import { ENTRY_BYTES_PER_BYTE, entrySize } from "./commands/store-get.js";
import { memoryProblem } from "../model/memory-budget.js";
import {
  addPlan,
  getPlanById,
  openPlanStore,
  planForRequest,
  resolveStoreRequest,
  STORE_AUTO,
} from "../store/index.js";
import { entryProblemInPieces } from "../store/plan-store.js";
import { entryFile } from "../store/store-dir.js";

/** One plan to make: a pattern at P with a seed, a machine (or null), an algorithm with its params and payload. */
export interface PrecomputeJob {
  readonly pattern: string;
  readonly options: { readonly [k: string]: number };
  readonly p: number;
  readonly seed: number;
  readonly machine: string | null;
  readonly algorithm: string;
  readonly params: { readonly [k: string]: JsonValue };
  readonly payload: boolean;
  readonly elementBytes: number | null;
}

type Named<T> = string | ({ name: string } & T);

interface Spec {
  patterns: Named<{ options?: { [k: string]: number } }>[];
  p: number[];
  seeds: number[];
  machines?: (string | null)[];
  algorithms: Named<{ params?: { [k: string]: JsonValue }; payload?: boolean }>[];
  payload?: boolean;
  elementBytes?: number;
}

/**
 * Checks what a spec names before any job runs, each refusal naming the file and the field: every pattern and its
 * options (names, types and ranges; a range that depends on P is the job's to judge), every algorithm and its params.
 */
function checkSpecNames(spec: Spec, file: string): void {
  const refuse = (field: string, e: unknown): never => {
    if (!isCommplanError(e)) throw e;
    throw fail("precompute", "BAD_INPUT", `${field}: ${e.message.replace(/^[a-z-]+: /, "")}`, { file, field });
  };
  spec.patterns.forEach((pat, k) => {
    let def;
    try {
      def = findPattern(typeof pat === "string" ? pat : pat.name);
    } catch (e) {
      return refuse(`/patterns/${k}${typeof pat === "string" ? "" : "/name"}`, e);
    }
    // a spec gives no input file, so a pattern that reads one (spmv: a sparse matrix, gen --file) cannot run
    if (def.file !== undefined)
      throw fail(
        "precompute",
        "BAD_INPUT",
        `/patterns/${k}: pattern ${def.name} reads a file (${def.file.description}), which a precompute spec cannot give`,
        { file, field: `/patterns/${k}` },
      );
    if (typeof pat === "string" || pat.options === undefined) return;
    try {
      resolvePatternOptions(def, pat.options);
    } catch (e) {
      const option = isCommplanError(e) ? e.place.field : undefined;
      refuse(`/patterns/${k}/options${option === undefined ? "" : `/${option}`}`, e);
    }
  });
  spec.algorithms.forEach((a, k) => {
    const algorithm = typeof a === "string" ? a : a.name;
    try {
      checkAlgorithmName("precompute", algorithm);
    } catch (e) {
      refuse(`/algorithms/${k}${typeof a === "string" ? "" : "/name"}`, e);
    }
    if (typeof a === "string" || a.params === undefined) return;
    try {
      if (algorithm === STORE_AUTO) {
        if (Object.keys(a.params).length > 0)
          throw fail("precompute", "BAD_INPUT", "auto chooses the parameters itself: give none");
      } else {
        const planner = findPlanner(algorithm);
        resolveParams(planner.name, planner.specs, a.params);
      }
    } catch (e) {
      const param = isCommplanError(e) ? e.place.field?.replace(/^params\.?/, "") : undefined;
      refuse(`/algorithms/${k}/params${param ? `/${param}` : ""}`, e);
    }
  });
  (spec.machines ?? []).forEach((mc, k) => {
    try {
      if (mc !== null) findMachine(mc);
    } catch (e) {
      refuse(`/machines/${k}`, e);
    }
  });
}

/** The largest spec file read (a spec lists names and numbers: a few KiB). */
export const MAX_SPEC_BYTES = 1 << 20;
/** The most jobs a spec may expand to (its lists' lengths multiplied); each job is a plan of its own. */
export const MAX_SPEC_JOBS = 1 << 20;

/**
 * Reads and checks a spec file; returns its jobs in a fixed order (patterns, P, seeds, machines, algorithms). The file
 * is read as every JSON reader reads its document (UTF-8, a byte-order mark skipped, a key given twice refused) and at
 * most MAX_SPEC_BYTES of it; a spec of more than MAX_SPEC_JOBS jobs is refused before they are listed.
 */
export function readPrecomputeSpec(file: string): PrecomputeJob[] {
  const spec = readJsonDocument(file, MAX_SPEC_BYTES, "precompute", "a spec") as Spec;
  validateWithSchema("precompute-spec", spec, "precompute", file);
  const count = [spec.patterns, spec.p, spec.seeds, spec.machines ?? [null], spec.algorithms].reduce(
    (n, list) => n * list.length,
    1,
  );
  if (count > MAX_SPEC_JOBS)
    throw fail(
      "precompute",
      "BAD_INPUT",
      `the spec lists ${count} jobs (patterns x p x seeds x machines x algorithms), more than the ${MAX_SPEC_JOBS} one ` +
        "precompute runs: split it into several specs",
      { file },
    );
  const name = <T>(x: Named<T>): string => (typeof x === "string" ? x : x.name);
  checkSpecNames(spec, file);
  const machines = spec.machines ?? [null];
  if (spec.algorithms.some((a) => name(a) === STORE_AUTO) && machines.includes(null))
    throw fail("precompute", "BAD_INPUT", "algorithm auto needs a machine: list machines, none of them null", {
      file,
      field: "machines",
    });
  const jobs: PrecomputeJob[] = [];
  for (const pat of spec.patterns)
    for (const p of spec.p)
      for (const seed of spec.seeds)
        for (const machine of machines)
          for (const a of spec.algorithms)
            jobs.push({
              pattern: name(pat),
              options: typeof pat === "string" ? {} : (pat.options ?? {}),
              p,
              seed,
              machine,
              algorithm: name(a),
              params: typeof a === "string" ? {} : (a.params ?? {}),
              payload: (typeof a === "string" ? undefined : a.payload) ?? spec.payload ?? false,
              elementBytes: spec.elementBytes ?? null,
            });
  return jobs;
}

/**
 * What became of a job: added by this run, present already, present but not fully checked (its entry is too big to
 * load within the memory budget: its kind, seal and key sound, its columns not decoded, and not planned again), not
 * plannable (the planner or pattern refused it), or refused (a damaged entry).
 */
export interface JobOutcome {
  readonly status: "added" | "present" | "unchecked" | "unplannable" | "damaged";
  readonly id: string | null;
  readonly message: string | null;
}

/**
 * Runs one job against the store at `dir` within `maxMemory` bytes: skips it when a sound entry is
 * present, else plans and adds it.
 */
export function runPrecomputeJob(dir: string, job: PrecomputeJob, maxMemory: number): JobOutcome {
  const store = openPlanStore(dir);
  let m;
  try {
    m = generatePattern(job.pattern, job.p, job.options, job.seed, { maxMemory });
  } catch (e) {
    if (isCommplanError(e)) return { status: "unplannable", id: null, message: e.message };
    throw e;
  }
  if (job.elementBytes !== null) m = withElementBytes(m, job.elementBytes);
  const r = resolveStoreRequest(m, job.algorithm, {
    payload: job.payload,
    seed: job.seed,
    machine: job.machine === null ? null : findMachine(job.machine),
    params: job.params,
    maxMemory,
  });
  // a present entry is loaded (its plan decoded) to be judged sound: within the budget, as store get loads it; one
  // past it is judged in bounded memory as store list judges it (its kind, seal and key: a damaged one is damaged),
  // its columns not decoded, and not planned again
  const size = entrySize(entryFile(store, r.id));
  const tooBig = memoryProblem(ENTRY_BYTES_PER_BYTE * size, `loading its ${size}-byte file`, maxMemory);
  const judged = tooBig === null ? null : entryProblemInPieces(store, r.id);
  if (judged?.problem != null) return { status: "damaged", id: r.id, message: judged.problem };
  if (judged !== null) {
    const message = `entry ${r.id} is present (its seal and key sound) but its columns were not decoded: ${tooBig}`;
    return { status: "unchecked", id: r.id, message };
  }
  try {
    if (getPlanById(store, r.id) !== null) return { status: "present", id: r.id, message: null };
  } catch (e) {
    if (isCommplanError(e)) return { status: "damaged", id: r.id, message: e.message };
    throw e;
  }
  let plan;
  try {
    checkStorePlanMemory("precompute", m, r.key.algorithm, r.key.payload, maxMemory);
    plan = planForRequest(m, r);
  } catch (e) {
    if (isCommplanError(e)) return { status: "unplannable", id: r.id, message: e.message };
    throw e;
  }
  const origin = { pattern: job.pattern, options: job.options, seed: job.seed, p: job.p };
  const res = addPlan(store, r.key, plan, origin);
  return { status: res.written ? "added" : "present", id: r.id, message: null };
}
