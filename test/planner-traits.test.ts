/** Planners describe themselves: every registered planner declares what auto and the verifier's claims need, the lists auto and compare use come from those traits, a toy planner added in one registry line reaches auto and compare, and no planner name decides behaviour outside src/planner. */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import {
  AUTO_ALWAYS_FINAL,
  AUTO_SIMULATED_FIRST,
  AUTO_VARIANTS,
  DIRECT_VARIANTS,
  RELAYED_STAGES,
  autoVariants,
  planAuto,
  screenFormulas,
  variantLabel,
} from "../src/auto/index.js";
import { runCandidates } from "../src/compare/candidates.js";
import { TE_TABLE_ALGORITHMS } from "../src/experiments/te-table.js";
import { findMachine } from "../src/machines/presets.js";
import { generatePattern } from "../src/patterns/registry.js";
import { definePlanner } from "../src/planner/plan-params.js";
import { PLANNERS, autoProfileOf, findPlanner, resolvePlanOptions } from "../src/planner/registry.js";
import { predictShift } from "../src/planner/shift.js";
import { TE_MAX_ELEMENTS } from "../src/planner/total-exchange/te-offline.js";
import type { Planner } from "../src/planner/types.js";
import { CLAIMS } from "../src/verifier/claims.js";

const src = join(import.meta.dirname, "..", "src");

/** The toy planner, as its own module would define it: shift's plan under another name, with its traits and auto profile. */
const toy: Planner = definePlanner(
  {
    name: "toy",
    title: "a toy: shift's plan under another name",
    source: "test/planner-traits.test.ts",
    params: {},
    traits: { relayed: false, randomised: false, stages: 1, growth: "linear", claims: "none" },
    auto: {
      variants: [{ params: {}, priority: -3, alwaysFinal: true }],
      predict: (m, machine, mode) => predictShift(m, machine, mode),
      bound: "busiest-node",
    },
  },
  (m, opts) => {
    const shift = findPlanner("shift");
    const s = shift.plan(
      m,
      resolvePlanOptions(shift, { payload: opts.payload, seed: opts.seed, machine: opts.machine }),
    );
    return { ...s, algorithm: "toy" };
  },
);
/** The registry with the toy's one line added. */
const WITH_TOY: readonly Planner[] = [...PLANNERS, toy];

describe("planner traits", () => {
  it("every registered planner has an auto profile with variants and a prediction or a bound, or says why it has none", () => {
    const bad: string[] = [];
    for (const p of PLANNERS) {
      const profile = autoProfileOf(p);
      if (profile === null) {
        if (!("none" in p.auto) || p.auto.none.trim() === "") bad.push(`${p.name}: no auto profile and no reason`);
      } else if (profile.variants.length === 0) bad.push(`${p.name}: an auto profile without variants`);
      else if (profile.predict === undefined && profile.bound === undefined)
        bad.push(`${p.name}: an auto profile with neither a prediction nor a bound`);
    }
    expect(bad).toEqual([]);
  });

  it("the verifier's claims and the planners' claims trait agree: both ways, by name", () => {
    const registered = new Set(PLANNERS.map((p) => p.name));
    const claimed = PLANNERS.filter((p) => p.traits.claims === "verifier").map((p) => p.name);
    expect(claimed.filter((name) => CLAIMS[name] === undefined)).toEqual([]);
    expect(Object.keys(CLAIMS).filter((name) => !registered.has(name))).toEqual([]);
    const none = PLANNERS.filter((p) => p.traits.claims === "none").map((p) => p.name);
    expect(none.filter((name) => CLAIMS[name] !== undefined)).toEqual([]);
  });

  it("auto's lists come out of the traits as they stood when they named planners (tie-break order included)", () => {
    expect(AUTO_VARIANTS.map(variantLabel)).toEqual([
      "mpi-linear",
      "shift",
      "linear-permutation",
      "rs-n",
      "rs-nh",
      "coloring",
      "split-coloring",
      "two-stage(schedule=shift)",
      "two-stage(schedule=linear-permutation)",
      "mesh-two-stage(schedule=shift)",
      "mesh-two-stage(schedule=linear-permutation)",
      "hierarchical",
      "four-stage",
      "te-offline",
      "mpi-ring",
      "mpi-scattered",
      "mpi-bruck",
    ]);
    expect([...DIRECT_VARIANTS]).toEqual([
      "linear-permutation",
      "shift",
      "rs-n",
      "rs-nh",
      "coloring",
      "split-coloring",
      "mpi-linear",
      "mpi-ring",
      "mpi-scattered",
    ]);
    expect([...RELAYED_STAGES]).toEqual([
      ["two-stage", 2],
      ["four-stage", 4],
    ]);
    expect(AUTO_ALWAYS_FINAL).toEqual([
      "mpi-linear",
      "shift",
      "linear-permutation",
      "mesh-two-stage(schedule=shift)",
      "hierarchical",
    ]);
    expect(AUTO_SIMULATED_FIRST).toEqual(["mesh-two-stage(schedule=shift)", "hierarchical"]);
    const superlinear = PLANNERS.filter((p) => autoProfileOf(p) !== null && p.traits.growth === "superlinear");
    expect(superlinear.map((p) => p.name)).toEqual([
      "two-stage",
      "mesh-two-stage",
      "hierarchical",
      "four-stage",
      "te-offline",
    ]);
    expect(TE_TABLE_ALGORITHMS).toEqual(["te-direct", "te-balanced", "te-offline"]);
  });

  it("keeps the two element limits apart: compare's for every total-exchange planner, auto's for te-offline", () => {
    const te = PLANNERS.filter((p) => p.traits.family?.name === "total-exchange");
    expect(te.length).toBe(6);
    for (const p of te) expect(p.traits.elementLimit).toBe(20_000);
    expect(PLANNERS.filter((p) => p.traits.elementLimit !== undefined)).toEqual(te);
    const limited = PLANNERS.filter((p) => autoProfileOf(p)?.maxElements !== undefined);
    expect(limited.map((p) => [p.name, autoProfileOf(p)!.maxElements])).toEqual([["te-offline", TE_MAX_ELEMENTS]]);
  });
});

