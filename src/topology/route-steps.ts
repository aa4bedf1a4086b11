/** Routing steps over the typed-array tables: shortest paths with ECMP, dimension order on tori, minimal (local-global-local) on dragonflies. */
import { fail } from "../model/errors.js";
import { checkMemory } from "../model/memory-budget.js";
import type { NetworkTables } from "./network-tables.js";
import type { RoutingPolicy, TopologyGraph } from "./types.js";

const MODULE = "topology";
const UNREACHED = 0xffff;

/** A deterministic 32-bit hash of a (src, dst) pair and a salt (murmur3's finaliser): the ECMP choice. */
export function pairHash(a: number, b: number, salt: number): number {
  let h = Math.imul(a + 1, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77) ^ Math.imul(salt + 3, 0xc2b2ae3d);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hop distances to every host-attached switch: row rowOf[d] holds the distance of every switch to d (breadth-first search). */
function distanceRows(t: NetworkTables, name: string): { rowOf: Int32Array; dist: Uint16Array } {
  const rowOf = new Int32Array(t.switches).fill(-1);
  let rows = 0;
  for (const s of t.hostSw) if (rowOf[s]! < 0) rowOf[s] = rows++;
  checkMemory(MODULE, rows * t.switches * 2, `a ${rows} x ${t.switches} switch distance table`, { field: "topology" });
  const dist = new Uint16Array(rows * t.switches).fill(UNREACHED);
  const queue = new Int32Array(t.switches);
  for (let d = 0; d < t.switches; d++) {
    const row = rowOf[d]!;
    if (row < 0) continue;
    const base = row * t.switches;
    dist[base + d] = 0;
    let head = 0,
      tail = 0;
    queue[tail++] = d;
    while (head < tail) {
      const s = queue[head++]!;
      const next = dist[base + s]! + 1;
      if (next >= UNREACHED) throw fail(MODULE, "BAD_INPUT", `${name}: a route is longer than ${UNREACHED - 1} hops`);
      for (let k = t.swStart[s]!; k < t.swStart[s + 1]!; k++) {
        const n = t.swNbr[k]!;
        if (dist[base + n] === UNREACHED) {
          dist[base + n] = next;
          queue[tail++] = n;
        }
      }
    }
  }
  return { rowOf, dist };
}

/** The directed link from switch s to switch n (a hash picks among parallel cables), or -1. */
export function linkTo(t: NetworkTables, s: number, n: number, hash: number): number {
  let first = -1,
    count = 0;
  for (let k = t.swStart[s]!; k < t.swStart[s + 1]!; k++)
    if (t.swNbr[k] === n) {
      if (first < 0) first = k;
      count++;
    }
  return first < 0 ? -1 : t.swLink[first + (hash % count)]!;
}

/** One routing step: the directed link from switch `cur` towards switch `dst` for the pair (a, b) at hop `hop`. */
export type Step = (cur: number, dst: number, a: number, b: number, hop: number) => number;

/**
 * Shortest-path steps from next-hop tables: for switch s and destination row r, pool[at[r x S + s]]
 * is the number of links to a neighbour one hop closer and the links follow; the hash of (a, b, hop)
 * picks one (ECMP). Equal lists are stored once (a fat tree's up-links are the same list for every
 * far destination), which keeps the pool small enough to stay in cache.
 */
function shortestStep(t: NetworkTables, rowOf: Int32Array, dist: Uint16Array): Step {
  const S = t.switches;
  const rows = dist.length / S;
  checkMemory(MODULE, rows * S * 4, `a ${rows} x ${S} next-hop table`, { field: "topology" });
  const at = new Int32Array(rows * S);
  const pool: number[] = [];
  const seen = new Map<number | string, number>();
  const list: number[] = [];
  for (let r = 0; r < rows; r++) {
    const base = r * S;
    for (let s = 0; s < S; s++) {
      const want = dist[base + s]! - 1;
      const k0 = t.swStart[s]!,
        k1 = t.swStart[s + 1]!;
      let mask = 0;
      list.length = 0;
      for (let k = k0; k < k1; k++)
        if (dist[base + t.swNbr[k]!] === want) {
          list.push(t.swLink[k]!);
          if (k - k0 < 31) mask |= 1 << (k - k0);
        }
      const key = k1 - k0 <= 31 ? s * 2 ** 31 + mask : list.join(",");
      let idx = seen.get(key);
      if (idx === undefined) {
        idx = pool.length;
        pool.push(list.length, ...list);
        seen.set(key, idx);
      }
      at[base + s] = idx;
    }
  }
  const hops = Int32Array.from(pool);
  return (cur, dst, a, b, hop) => {
    const i = at[rowOf[dst]! * S + cur]!;
    return hops[i + 1 + (pairHash(a, b, hop) % hops[i]!)]!;
  };
}

/** Dimension-order steps on a torus: the first dimension whose coordinate differs, the shorter way round (+ on a tie). */
function torusStep(t: NetworkTables, dims: readonly number[], coords: Int32Array): Step {
  const nd = dims.length;
  // the link of each switch in each dimension and direction (+ at 2i, - at 2i + 1), -1 where there is none
  const dir = new Int32Array(t.switches * 2 * nd).fill(-1);
  for (let s = 0, stride = 1; s < t.switches; s++, stride = 1)
    for (let i = 0; i < nd; i++, stride *= dims[i - 1]!) {
      const d = dims[i]!,
        c = coords[s * nd + i]!;
      dir[(s * nd + i) * 2] = linkTo(t, s, s + (((c + 1) % d) - c) * stride, 0);
      dir[(s * nd + i) * 2 + 1] = linkTo(t, s, s + (((c - 1 + d) % d) - c) * stride, 0);
    }
  return (cur, dst) => {
    for (let i = 0; i < nd; i++) {
      const c = coords[cur * nd + i]!,
        e = coords[dst * nd + i]!;
      if (c !== e) {
        const d = dims[i]!;
        return dir[(cur * nd + i) * 2 + ((e - c + d) % d <= d / 2 ? 0 : 1)]!;
      }
    }
    return -1;
  };
}

/** Minimal dragonfly steps: inside the destination group one local hop; else to the router holding the chosen global cable, then across it. */
function dragonflyStep(t: NetworkTables, groups: number, group: Int32Array): Step {
  // global cables of each ordered group pair (gi, gj): the directed link ids leaving gi towards gj
  const count = new Int32Array(groups * groups + 1);
  const isGlobal = (l: number): boolean => {
    const u = t.from[l]! - t.hosts,
      v = t.to[l]! - t.hosts;
    return u >= 0 && v >= 0 && group[u] !== group[v];
  };
  const pairOf = (l: number): number => group[t.from[l]! - t.hosts]! * groups + group[t.to[l]! - t.hosts]!;
  for (let l = 0; l < t.from.length; l++) if (isGlobal(l)) count[pairOf(l) + 1]!++;
  for (let i = 0; i < groups * groups; i++) count[i + 1]! += count[i]!;
  const fill = count.slice(0, groups * groups);
  const globals = new Int32Array(count[groups * groups]!);
  for (let l = 0; l < t.from.length; l++) if (isGlobal(l)) globals[fill[pairOf(l)]!++] = l;
  // local links: router s to the router at position j of its group (routers of a group in index order)
  const pos = new Int32Array(t.switches),
    size = new Int32Array(groups),
    first = new Int32Array(groups).fill(-1);
  for (let s = 0; s < t.switches; s++) {
    pos[s] = size[group[s]!]!++;
    if (first[group[s]!]! < 0) first[group[s]!] = s;
  }
  const a = Math.max(...size);
  const local = new Int32Array(t.switches * a).fill(-1);
  for (let s = 0; s < t.switches; s++)
    for (let k = t.swStart[s]!; k < t.swStart[s + 1]!; k++) {
      const n = t.swNbr[k]!;
      if (group[n] === group[s] && local[s * a + pos[n]!]! < 0) local[s * a + pos[n]!] = t.swLink[k]!;
    }
  return (cur, dst, x, y) => {
    const gc = group[cur]!,
      gd = group[dst]!;
    if (gc === gd) return local[cur * a + pos[dst]!]!;
    const pair = gc * groups + gd;
    const n = count[pair + 1]! - count[pair]!;
    if (n === 0) return -1;
    const l = globals[count[pair]! + (pairHash(x, y, 1) % n)]!;
    const r = t.from[l]! - t.hosts;
    return r === cur ? l : local[cur * a + pos[r]!]!;
  };
}

/** The per-switch numbers of a node label field (torus coordinates, dragonfly group). */
function switchField(
  graph: TopologyGraph,
  t: NetworkTables,
  width: number,
  get: (n: ReturnType<TopologyGraph["node"]>) => readonly number[] | undefined,
): Int32Array {
  const out = new Int32Array(t.switches * width);
  for (let s = 0; s < t.switches; s++) {
    const v = get(graph.node(t.switchName[s]!));
    if (!v || v.length !== width)
      throw fail(MODULE, "BAD_INPUT", `${graph.graph().name}: switch ${t.switchName[s]} lacks its routing coordinates`);
    out.set(v, s * width);
  }
  return out;
}

/** The step function of a routing policy and the most switch-to-switch hops it takes. */
export function policyStep(
  graph: TopologyGraph,
  t: NetworkTables,
  policy: RoutingPolicy,
): { step: Step; maxSwitchHops: number; dist?: { rowOf: Int32Array; dist: Uint16Array } } {
  if (policy.kind === "torus") {
    const coords = switchField(graph, t, policy.dims.length, (n) => n.coords);
    return {
      step: torusStep(t, policy.dims, coords),
      maxSwitchHops: policy.dims.reduce((s, d) => s + Math.floor(d / 2), 0),
    };
  }
  if (policy.kind === "dragonfly") {
    const group = switchField(graph, t, 1, (n) => (n.group === undefined ? undefined : [n.group]));
    return { step: dragonflyStep(t, policy.groups, group), maxSwitchHops: policy.groups > 1 ? 3 : 1 };
  }
  const d = distanceRows(t, graph.graph().name);
  let max = 0;
  const ends = [...new Set(t.hostSw)];
  for (const s of ends) {
    const base = d.rowOf[s]! * t.switches;
    for (const u of ends) if (d.dist[base + u]! !== UNREACHED) max = Math.max(max, d.dist[base + u]!);
  }
  return { step: shortestStep(t, d.rowOf, d.dist), maxSwitchHops: max, dist: d };
}
