/** flat: every host on one non-blocking switch (the simulator's flat model of 004 sec 2). */
import { GraphBuilder, LINK_PARAMS, linkDefaults } from "../graph-builder.js";
import type { TopologyGenerator } from "../types.js";

/** One switch, P hosts, one link per host. */
export const FLAT: TopologyGenerator = {
  name: "flat",
  title:
    "every host on one non-blocking switch, links of lat and bw (a program replay on it charges links only, not the machine's T_s as on its own cluster: T_s / 2 per link)",
  params: LINK_PARAMS,
  build({ params, hosts, machine, spec, maxMemory }) {
    const { bandwidth, latency } = linkDefaults(params, machine);
    const b = new GraphBuilder("topology", maxMemory).reserve(hosts, 1, hosts, "flat");
    const sw = b.switch("sw");
    for (let h = 0; h < hosts; h++) b.link(b.host(), sw, bandwidth, latency);
    return b.finish(
      spec,
      { kind: "shortest", pick: "ecmp" },
      { simgridCluster: { topology: "FLAT", bandwidth, latency } },
    );
  },
};
