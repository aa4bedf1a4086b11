/**
 * Routing steps over the typed-array tables: shortest paths with ECMP, dimension order on tori, minimal
 * (local-global-local) on dragonflies.
 */
import { fail } from "../model/errors.js";
import { checkMemory } from "../model/memory-budget.js";
import type { NetworkTables } from "./network-tables.js";
import type { NextHopPick } from "../model/topology.js";
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
 * The switch-to-switch part of the route of the pair (a, b): the links from switch `cur` to switch
 * `dst` written into out[n], out[n + 1], ... (link k chosen as hop n + k); returns the count so far,
 * or -1 when a step finds no link.
 */
export type Walk = (cur: number, dst: number, a: number, b: number, out: Int32Array, n: number) => number;

/** The walk of a step function: one step after another until `dst`. */
function stepWalk(t: NetworkTables, step: Step): Walk {
  return (cur, dst, a, b, out, n) => {
    while (cur !== dst) {
      const l = step(cur, dst, a, b, n);
      if (l < 0) return -1;
      out[n++] = l;
      cur = t.to[l]! - t.hosts;
    }
    return n;
  };
}

/** Bytes of one destination switch's rows: a Uint16Array distance and an Int32Array next-hop entry per switch. */
const ROW_BYTES_PER_SWITCH = 6;

/** Shortest-path routing tables built on demand (shortestRows). */
export interface ShortestRows {
  /**
   * The walk to dst: at each switch the link to a neighbour one hop closer, picked by the hash of (a, b, hop) or,
   * D-mod-k, by b.
   */
  readonly walk: Walk;
  /**
   * Of the links of hosts a and b, the pair whose switches are fewest hops apart (a hash of (a, b)
   * picks among equal pairs): its entries of hostSw into pair[0] (a's) and pair[1] (b's).
   */
  nearest(a: number, b: number, pair: Int32Array): void;
  /** The number of destination switches whose tables are built. */
  readonly rows: number;
}

/** Lists of directed links, each distinct list of a switch stored once: data[i] is the count, the links follow. */
class LinkLists {
  data = new Int32Array(1024);
  length = 0;
  /** Index of a list by its hash (a list whose hash is taken by a different list is stored again). */
  private readonly seen = new Map<number, number>();

  /** The index of the first n links of `list` (hash h), stored if new. */
  intern(list: Int32Array, n: number, h: number): number {
    const key = (h >>> 0) + n * 2 ** 32;
    const old = this.seen.get(key);
    if (old !== undefined && this.data[old] === n) {
      let same = true;
      for (let j = 0; j < n && same; j++) same = this.data[old + 1 + j] === list[j];
      if (same) return old;
    }
    const idx = this.length;
    if (idx + 1 + n > this.data.length) {
      const grown = new Int32Array(Math.max(2 * this.data.length, idx + 1 + n));
      grown.set(this.data.subarray(0, idx));
      this.data = grown;
    }
    this.data[idx] = n;
    this.data.set(list.subarray(0, n), idx + 1);
    this.length = idx + 1 + n;
    if (old === undefined) this.seen.set(key, idx);
    return idx;
  }
}

/** Fills dist[base + s] with the hops from every switch s to switch d (breadth-first search; UNREACHED where none). */
function distanceRow(
  t: NetworkTables,
  name: string,
  d: number,
  dist: Uint16Array,
  base: number,
  queue: Int32Array,
): void {
  dist.fill(UNREACHED, base, base + t.switches);
  dist[base + d] = 0;
  let head = 0,
    tail = 0;
  queue[tail++] = d;
  while (head < tail) {
    const s = queue[head++]!;
    const hops = dist[base + s]! + 1;
    if (hops >= UNREACHED) throw fail(MODULE, "BAD_INPUT", `${name}: a route is longer than ${UNREACHED - 1} hops`);
    for (let k = t.swStart[s]!; k < t.swStart[s + 1]!; k++) {
      const n = t.swNbr[k]!;
      if (dist[base + n] === UNREACHED) {
        dist[base + n] = hops;
        queue[tail++] = n;
      }
    }
  }
}

/** The number of distinct switches with hosts. */
function hostSwitchCount(t: NetworkTables): number {
  const seen = new Uint8Array(t.switches);
  let count = 0;
  for (let k = 0; k < t.hostSw.length; k++)
    if (!seen[t.hostSw[k]!]) {
      seen[t.hostSw[k]!] = 1;
      count++;
    }
  return count;
}

/**
 * Shortest-path routing tables, built per destination switch on first use and kept: the rows of
 * destination d hold, for every switch s, its hop distance to d (breadth-first search from d) and
 * the index in `lists` of the links from s to its neighbours one hop closer to d, in s's adjacency
 * order. Equal lists of a switch are stored once (a fat tree's up-links are the same list for
 * every far destination), which keeps them small enough to stay in cache. A route costs the rows
 * of its destination (and, for a host with several links, of the other host's switches):
 * O(switches + switch links) the first time, nothing after. The rows of all destinations share
 * two arrays (faster to read than one array per row), grown by half as needed up to the number of
 * switches with hosts (the only destinations), and refused past the memory budget.
 */
