/** cm5-fat-tree: the CM-5 data network of 000 sec 3 as a tree of clusters of 4 and 16 under one root. */
import { fail } from "../../model/errors.js";
import { DEFAULT_LINK_LATENCY, GraphBuilder, LATENCY_PARAM } from "../graph-builder.js";
import type { TopologyGenerator } from "../types.js";

/**
 * 000 sec 3's per-node rates (MB/s = bytes/us) within a cluster of 4, of 16, otherwise (as src/machines/sim/topology.ts
 * CM5_RATES).
 */
export const CM5_LINK_RATES = { cluster4: 20, cluster16: 10, other: 5 } as const;

/**
 * Hosts 4i..4i+3 on switch c4_i, c4 switches 4j..4j+3 on c16_j, every c16 on the root. Capacities are
 * per-node rates times the nodes below: host links 20, c4 uplinks 4 x 10 = 40, c16 uplinks 16 x 5 = 80
 * bytes/us, so that when every node sends out of its cluster each gets 000's rate.
 */
export const CM5_FAT_TREE: TopologyGenerator = {
  name: "cm5-fat-tree",
  title: "CM-5 data network (000 sec 3): clusters of 4 and 16, 20/10/5 MB/s per node",
  params: [LATENCY_PARAM],
  build({ params, hosts, spec, maxMemory }) {
    if (hosts < 1) throw fail("topology", "BAD_OPTION", "cm5-fat-tree: needs at least one host", { field: "P" });
    const lat = typeof params["lat"] === "number" ? params["lat"] : DEFAULT_LINK_LATENCY;
    const { cluster4, cluster16, other } = CM5_LINK_RATES;
    const n4 = Math.ceil(hosts / 4),
      n16 = Math.ceil(hosts / 16);
    const b = new GraphBuilder("topology", maxMemory).reserve(hosts, n4 + n16 + 1, hosts + n4 + n16, "cm5-fat-tree");
    const root = n16 > 1 ? b.switch("root") : null;
    const c16: string[] = [];
    for (let j = 0; j < n16 && n4 > 1; j++) {
      c16.push(b.switch(`c16_${j}`));
      if (root) b.link(c16[j]!, root, 16 * other, lat);
    }
    for (let i = 0; i < n4; i++) {
      const c4 = b.switch(`c4_${i}`);
      if (c16.length > 0) b.link(c4, c16[i >> 2]!, 4 * cluster16, lat);
      for (let h = 4 * i; h < Math.min(hosts, 4 * i + 4); h++) b.link(b.host(), c4, cluster4, lat);
    }
    return b.finish(spec, { kind: "shortest", pick: "ecmp" });
  },
};
