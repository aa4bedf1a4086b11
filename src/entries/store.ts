/**
 * commplan/store: the plan store (sealed Arrow plans on disk keyed by content: add, get, list, verify, gc) and
 * getOrPlan, which plans once and serves the stored plan after (docs/arrow.md).
 */
export {
  openPlanStore,
  addPlan,
  getPlan,
  getPlanById,
  getOrPlan,
  listPlans,
  verifyStore,
  gcStore,
  STORE_FORMAT,
  type PlanStore,
  type StoreKey,
  type StoreEntryInfo,
  type StoreReport,
  type StoreGcResult,
  type StoreGcFailure,
  type StoreDamage,
  type ProgramDamage,
  type CreationRecord,
  type StoreOrigin,
  type GetOrPlanOptions,
} from "../store/index.js";
