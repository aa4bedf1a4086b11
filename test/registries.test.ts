/**
 * The registries the public entries hand out (MACHINES, PLANNERS, PATTERNS, TOPOLOGY_GENERATORS, RUNTIME_MODELS, the
 * name lists, ...) are frozen, deep: a user cannot change what later calls plan or cost with.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  findMachine,
  findPlanner,
  generatePattern,
  MACHINES,
  PATTERNS,
  plan,
  PLANNERS,
  scheduleCost,
} from "../src/index.js";
import { findPattern } from "../src/patterns/registry.js";
import { RUNTIME_MODELS, TOPOLOGY_GENERATORS } from "../src/entries/sim.js";

const root = join(import.meta.dirname, "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  exports: { [k: string]: string | { types: string; import: string } };
};

/** Every package entry's source module (src/index.ts, src/entries/*.ts, src/testing/index.ts). */
const ENTRY_FILES: readonly string[] = Object.values(pkg.exports).flatMap((t) =>
  typeof t === "string" ? [] : [join(root, t.types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts"))],
);

/** The paths under `x` to objects or arrays that are not frozen (typed arrays, Maps and Sets reported as such). */
function unfrozen(x: unknown, path: string, seen = new Set<unknown>()): string[] {
  if (x === null || typeof x !== "object" || seen.has(x)) return [];
  seen.add(x);
  if (ArrayBuffer.isView(x) || x instanceof Map || x instanceof Set) return [`${path} (cannot be frozen)`];
  const own = Object.isFrozen(x) ? [] : [path];
  return [
    ...own,
    ...Reflect.ownKeys(x).flatMap((k) =>
      unfrozen((x as Record<PropertyKey, unknown>)[k], `${path}.${String(k)}`, seen),
    ),
  ];
}

/** What plan and scheduleCost give for a few calls, as JSON. */
function results(): string {
  const m = generatePattern("random", 12, {}, 3);
  const machine = findMachine("sp2-004");
  return JSON.stringify(
    ["shift", "linear-permutation", "coloring"].map((a) => {
      const s = plan(m, a, { machine });
      return [
        s.transferCount,
        Array.from(s.src),
        scheduleCost(s, machine, "blocking"),
        scheduleCost(s, machine, "nonblocking"),
        scheduleCost(s, findMachine("t3d-004"), "blocking"),
      ];
    }),
  );
}

/**
 * Runs `f`, a mutation; true when a frozen object refused it in strict mode: a TypeError that says so (read only, not
 * extensible, cannot delete), not one of another cause (a property that is not there).
 */
function refused(f: () => void): boolean {
  try {
    f();
    return false;
  } catch (e) {
    return (
      e instanceof TypeError && /read[ -]only|not extensible|Cannot (assign|add|delete|define)|frozen/.test(e.message)
    );
  }
}

describe("exported registries", () => {
  it("every object or array an entry exports under a constant's name is frozen, deep", async () => {
    const found: string[] = [];
    for (const file of ENTRY_FILES) {
      const mod = (await import(file)) as Record<string, unknown>;
      for (const [name, v] of Object.entries(mod)) {
        if (!/^[A-Z][A-Z0-9_]*$/.test(name) || v === null || typeof v !== "object") continue;
        found.push(name);
        expect(unfrozen(v, name), file).toEqual([]);
      }
    }
    expect(found).toEqual(
      expect.arrayContaining(["MACHINES", "PLANNERS", "PATTERNS", "TOPOLOGY_GENERATORS", "RUNTIME_MODELS"]),
    );
  });

  it("mutating a registry or what it hands out throws, and plan and scheduleCost give what they gave", () => {
    const before = results();
    const anyOf = <T>(x: T): { -readonly [K in keyof T]: unknown } & Record<string, unknown> =>
      x as { -readonly [K in keyof T]: unknown } & Record<string, unknown>;
    const attempts: (() => void)[] = [
      () => void (anyOf(findMachine("sp2-004")).ts = 10 * findMachine("sp2-004").ts),
      () => void (anyOf(MACHINES[0]!).ports = 7),
      () => void (MACHINES as unknown as unknown[]).splice(0),
      () => void (PLANNERS as unknown as unknown[]).splice(0),
      () => void (PLANNERS as unknown as unknown[]).push(PLANNERS[0]),
      () => void (anyOf(findPlanner("shift")).name = "other"),
      () => void (findPlanner("coloring").params as unknown as unknown[]).splice(0),
      () => void ((findPlanner("coloring").specs as unknown as Record<string, unknown>)["extra"] = {}),
      () => void (PATTERNS as unknown as unknown[]).splice(0),
      () => void (anyOf(findPattern("uniform")).generate = () => null),
      () => void (TOPOLOGY_GENERATORS as unknown as unknown[]).splice(0),
      () => void (anyOf(TOPOLOGY_GENERATORS[0]!).name = "other"),
      () => void (anyOf(RUNTIME_MODELS[0]!).name = "other"),
    ];
    for (const [k, f] of attempts.entries()) expect(refused(f), `attempt ${k}`).toBe(true);
    expect(results()).toBe(before);
    expect(findMachine("sp2-004").ts).toBe(MACHINES.find((x) => x.name === "sp2-004")!.ts);
    expect(() => plan(generatePattern("uniform", 4, {}, 1), "shift")).not.toThrow();
  });
});
