/** The topology generators and their spec strings: `name:key=value,...` parsed, checked and built into a graph. */
import { deepFreeze } from "../internal/deep-freeze.js";
import { fail } from "../model/errors.js";
import { memoryBudgetOf } from "../host/memory.js";
import type { MachineModel } from "../model/machine.js";
import { quoted } from "../internal/quoted.js";
import { CM5_FAT_TREE } from "./generators/cm5-fat-tree.js";
import { DRAGONFLY } from "./generators/dragonfly.js";
import { FAT_TREE } from "./generators/fat-tree.js";
import { FLAT } from "./generators/flat.js";
import { RAIL } from "./generators/rail.js";
import { TORUS } from "./generators/torus.js";
import { MAX_TOPOLOGY_HOSTS } from "./graph-builder.js";
import type { TopologyGenerator, TopologyGraph, TopologyParamValues } from "./types.js";
import { didYouMean } from "../internal/did-you-mean.js";
import { checkArg } from "../model/option-checks.js";

const MODULE = "topology";

/** Every generator, in the order `commplan topologies` lists them. */
export const TOPOLOGY_GENERATORS: readonly TopologyGenerator[] = deepFreeze([
  FLAT,
  FAT_TREE,
  TORUS,
  DRAGONFLY,
  RAIL,
  CM5_FAT_TREE,
]);

/** A parsed specification: the generator and its given parameters (the others take their defaults). */
export interface TopologySpec {
  readonly generator: TopologyGenerator;
  readonly params: TopologyParamValues;
}

/** A bound as a message writes it: 1e12, not 1000000000000. */
function bound(v: number): string {
  return v >= 1e6 ? v.toExponential().replace("e+", "e") : String(v);
}

/** One parameter's text as its declared type, or an error naming it. */
function paramValue(gen: TopologyGenerator, key: string, text: string): number | string {
  const decl = gen.params.find((d) => d.name === key);
  if (!decl)
    throw fail(
      MODULE,
      "BAD_OPTION",
      `${gen.name}: unknown parameter ${quoted(key)}${didYouMean(
        key,
        gen.params.map((d) => d.name),
      )}; known: ${gen.params.map((d) => d.name).join(", ")}`,
      { field: key },
    );
  if (decl.type === "string") return text;
  const v =
    decl.type === "integer" ? (/^\d+$/.test(text) ? Number(text) : NaN) : text.trim() === "" ? NaN : Number(text);
  const max = decl.type === "integer" ? MAX_TOPOLOGY_HOSTS : decl.max;
  if (!Number.isFinite(v) || (decl.min !== undefined && v < decl.min) || (max !== undefined && v > max)) {
    const what = decl.type === "integer" ? "an integer" : "a number";
    const range =
      decl.type === "number" && decl.min !== undefined && max !== undefined
        ? ` in ${bound(decl.min)}..${bound(max)}`
        : `${decl.min !== undefined ? ` >= ${decl.min}` : ""}${max !== undefined ? ` and <= ${max}` : ""}`;
    throw fail(
      MODULE,
      "BAD_OPTION",
      `${gen.name}: ${key} = ${quoted(text)} is not ${what}${range}${decl.unit === undefined ? "" : ` (${decl.unit})`}`,
      { field: key },
    );
  }
  return v;
}

/** Parses `name` or `name:key=value,...` (e.g. "fat-tree:k=8,oversub=4") against the generators' declarations. */
export function parseTopologySpec(spec: string): TopologySpec {
  checkArg(
    MODULE,
    "parseTopologySpec",
    "spec",
    spec,
    typeof spec === "string",
    "a topology spec (a string: name:key=value,...)",
    "BAD_OPTION",
  );
  const colon = spec.indexOf(":");
  const name = (colon < 0 ? spec : spec.slice(0, colon)).trim();
  const generator = TOPOLOGY_GENERATORS.find((g) => g.name === name);
  if (!generator)
    throw fail(
      MODULE,
      "BAD_OPTION",
      `unknown topology ${quoted(name)}${didYouMean(
        name,
        TOPOLOGY_GENERATORS.map((g) => g.name),
      )}; known: ${TOPOLOGY_GENERATORS.map((g) => g.name).join(", ")} (or a .json file)`,
      { field: "topology" },
    );
  const params: { [k: string]: number | string } = Object.create(null) as { [k: string]: number | string };
  const rest = colon < 0 ? "" : spec.slice(colon + 1);
  for (const item of rest === "" ? [] : rest.split(",")) {
    const eq = item.indexOf("=");
    if (eq < 0) throw fail(MODULE, "BAD_OPTION", `${name}: ${quoted(item)} is not key=value`, { field: "topology" });
    const key = item.slice(0, eq).trim();
    if (key in params)
      throw fail(MODULE, "BAD_OPTION", `${name}: parameter ${quoted(key)} given twice`, { field: key });
    params[key] = paramValue(generator, key, item.slice(eq + 1).trim());
  }
  return { generator, params };
}

/** Options of buildTopology and graphFromDescription. */
export interface TopologyBuildOptions {
  /** Bytes the graph may take (refused before it is built); default: half the memory, <= 32 GiB. */
  readonly maxMemory?: number;
}

/**
 * Builds the graph of `spec` with at least `hosts` hosts (ranks 0..hosts-1 on hosts 0..hosts-1); link defaults from
 * `machine`.
 */
export function buildTopology(
  spec: string,
  hosts: number,
  machine?: MachineModel,
  opts: TopologyBuildOptions = {},
): TopologyGraph {
  if (!Number.isInteger(hosts) || hosts < 1 || hosts > MAX_TOPOLOGY_HOSTS)
    throw fail(MODULE, "BAD_OPTION", `the host count ${String(hosts)} is not an integer in 1..${MAX_TOPOLOGY_HOSTS}`, {
      field: "P",
    });
  if (typeof spec !== "string")
    throw fail(MODULE, "BAD_OPTION", `the topology spec must be a string, got ${typeof spec}`, { field: "topology" });
  const { generator, params } = parseTopologySpec(spec);
  const graph = generator.build({ params, hosts, machine, spec, maxMemory: memoryBudgetOf(opts) });
  const built = graph.graph().hosts;
  if (built < hosts)
    throw fail(
      MODULE,
      "BAD_OPTION",
      `${spec}: builds ${built} hosts, fewer than P = ${hosts}: choose larger parameters`,
      {
        field: "topology",
      },
    );
  return graph;
}
