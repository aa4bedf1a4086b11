/**
 * Store key: what identifies a plan in the store (matrix digest, algorithm, resolved parameters, seed, payload,
 * machine, format version) and its id.
 */
import { matrixDigest, type CommMatrix } from "../model/matrix.js";
import { fail } from "../model/errors.js";
import { machineRecord, type MachineModel } from "../model/machine.js";
import { checkOptionsObject } from "../model/option-checks.js";
import type { JsonValue } from "../model/schedule.js";
import {
  checkPlanRequest,
  findPlanner,
  plannerUsesMachine,
  resolvePlanOptions,
  type PlanRequest,
} from "../planner/registry.js";
import type { PlanOptions } from "../planner/types.js";
import { STORE_FORMAT, storeKeyId, type StoreKey } from "./store-key-id.js";

export { STORE_FORMAT, storeKeyId, type StoreKey } from "./store-key-id.js";

/** A plan request resolved against its planner, with the key it is stored under. */
export interface ResolvedRequest {
  readonly key: StoreKey;
  readonly id: string;
  readonly options: PlanOptions;
}

function machineJson(m: MachineModel | null): { readonly [k: string]: JsonValue } | null {
  return m === null ? null : (JSON.parse(JSON.stringify(machineRecord(m))) as { [k: string]: JsonValue });
}

/**
 * The algorithm name under which the store keeps auto's pick: planAuto on the request's machine
 * (required) and its own fabric, blocking mode, no network; its parameters are its own (none may
 * be given). The entry is the winner's plan, its header naming the winner (the auto block of
 * candidates that `plan` writes is not kept: the Arrow header has no field for it).
 */
export const STORE_AUTO = "auto";

/** The key and plan options of an auto request (see STORE_AUTO). */
function resolveAutoRequest(m: CommMatrix, req: PlanRequest): ResolvedRequest {
  checkOptionsObject("store", "options", req);
  const machine = req.machine ?? null;
  if (machine === null)
    throw fail("store", "BAD_OPTION", "auto needs the option machine (the machine it chooses for)", {
      field: "machine",
    });
  if (Object.keys(req.params ?? {}).length > 0)
    throw fail("store", "BAD_OPTION", "auto chooses the parameters itself: give none", { field: "params" });
  const c = checkPlanRequest("store", req);
  const options = {
    payload: c.payload,
    seed: c.seed,
    machine,
    params: {},
    givenParams: {},
    ...(c.maxMemory === undefined ? {} : { maxMemory: c.maxMemory }),
  };
  return keyed(m, STORE_AUTO, options, machine);
}

/**
 * The request with its key and id: the matrix, the algorithm, the options' params, seed and payload, and `machine`
 * (null for a planner that ignores it).
 */
function keyed(m: CommMatrix, algorithm: string, options: PlanOptions, machine: MachineModel | null): ResolvedRequest {
  const key: StoreKey = {
    format: STORE_FORMAT,
    matrixDigest: matrixDigest(m),
    p: m.p,
    elementBytes: m.elementBytes,
    algorithm,
    params: options.params as { readonly [k: string]: JsonValue },
    seed: options.seed,
    payload: options.payload,
    machine: machineJson(machine),
  };
  return { key, id: storeKeyId(key), options };
}

/**
 * Resolves a request for a matrix (defaults filled, parameters checked) and makes its key and id; "auto" (STORE_AUTO)
 * keys auto's pick.
 */
export function resolveStoreRequest(m: CommMatrix, algorithm: string, req: PlanRequest = {}): ResolvedRequest {
  if (algorithm === STORE_AUTO) return resolveAutoRequest(m, req);
  const planner = findPlanner(algorithm);
  const options = resolvePlanOptions(planner, req);
  // a machine the planner ignores is no part of the plan: one entry serves every machine
  return keyed(m, planner.name, options, plannerUsesMachine(planner) ? options.machine : null);
}