export function shortestRows(t: NetworkTables, name: string, pick: NextHopPick, maxMemory: number): ShortestRows {
  const dmodk = pick === "dmodk";
  const S = t.switches,
    most = hostSwitchCount(t);
  const rowOf = new Int32Array(S).fill(-1);
  let dist = new Uint16Array(0),
    next = new Int32Array(0),
    built = 0;
  const lists = new LinkLists();
  const queue = new Int32Array(S);
  let degree = 0;
  for (let s = 0; s < S; s++) degree = Math.max(degree, t.swStart[s + 1]! - t.swStart[s]!);
  const list = new Int32Array(degree);

  /** Builds the rows of destination switch d and returns their index. */
  const build = (d: number): number => {
    const r = built;
    if ((r + 1) * S > next.length) {
      const rows = Math.min(Math.max(most, r + 1), Math.max(4, Math.ceil(r * 1.5)));
      checkMemory(
        MODULE,
        rows * S * ROW_BYTES_PER_SWITCH + lists.length * 4,
        `${name}: the route tables of ${rows} destination switches x ${S} switches`,
        maxMemory,
        { field: "topology" },
      );
      const grownDist = new Uint16Array(rows * S),
        grownNext = new Int32Array(rows * S);
      grownDist.set(dist);
      grownNext.set(next);
      dist = grownDist;
      next = grownNext;
    }
    const base = r * S;
    distanceRow(t, name, d, dist, base, queue);
    for (let s = 0; s < S; s++) {
      const want = dist[base + s]! - 1;
      let n = 0,
        h = Math.imul(s + 1, 0x9e3779b1);
      for (let k = t.swStart[s]!; k < t.swStart[s + 1]!; k++)
        if (dist[base + t.swNbr[k]!] === want) {
          list[n++] = t.swLink[k]!;
          h = Math.imul(h ^ k, 0x01000193);
        }
      next[base + s] = lists.intern(list, n, h);
    }
    rowOf[d] = r;
    built = r + 1;
    return r;
  };

  return {
    walk: (cur, dst, a, b, out, n) => {
      if (cur === dst) return n;
      let r = rowOf[dst]!;
      if (r < 0) r = build(dst);
      const base = r * S,
        at = next,
        pool = lists.data,
        to = t.to,
        hosts = t.hosts;
      // D-mod-k: the choices so far divide b (a fat tree's c up-links: b mod c at the edge, then floor(b / c) mod c)
      let div = 1;
      while (cur !== dst) {
        const i = at[base + cur]!,
          count = pool[i]!;
        if (count === 0) return -1;
        let j: number;
        if (dmodk) {
          j = Math.floor(b / div) % count;
          div *= count;
        } else j = pairHash(a, b, n) % count;
        const l = pool[i + 1 + j]!;
        out[n++] = l;
        cur = to[l]! - hosts;
      }
      return n;
    },
    nearest: (a, b, pair) => {
      const a0 = t.hostStart[a]!,
        a1 = t.hostStart[a + 1]!,
        b0 = t.hostStart[b]!,
        b1 = t.hostStart[b + 1]!;
      let best = Infinity,
        count = 0;
      for (let j = b0; j < b1; j++) {
        let r = rowOf[t.hostSw[j]!]!;
        if (r < 0) r = build(t.hostSw[j]!);
        const base = r * S;
        for (let i = a0; i < a1; i++) {
          const d = dist[base + t.hostSw[i]!]!;
          if (d < best) {
            best = d;
            count = 1;
          } else if (d === best) count++;
        }
      }
      let pick = pairHash(a, b, 0x51) % count;
      pair[0] = a0;
      pair[1] = b0;
      for (let j = b0; j < b1; j++) {
        const base = rowOf[t.hostSw[j]!]! * S;
        for (let i = a0; i < a1; i++)
          if (dist[base + t.hostSw[i]!] === best && pick-- === 0) {
            pair[0] = i;
            pair[1] = j;
            return;
          }
      }
    },
    get rows() {
      return built;
    },
  };
}

/**
 * Up to this much work (host-attached switches x (switches + switch links)) the longest shortest route is found by a
 * search from every host-attached switch when the sweeps of shortestHopMax leave it open.
 */
export const EXACT_HOPS_WORK = 2 ** 25;

/**
 * The most switch-to-switch hops of a shortest route between two host-attached switches (so every
 * route of shortest-path routing is at most this plus the two host links), without a search from
 * every switch on a large network. Per switch component, breadth-first searches from its first
 * host-attached switch u, from the host-attached switch a farthest from u, and from the switch x
 * half way between a and the host-attached switch b farthest from a. d(a, b) is a lower bound;
 * since d(v, w) <= d(v, x) + d(x, w), the two largest distances from x (or from u) to host-attached
 * switches add up to an upper bound, at most twice the longest. When the bounds meet (flat, fat
 * trees, rails, trees), that is the answer; otherwise a search from every host-attached switch
 * finds it, if that costs at most `exactWork`, else the upper bound is returned.
 */
