/** torus: a 1D, 2D or 3D torus of routers (dims like 4x4x4), each with hpr hosts; routed in dimension order. */
import { fail } from "../../model/errors.js";
import { GraphBuilder, LINK_PARAMS, linkDefaults, MAX_TOPOLOGY_SWITCHES } from "../graph-builder.js";
import type { SimgridClusterHint } from "../../model/topology.js";
import type { TopologyGenerator } from "../types.js";

/** Parses "4x4x4" into [4, 4, 4] (one to three sizes >= 1). */
export function parseDims(text: string): number[] {
  const parts = text.split("x");
  const dims = parts.map((s) => (/^\d+$/.test(s) ? Number(s) : NaN));
  if (parts.length > 3 || dims.some((d) => !(d >= 1) || d > MAX_TOPOLOGY_SWITCHES))
    throw fail(
      "topology",
      "BAD_OPTION",
      `torus: dims '${text}' is not one to three sizes >= 1 joined by 'x' (e.g. 4x4x4)`,
      {
        field: "dims",
      },
    );
  return dims;
}

/**
 * The near-cubic 3D dims of at least `routers` routers: a side of ceil(cbrt(n)), then each of the last sides shrunk
 * while the product stays >= n.
 */
export function torusDims(routers: number): number[] {
  let side = Math.max(1, Math.ceil(Math.cbrt(routers) - 1e-9));
  while (side ** 3 < routers) side++;
  const dims = [side, side, side];
  for (let i = 2; i >= 0; i--)
    while (dims[i]! > 1 && (dims.reduce((a, b) => a * b, 1) / dims[i]!) * (dims[i]! - 1) >= routers) dims[i]!--;
  return dims;
}

/** The coordinates of router `r` (dimension 0 fastest). */
export function torusCoords(r: number, dims: readonly number[]): number[] {
  const c: number[] = [];
  for (const d of dims) {
    c.push(r % d);
    r = Math.floor(r / d);
  }
  return c;
}

/** A torus: rings of size >= 3 close with a wrap-around cable, a size-2 ring is one cable. */
export const TORUS: TopologyGenerator = {
  name: "torus",
  title: "1D / 2D / 3D torus of routers, dimension-order routing",
  params: [
    {
      name: "dims",
      type: "string",
      description: "ring sizes joined by 'x' (e.g. 4x4 or 4x4x4)",
      default: "near-cubic 3D with >= P/hpr routers",
    },
    { name: "hpr", type: "integer", description: "hosts per router", default: 1, min: 1 },
    ...LINK_PARAMS,
  ],
  build({ params, hosts, machine, spec, maxMemory }) {
    const hpr = typeof params["hpr"] === "number" ? params["hpr"] : 1;
    const dims = typeof params["dims"] === "string" ? parseDims(params["dims"]) : torusDims(Math.ceil(hosts / hpr));
    const routers = dims.reduce((a, b) => a * b, 1);
    if (routers > MAX_TOPOLOGY_SWITCHES)
      throw fail("topology", "BAD_OPTION", `torus: ${routers} routers is more than ${MAX_TOPOLOGY_SWITCHES}`, {
        field: "dims",
      });
    if (routers * hpr < hosts)
      throw fail(
        "topology",
        "BAD_OPTION",
        `torus: ${dims.join("x")} x ${hpr} hosts per router gives ${routers * hpr} hosts, fewer than P = ${hosts}`,
        {
          field: "dims",
        },
      );
    const { bandwidth, latency } = linkDefaults(params, machine);
    const rings = dims.reduce((sum, d) => sum + (d >= 3 ? routers : d === 2 ? routers / 2 : 0), 0);
    const b = new GraphBuilder("topology", maxMemory).reserve(
      routers * hpr,
      routers,
      routers * hpr + rings,
      `torus: ${dims.join("x")} x ${hpr} hosts per router`,
    );
    const names: string[] = [];
    for (let r = 0; r < routers; r++) {
      const coords = torusCoords(r, dims);
      names.push(b.switch(`r${coords.join("_")}`, { coords }));
      for (let h = 0; h < hpr; h++) b.link(b.host(), names[r]!, bandwidth, latency);
    }
    let stride = 1;
    for (const d of dims) {
      for (let r = 0; r < routers; r++) {
        const c = Math.floor(r / stride) % d;
        if (d === 1 || (d === 2 && c === 1)) continue;
        const next = r + (((c + 1) % d) - c) * stride;
        b.link(names[r]!, names[next]!, bandwidth, latency);
      }
      stride *= d;
    }
    const cluster: SimgridClusterHint | undefined =
      hpr === 1 && dims.every((d) => d >= 3)
        ? { topology: "TORUS", topoParameters: dims.join(","), bandwidth, latency }
        : undefined;
    return b.finish(spec, { kind: "torus", dims }, cluster ? { simgridCluster: cluster } : {});
  },
};
