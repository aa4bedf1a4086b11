/** Store key id: the key's shape, the format version and the id of a key (no planner: a reader needs no more). */
import { createHash } from "node:crypto";
import { canonicalJson } from "../io/canonical-json.js";
import type { JsonValue } from "../model/schedule.js";

/** The store's format version: part of every key, so a new version never serves an old entry. */
export const STORE_FORMAT = "commplan.store/v1";

/** Everything a plan depends on, as JSON. */
export interface StoreKey {
  readonly format: string;
  readonly matrixDigest: string;
  readonly p: number;
  readonly elementBytes: number;
  readonly algorithm: string;
  /** The planner's input parameters with defaults filled (resolvePlanOptions). */
  readonly params: { readonly [k: string]: JsonValue };
  readonly seed: number;
  readonly payload: boolean;
  /** The machine model (every field) for a planner whose plans depend on it (plannerUsesMachine), else null. */
  readonly machine: { readonly [k: string]: JsonValue } | null;
}

/** The id of a key: SHA-256 (hex) of its canonical JSON. */
export function storeKeyId(key: StoreKey): string {
  return createHash("sha256")
    .update(canonicalJson(key as unknown as JsonValue, "store"))
    .digest("hex");
}