export function shortestHopMax(t: NetworkTables, exactWork = EXACT_HOPS_WORK): number {
  const S = t.switches;
  const isEnd = new Uint8Array(S);
  for (let k = 0; k < t.hostSw.length; k++) isEnd[t.hostSw[k]!] = 1;
  const dist = new Int32Array(S).fill(-1),
    done = new Uint8Array(S),
    queue = new Int32Array(S);
  /** Breadth-first search from `from` over its component: fills dist and the queue; returns the visited count. */
  const search = (from: number): number => {
    let head = 0,
      tail = 0;
    dist[from] = 0;
    queue[tail++] = from;
    while (head < tail) {
      const s = queue[head++]!;
      for (let k = t.swStart[s]!; k < t.swStart[s + 1]!; k++) {
        const n = t.swNbr[k]!;
        if (dist[n]! < 0) {
          dist[n] = dist[s]! + 1;
          queue[tail++] = n;
        }
      }
    }
    return tail;
  };
  /**
   * The largest distance to a host-attached switch in the last search (`far` is the first at it), the sum of the two
   * largest; dist reset.
   */
  const farthest = (visited: number): { far: number; first: number; sum: number } => {
    let first = -1,
      second = -1,
      far = -1;
    for (let i = 0; i < visited; i++) {
      const s = queue[i]!;
      if (!isEnd[s]) continue;
      const d = dist[s]!;
      if (d > first) {
        second = first;
        first = d;
        far = s;
      } else if (d > second) second = d;
    }
    return { far, first, sum: first + Math.max(0, second) };
  };
  const reset = (visited: number): void => {
    for (let i = 0; i < visited; i++) dist[queue[i]!] = -1;
  };
  let lower = 0,
    upper = 0,
    ends = 0;
  for (let u = 0; u < S; u++) {
    if (!isEnd[u] || done[u]) continue;
    const visited = search(u);
    for (let i = 0; i < visited; i++) {
      done[queue[i]!] = 1;
      ends += isEnd[queue[i]!]!;
    }
    const fromU = farthest(visited);
    reset(visited);
    search(fromU.far);
    const fromA = farthest(visited);
    // x: half way back from b (the farthest from a) towards a, taking the closer neighbours in turn
    // (on a grid that walks the diagonal to the middle rather than along the border to a corner)
    let x = fromA.far;
    for (let step = Math.ceil(fromA.first / 2); step > 0; step--) {
      const k0 = t.swStart[x]!,
        k1 = t.swStart[x + 1]!,
        want = dist[x]! - 1;
      let count = 0;
      for (let k = k0; k < k1; k++) if (dist[t.swNbr[k]!] === want) count++;
      for (let k = k0, pick = step % count; k < k1; k++)
        if (dist[t.swNbr[k]!] === want && pick-- === 0) {
          x = t.swNbr[k]!;
          break;
        }
    }
    reset(visited);
    search(x);
    const fromX = farthest(visited);
    reset(visited);
    lower = Math.max(lower, fromA.first);
    upper = Math.max(upper, Math.min(fromU.sum, fromX.sum));
  }
  if (lower === upper || ends * (S + t.swNbr.length) > exactWork) return upper;
  let longest = 0;
  for (let u = 0; u < S; u++) {
    if (!isEnd[u]) continue;
    const visited = search(u);
    longest = Math.max(longest, farthest(visited).first);
    reset(visited);
  }
  return longest;
}

/**
 * Dimension-order steps on a torus: the first dimension whose coordinate differs, the shorter way round (+ on a tie).
 */
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

/**
 * Minimal dragonfly steps: inside the destination group one local hop; else to the router holding the chosen global
 * cable, then across it.
 */
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
  const a = size.reduce((x, y) => Math.max(x, y), -Infinity); // not Math.max(...size): one argument per group
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

/**
 * The walk of a routing policy, the most switch-to-switch hops it takes (or a bound of them) and the shortest-path
 * tables when it uses them.
 */
export function policyStep(
  graph: TopologyGraph,
  t: NetworkTables,
  policy: RoutingPolicy,
  maxMemory: number,
): { walk: Walk; maxSwitchHops: number; rows?: ShortestRows } {
  if (policy.kind === "torus") {
    const coords = switchField(graph, t, policy.dims.length, (n) => n.coords);
    return {
      walk: stepWalk(t, torusStep(t, policy.dims, coords)),
      maxSwitchHops: policy.dims.reduce((s, d) => s + Math.floor(d / 2), 0),
    };
  }
  if (policy.kind === "dragonfly") {
    const group = switchField(graph, t, 1, (n) => (n.group === undefined ? undefined : [n.group]));
    return { walk: stepWalk(t, dragonflyStep(t, policy.groups, group)), maxSwitchHops: policy.groups > 1 ? 3 : 1 };
  }
  const rows = shortestRows(t, graph.graph().name, policy.pick, maxMemory);
  return { walk: rows.walk, maxSwitchHops: shortestHopMax(t), rows };
}
