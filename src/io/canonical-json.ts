/**
 * Canonical JSON: object keys sorted, so equal values give equal bytes (the params of schedule and program headers).
 */
import { fail } from "../model/errors.js";
import type { JsonValue } from "../model/schedule.js";

/** JSON text of a value with object keys sorted; a non-finite number is an error of `module` naming params. */
export function canonicalJson(v: JsonValue | undefined, module: string): string {
  if (v === null || typeof v !== "object") {
    if (typeof v === "number" && !Number.isFinite(v))
      throw fail(module, "BAD_INPUT", `cannot write the non-finite number ${v} in params`, { field: "params" });
    return JSON.stringify(v ?? null);
  }
  if (Array.isArray(v)) return `[${(v as readonly JsonValue[]).map((x) => canonicalJson(x, module)).join(",")}]`;
  const o = v as { readonly [k: string]: JsonValue };
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k], module)}`)
    .join(",")}}`;
}
