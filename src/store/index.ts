/** Plan store: sealed Arrow plans on disk keyed by content, and getOrPlan. */
export {
  STORE_FORMAT,
  STORE_AUTO,
  storeKeyId,
  resolveStoreRequest,
  type StoreKey,
  type ResolvedRequest,
} from "./store-key.js";
export {
  openPlanStore,
  addPlan,
  getPlan,
  getPlanById,
  listPlans,
  verifyStore,
  gcStore,
  type PlanStore,
  type StoreDamage,
  type StoreGcResult,
  type StoreGcFailure,
  type StoreEntryInfo,
  type StoreReport,
  type CreationRecord,
  type StoreOrigin,
} from "./plan-store.js";
export { getOrPlan, planForRequest, type GetOrPlanOptions } from "./get-or-plan.js";
export { sealBytes, sealProblem, checksum128 } from "./entry-seal.js";
export { MAX_ENTRY_BYTES } from "./store-fs.js";
export { verifyPrograms, type ProgramDamage, type ProgramsReport } from "./store-programs.js";
