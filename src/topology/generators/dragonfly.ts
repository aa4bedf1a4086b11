/**
 * dragonfly: groups of all-to-all connected routers, groups joined by global links (Kim et al. 2008); minimal routing.
 */
import { fail } from "../../model/errors.js";
import { GraphBuilder, LINK_BANDWIDTH_RANGE, LINK_PARAMS, linkDefaults } from "../graph-builder.js";
import type { TopologyGenerator } from "../types.js";

/**
 * `groups` groups of `routers` routers (all-to-all inside a group), `hpr` hosts per router, `globals`
 * global ports per router. Global cables are laid in whole passes over the group pairs (i < j, in
 * order), each taking the next free port of both groups (router = port / globals), so every pair of
 * groups is joined by floor(routers x globals / (groups - 1)) cables; groups - 1 <= routers x globals.
 */
export const DRAGONFLY: TopologyGenerator = {
  name: "dragonfly",
  title: "dragonfly: all-to-all groups joined by global links, minimal (local-global-local) routing",
  params: [
    { name: "groups", type: "integer", description: "number of groups", default: "ceil(P / (routers x hpr))", min: 1 },
    { name: "routers", type: "integer", description: "routers per group", default: 4, min: 1 },
    { name: "hpr", type: "integer", description: "hosts per router", default: 2, min: 1 },
    {
      name: "globals",
      type: "integer",
      description: "global links per router",
      default: "max(2, ceil((groups - 1) / routers)): enough to join every two groups",
      min: 1,
    },
    {
      name: "gbw",
      type: "number",
      description: "bandwidth of a global link",
      default: "bw",
      ...LINK_BANDWIDTH_RANGE,
      unit: "bytes/us",
    },
    ...LINK_PARAMS,
  ],
  build({ params, hosts, machine, spec, maxMemory }) {
    const a = typeof params["routers"] === "number" ? params["routers"] : 4;
    const p = typeof params["hpr"] === "number" ? params["hpr"] : 2;
    const g = typeof params["groups"] === "number" ? params["groups"] : Math.max(1, Math.ceil(hosts / (a * p)));
    // by default every two groups are joined (past 9 groups of 4 routers, 2 global links per router are too few)
    const h = typeof params["globals"] === "number" ? params["globals"] : Math.max(2, Math.ceil((g - 1) / a));
    if (g * a * p < hosts)
      throw fail(
        "topology",
        "BAD_OPTION",
        `dragonfly: ${g} groups x ${a} routers x ${p} hosts gives ${g * a * p} hosts, fewer than P = ${hosts}`,
        {
          field: "groups",
        },
      );
    if (g - 1 > a * h)
      throw fail(
        "topology",
        "BAD_OPTION",
        `dragonfly: ${g} groups need ${g - 1} global links per group but routers x globals = ${a * h}: raise routers or globals (at most routers x globals + 1 groups)`,
        { field: "groups" },
      );
    const { bandwidth, latency } = linkDefaults(params, machine);
    const gbw = typeof params["gbw"] === "number" ? params["gbw"] : bandwidth;
    const passes = g > 1 ? Math.floor((a * h) / (g - 1)) : 0;
    const b = new GraphBuilder("topology", maxMemory).reserve(
      g * a * p,
      g * a,
      g * a * p + (g * a * (a - 1)) / 2 + (passes * g * (g - 1)) / 2,
      `dragonfly: ${g} groups x ${a} routers x ${p} hosts`,
    );
    const name = (grp: number, r: number): string => `g${grp}r${r}`;
    for (let grp = 0; grp < g; grp++) {
      for (let r = 0; r < a; r++) {
        b.switch(name(grp, r), { group: grp });
        for (let x = 0; x < p; x++) b.link(b.host(), name(grp, r), bandwidth, latency);
      }
      for (let r = 0; r < a; r++)
        for (let s = r + 1; s < a; s++) b.link(name(grp, r), name(grp, s), bandwidth, latency);
    }
    const port = new Array<number>(g).fill(0);
    for (let pass = 0; pass < passes; pass++)
      for (let i = 0; i < g; i++)
        for (let j = i + 1; j < g; j++) {
          const ri = Math.floor(port[i]!++ / h),
            rj = Math.floor(port[j]!++ / h);
          b.link(name(i, ri), name(j, rj), gbw, latency);
        }
    return b.finish(spec, { kind: "dragonfly", groups: g });
  },
};