describe("a planner added in one registry line", () => {
  const machine = findMachine("t3d-004");
  const m = generatePattern("pattern1", 8, {}, 1);

  it("is among auto's variants, screened by its own prediction, and weighed by planAuto", () => {
    expect(autoVariants(WITH_TOY).map(variantLabel)[0]).toBe("toy");
    const screen = screenFormulas(m, machine, "blocking", autoVariants(WITH_TOY), false, WITH_TOY).results;
    const mine = screen.find((r) => r.variant.algorithm === "toy")!;
    const shift = screen.find((r) => r.variant.algorithm === "shift")!;
    expect(mine.how).toBe("formula");
    expect(mine.predicted).toBe(shift.predicted);
    const { report } = planAuto(m, machine, { planners: WITH_TOY });
    expect(report.candidates.map((c) => c.algorithm)).toContain("toy");
    // marked alwaysFinal: a finalist whatever the screen says, priced as shift
    const byName = (name: string) => report.candidates.find((c) => c.algorithm === name)!;
    expect(byName("toy").note).toMatch(/^(winner|finalist)/);
    expect(byName("toy").predicted).toBe(byName("shift").predicted);
    expect(planAuto(m, machine).report.candidates.map((c) => c.algorithm)).not.toContain("toy");
  });

  it("is among compare's candidates", () => {
    const run = runCandidates(m, { machine, planners: WITH_TOY });
    expect(run.candidates.map((c) => c.algorithm)).toContain("toy");
  });
});

/** Files that may name planners: the planners' own modules and the registry, and the verifier's claims (keyed by the algorithm a schedule names, never from planner code). */
const EXEMPT = [/^planner\//, /^verifier\/claims[^/]*\.ts$/];

/** Uses of a planner's name outside EXEMPT that decide nothing about a planner: file, name, why. */
const ALLOWED: readonly { readonly file: string; readonly name: string; readonly why: string }[] = [
  {
    file: "testing/runtime-property.ts",
    name: "linear-permutation",
    why: "the default plan of the runtime property when the caller gives none",
  },
  ...["te-direct", "te-balanced", "te-offline"].map((name) => ({
    file: "experiments/te-table-checks.ts",
    name,
    why: "001's table as the paper states it, row by named protocol, compared with ours (as the verifier's claims)",
  })),
];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe("planner names", () => {
  it("no string literal outside src/planner and the verifier's claims equals a registered planner's name (allow-list aside)", () => {
    const names = new Set(PLANNERS.map((p) => p.name));
    const found: string[] = [];
    for (const file of tsFiles(src)) {
      const rel = relative(src, file);
      if (EXEMPT.some((re) => re.test(rel))) continue;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          const code = line.trimStart();
          if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) return;
          for (const lit of line.replace(/\s\/\/\s.*$/, "").matchAll(/(["'`])([a-z0-9-]+)\1/g)) {
            const name = lit[2]!;
            if (names.has(name) && !ALLOWED.some((a) => a.file === rel && a.name === name))
              found.push(`src/${rel}:${i + 1}: "${name}"`);
          }
        });
    }
    expect(found).toEqual([]);
  });

  it("finds a planner name where one is (the scan is not blind)", () => {
    const text = readFileSync(join(src, "testing", "runtime-property.ts"), "utf8");
    expect(text).toMatch(/"linear-permutation"/);
  });
});
