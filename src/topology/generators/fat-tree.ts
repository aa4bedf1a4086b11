/**
 * fat-tree: the three-level k-ary fat tree (k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 cores, k^3/4
 * hosts).
 */
import { fail } from "../../model/errors.js";
import { GraphBuilder, LINK_PARAMS, ROUTING_PARAM, linkDefaults, shortestPolicy } from "../graph-builder.js";
import type { TopologyGenerator } from "../types.js";

/** The oversubscription ratios of the edge and aggregation levels from "4" (edge only) or "2/1". */
export function parseOversub(text: string): [number, number] {
  const parts = text.split("/");
  const vals = parts.map((s) => (/^\s*\d+(\.\d+)?\s*$/.test(s) ? Number(s) : NaN));
  if (parts.length > 2 || vals.some((v) => !(v >= 1)))
    throw fail(
      "topology",
      "BAD_OPTION",
      `fat-tree: oversub '${text}' is not one or two ratios >= 1 separated by '/' (e.g. 4 or 2/1)`,
      { field: "oversub" },
    );
  return [vals[0]!, vals[1] ?? 1];
}

/** The smallest even k whose tree has at least `hosts` hosts. */
export function fatTreeK(hosts: number): number {
  let k = 2;
  while ((k * k * k) / 4 < hosts) k += 2;
  return k;
}

/** The k-ary fat tree; an oversubscribed level's uplinks carry bw / ratio. */
export const FAT_TREE: TopologyGenerator = {
  name: "fat-tree",
  title: "k-ary three-level fat tree (Al-Fares et al.), oversubscription per level",
  params: [
    {
      name: "k",
      type: "integer",
      description: "switch radix (even)",
      default: "the smallest even k with k^3/4 >= P",
      min: 2,
    },
    {
      name: "oversub",
      type: "string",
      description:
        "oversubscription ratio of the edge level, or edge/aggregation (e.g. 4 or 2/1): uplinks carry bw / ratio",
      default: "1",
    },
    ROUTING_PARAM,
    ...LINK_PARAMS,
  ],
  build({ params, hosts, machine, spec, maxMemory }) {
    const k = typeof params["k"] === "number" ? params["k"] : fatTreeK(hosts);
    if (k % 2 !== 0) throw fail("topology", "BAD_OPTION", `fat-tree: k = ${k} must be even`, { field: "k" });
    const cap = (k * k * k) / 4;
    if (cap < hosts)
      throw fail("topology", "BAD_OPTION", `fat-tree: k = ${k} gives ${cap} hosts, fewer than P = ${hosts}`, {
        field: "k",
      });
    const [o1, o2] = parseOversub(String(params["oversub"] ?? "1"));
    const { bandwidth, latency } = linkDefaults(params, machine);
    const half = k / 2;
    const b = new GraphBuilder("topology", maxMemory).reserve(
      k * half * half,
      half * half + k * k,
      3 * k * half * half,
      `fat-tree: k = ${k}`,
    );
    const cores: string[] = [];
    for (let c = 0; c < half * half; c++) cores.push(b.switch(`core${c}`));
    for (let pod = 0; pod < k; pod++) {
      const aggs: string[] = [];
      for (let j = 0; j < half; j++) aggs.push(b.switch(`agg${pod}_${j}`));
      for (let e = 0; e < half; e++) {
        const edge = b.switch(`edge${pod}_${e}`);
        for (let h = 0; h < half; h++) b.link(b.host(), edge, bandwidth, latency);
        for (const agg of aggs) b.link(edge, agg, bandwidth / o1, latency);
      }
      for (let j = 0; j < half; j++)
        for (let c = 0; c < half; c++) b.link(aggs[j]!, cores[j * half + c]!, bandwidth / o2, latency);
    }
    const exact = o1 === 1 && o2 === 1;
    return b.finish(
      spec,
      shortestPolicy(params, "fat-tree"),
      exact
        ? {
            simgridCluster: {
              topology: "FAT_TREE",
              topoParameters: `3;${half},${half},${k};1,${half},${half};1,1,1`,
              bandwidth,
              latency,
            },
          }
        : {},
    );
  },
};
