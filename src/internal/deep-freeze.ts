/** deepFreeze: Object.freeze over a registry's objects and the plain objects and arrays they hold. */

/**
 * `x`, frozen with every object and array reachable from it through own properties, so that a registry handed to
 * users (MACHINES, PLANNERS, ...) cannot be changed through what it hands out. Functions are frozen but not descended
 * into; typed arrays, Maps and Sets are left as they are (freezing a typed array with elements throws).
 */
export function deepFreeze<T>(x: T): T {
  freezeFrom(x, new Set());
  return x;
}

function freezeFrom(x: unknown, seen: Set<unknown>): void {
  if (x === null || (typeof x !== "object" && typeof x !== "function") || seen.has(x)) return;
  seen.add(x);
  if (ArrayBuffer.isView(x) || x instanceof Map || x instanceof Set) return;
  Object.freeze(x);
  if (typeof x === "function") return;
  for (const key of Reflect.ownKeys(x)) freezeFrom((x as Record<PropertyKey, unknown>)[key], seen);
}
