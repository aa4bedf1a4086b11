/** Store key id: the key's shape, the format version and the id of a key (no planner: a reader needs no more). */
import { createHash } from "node:crypto";
import { canonicalJson } from "../io/canonical-json.js";
import type { JsonValue } from "../model/schedule.js";
import { fail } from "../model/errors.js";
import { describeValue, isOptionsObject } from "../model/option-checks.js";

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

/** Each field of a key, what it must be (for the message) and the test. */
const KEY_FIELDS: readonly (readonly [keyof StoreKey, string, (v: unknown) => boolean])[] = [
  ["format", "a string", (v) => typeof v === "string"],
  ["matrixDigest", "a string", (v) => typeof v === "string"],
  ["p", "an integer >= 1", (v) => Number.isInteger(v) && (v as number) >= 1],
  ["elementBytes", "an integer >= 1", (v) => Number.isInteger(v) && (v as number) >= 1],
  ["algorithm", "a planner's name", (v) => typeof v === "string" && v !== ""],
  ["params", "an object", isOptionsObject],
  ["seed", "an integer", Number.isInteger],
  ["payload", "true or false", (v) => typeof v === "boolean"],
  ["machine", "a machine model's fields or null", (v) => v === null || isOptionsObject(v)],
];

/**
 * Throws a one-line BAD_INPUT error of `module` (after `fn: `) naming the first field of `key` that is missing or of
 * the wrong kind, or a field a key does not have: such a key is no plan's, so a lookup would answer "not stored"
 * (null) and an add would file the plan where no lookup finds it. The key to give is resolveStoreRequest's (or
 * listPlans').
 */
export function checkStoreKey(module: string, fn: string, key: unknown): void {
  const bad = (field: string, text: string): never => {
    throw fail(module, "BAD_INPUT", `${fn}: ${text}`, { field });
  };
  if (!isOptionsObject(key)) bad("key", `the key must be a store key object, got ${describeValue(key)}`);
  const k = key as { readonly [f: string]: unknown };
  for (const [field, what, ok] of KEY_FIELDS) {
    if (!(field in k))
      bad(field, `the key has no ${field} (${what}); a key lists ${KEY_FIELDS.map((f) => f[0]).join(", ")}`);
    if (!ok(k[field])) bad(field, `the key's ${field} must be ${what}, got ${describeValue(k[field])}`);
  }
  const extra = Object.keys(k).find((f) => !KEY_FIELDS.some((x) => x[0] === f));
  if (extra !== undefined) bad(extra, `the key has a field '${extra}' no store key has`);
}
