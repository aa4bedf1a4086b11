/** getOrPlan: the stored plan for a matrix and request, or a new plan made and added to the store. */
import { fail } from "../model/errors.js";
import { checkMatrixArg, type CommMatrix } from "../model/matrix.js";
import { checkOptionKeys, checkOptionsObject } from "../model/option-checks.js";
import type { Schedule } from "../model/schedule.js";
import { planAuto } from "../auto/index.js";
import { findPlanner, PLAN_REQUEST_KEYS, type PlanRequest } from "../planner/registry.js";
import { addPlan, getPlanById, type PlanStore, type StoreOrigin } from "./plan-store.js";
import { checkStoreOrigin } from "./store-origin.js";
import { resolveStoreRequest, STORE_AUTO, type ResolvedRequest } from "./store-key.js";

/**
 * What getOrPlan asks for: the algorithm ("auto" for auto's pick on the machine) and the plan request (payload, seed,
 * machine, params).
 */
export interface GetOrPlanOptions extends PlanRequest {
  readonly algorithm: string;
  /** Where the matrix came from, kept in a new entry for `store list` (see StoreOrigin). */
  readonly origin?: StoreOrigin;
}

/** The keys of GetOrPlanOptions. */
const GET_OR_PLAN_KEYS: readonly string[] = Object.freeze(["algorithm", ...PLAN_REQUEST_KEYS, "origin"]);

/** The plan a resolved request asks for: its planner's, or auto's pick (STORE_AUTO). */
export function planForRequest(m: CommMatrix, r: ResolvedRequest): Schedule {
  if (r.key.algorithm === STORE_AUTO)
    return planAuto(m, r.options.machine!, {
      payload: r.options.payload,
      seed: r.options.seed,
      ...(r.options.maxMemory === undefined ? {} : { maxMemory: r.options.maxMemory }),
    }).schedule;
  return findPlanner(r.key.algorithm).plan(m, r.options);
}

/** The plan for `m` from the store when present (checksum checked), else planned now and added; `stored` says which. */
export function getOrPlan(
  store: PlanStore,
  m: CommMatrix,
  options: GetOrPlanOptions,
): { schedule: Schedule; stored: boolean; id: string } {
  checkOptionsObject("store", "options", options);
  if (options === undefined)
    throw fail("store", "BAD_OPTION", "getOrPlan needs a request: { algorithm, ... }", { field: "options" });
  checkOptionKeys("store", options, GET_OR_PLAN_KEYS);
  checkMatrixArg("store", m);
  const { algorithm, origin, ...req } = options;
  const from = checkStoreOrigin("store", origin);
  const r = resolveStoreRequest(m, algorithm, req);
  const found = getPlanById(store, r.id);
  if (found !== null) return { schedule: found, stored: true, id: r.id };
  const schedule = planForRequest(m, r);
  addPlan(store, r.key, schedule, from);
  return { schedule, stored: false, id: r.id };
}
