/**
 * rail: a rail-optimised GPU cluster: g GPUs per node on an NVLink switch, GPU i of every node on leaf (rail) i, spines
 * above the leaves.
 */
import {
  GraphBuilder,
  LINK_BANDWIDTH_RANGE,
  LINK_PARAMS,
  ROUTING_PARAM,
  linkDefaults,
  shortestPolicy,
} from "../graph-builder.js";
import type { TopologyGenerator } from "../types.js";

/** The NVLink bandwidth by default: 450000 bytes/us (450 GB/s per GPU and direction, NVLink 4). */
export const DEFAULT_NVLINK_BANDWIDTH = 450000;

/**
 * Host n x gpus + i is GPU i of node n: linked to switch nv<n> (nvbw) and leaf rail<i> (bw); every leaf to every spine
 * (bw).
 */
export const RAIL: TopologyGenerator = {
  name: "rail",
  title: "rail-optimised GPU cluster: NVLink switch per node, one leaf per GPU index (rail), spines",
  params: [
    { name: "gpus", type: "integer", description: "GPUs per node (= rails)", default: 8, min: 1 },
    { name: "nodes", type: "integer", description: "number of nodes", default: "ceil(P / gpus)", min: 1 },
    {
      name: "spines",
      type: "integer",
      description: "spine switches (each linked to every leaf)",
      default: "nodes (non-blocking)",
      min: 1,
    },
    {
      name: "nvbw",
      type: "number",
      description: "bandwidth of a GPU's NVLink",
      default: DEFAULT_NVLINK_BANDWIDTH,
      ...LINK_BANDWIDTH_RANGE,
      unit: "bytes/us",
    },
    ROUTING_PARAM,
    ...LINK_PARAMS,
  ],
  build({ params, hosts, machine, spec, maxMemory }) {
    const g = typeof params["gpus"] === "number" ? params["gpus"] : 8;
    const n = typeof params["nodes"] === "number" ? params["nodes"] : Math.max(1, Math.ceil(hosts / g));
    const spines = typeof params["spines"] === "number" ? params["spines"] : n;
    const nvbw = typeof params["nvbw"] === "number" ? params["nvbw"] : DEFAULT_NVLINK_BANDWIDTH;
    const { bandwidth, latency } = linkDefaults(params, machine);
    const b = new GraphBuilder("topology", maxMemory).reserve(
      n * g,
      g + spines + n,
      2 * n * g + g * spines,
      `rail: ${n} nodes x ${g} GPUs, ${spines} spines`,
    );
    const rails: string[] = [];
    for (let i = 0; i < g; i++) rails.push(b.switch(`rail${i}`));
    for (let s = 0; s < spines; s++) {
      const spine = b.switch(`spine${s}`);
      for (const rail of rails) b.link(rail, spine, bandwidth, latency);
    }
    for (let node = 0; node < n; node++) {
      const nv = b.switch(`nv${node}`);
      for (let i = 0; i < g; i++) {
        const gpu = b.host();
        b.link(gpu, nv, nvbw, latency);
        b.link(gpu, rails[i]!, bandwidth, latency);
      }
    }
    return b.finish(spec, shortestPolicy(params, "rail"));
  },
};
