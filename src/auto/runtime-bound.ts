/**
 * A lower bound of a plan's time on an MPI runtime (the program replay of src/machines/program-replay), from its
 * message-level schedule alone: before it is planned again with payload chunks, lowered or replayed. auto on a runtime
 * replays its finalists in the order of these bounds and skips one whose bound exceeds the best time replayed so far
 * (plan-auto.ts), as it does with blocking-bound.ts on the papers' machine.
 *
 * Whatever program the lowering makes of the plan (nonblocking or dataflow), the replay
 * - sends every transfer's bytes (size x element bytes, and the runtime's envelope on each message) along the route
 *   from its sender to its receiver, and a link's flows share its bandwidth (max-min): no link carries its bytes in
 *   less than bytes / bandwidth;
 * - charges each send's overhead (`isendOverhead`: auto's program variants post nonblocking sends) and each eager
 *   message's receive overhead (`recvOverhead`, before the receive completes) on the rank's CPU, one after another,
 *   and a rank finishes when all its operations have completed. A rank sends at least one message to each of its
 *   receivers (the last arrives no sooner than its route's latency after it left), and receives at least one from
 *   each of its senders, eager when all the pair's bytes are fewer than the runtime's eager threshold: each costs at
 *   least the overhead's least value.
 * test/auto/runtime-bound.test.ts checks the bound against the replay over random matrices, every planner auto
 * weighs, both runtime presets and a piecewise one, the flat cluster and two networks.
 */
import type { MachineModel } from "../model/machine.js";
import type { Program } from "../model/program.js";
import type { Schedule } from "../model/schedule.js";
import type { Overhead } from "../machines/runtime/overhead.js";
import { flatClusterNetwork } from "../machines/program-replay/cluster-network.js";
import type { NetworkRoutes } from "../model/network.js";
import type { RuntimeModel } from "../machines/runtime/runtime-model.js";

/** Where auto predicts on a runtime (runtime-predict.ts) and what its bounds are for: the MPI runtime and network. */
export interface RuntimeTarget {
  readonly runtime: RuntimeModel;
  /** The network (rank r on host r); null: the machine's flat cluster. */
  readonly network: NetworkRoutes | null;
}

/**
 * The least value an overhead takes over every message size (us): its first piece at size 0 or any piece at its start,
 * or 0 when a piece falls with the size (it could reach 0).
 */
export function leastOverheadUs(o: Overhead): number {
  if (o.length === 0) return 0;
  let least = o[0]!.us;
  for (const piece of o) {
    if (piece.usPerByte < 0) return 0;
    least = Math.min(least, piece.us + piece.usPerByte * piece.fromBytes);
  }
  return Math.max(least, 0);
}

/**
 * A lower bound (us) of the makespan of any program lowered from `s` (message level or payload) replayed on the
 * target's runtime and network (the machine's flat cluster when it has none), with `elementBytes` bytes per element:
 * the busiest link's bytes over its bandwidth, a rank's send overheads plus its least route latency, or a rank's send
 * and eager receive overheads.
 */
export function runtimeLowerBound(
  s: Schedule,
  elementBytes: number,
  machine: MachineModel,
  target: RuntimeTarget,
): number {
  const net = target.network ?? flatClusterNetwork(s.p, machine).routes;
  const rt = target.runtime;
  const overhead = leastOverheadUs(rt.isendOverhead);
  const load = new Float64Array(net.links);
  const hops = new Int32Array(Math.max(net.maxHops, 1));
  const nearest = new Float64Array(s.p).fill(Infinity);
  const recvOverhead = leastOverheadUs(rt.recvOverhead);
  const pairs = overhead > 0 || recvOverhead > 0 ? new Map<number, number>() : null;
  const { src, dst, size } = s;
  for (let x = 0; x < s.transferCount; x++) {
    const a = src[x]!,
      b = dst[x]!;
    if (a === b || !(size[x]! > 0)) continue;
    const payload = size[x]! * elementBytes;
    const bytes = payload + rt.envelopeBytes;
    const n = net.route(a, b, hops);
    let latency = 0;
    for (let i = 0; i < n; i++) {
      const l = hops[i]!;
      load[l] = load[l]! + bytes;
      latency += net.latency[l]!;
    }
    if (latency < nearest[a]!) nearest[a] = latency;
    if (pairs !== null) {
      const key = a * s.p + b;
      pairs.set(key, (pairs.get(key) ?? 0) + payload);
    }
  }
  const sends = new Float64Array(s.p),
    eagerRecvs = new Float64Array(s.p);
  if (pairs !== null)
    for (const [key, payload] of pairs) {
      const a = Math.floor(key / s.p);
      sends[a] = sends[a]! + 1;
      if (payload < rt.eagerBytes) eagerRecvs[key - a * s.p] = eagerRecvs[key - a * s.p]! + 1;
    }
  let bound = 0;
  for (let l = 0; l < net.links; l++) if (load[l]! > 0) bound = Math.max(bound, load[l]! / net.bandwidth[l]!);
  for (let r = 0; r < s.p; r++) {
    if (nearest[r]! < Infinity) bound = Math.max(bound, sends[r]! * overhead + nearest[r]!);
    bound = Math.max(bound, sends[r]! * overhead + eagerRecvs[r]! * recvOverhead);
  }
  return bound;
}

/** The codes of OpTable.kind (model/program.ts OP_KINDS). */
const SEND = 0,
  RECV = 1;

/**
 * A lower bound (us) of the makespan of a nonblocking program replayed on the target's runtime and network (the
 * machine's flat cluster when it has none): a rank runs its rounds one after another (each waits for every operation
 * of the rounds before), and a round lasts at least its send and eager receive overheads (on the rank's CPU, one at a
 * time), each of its receives' route latency plus its bytes at the route's narrowest link, and the bytes its
 * receives bring over each link, and its rendezvous sends take over each link, over that link's bandwidth (an eager
 * send completes when posted, so its bytes may still be on the way). The rank's sum of rounds; the largest over ranks.
 */
export function roundsLowerBound(prog: Program, machine: MachineModel, target: RuntimeTarget): number {
  const net = target.network ?? flatClusterNetwork(prog.p, machine).routes;
  const rt = target.runtime;
  const sendOverhead = leastOverheadUs(rt.isendOverhead),
    recvOverhead = leastOverheadUs(rt.recvOverhead);
  const { kind, round, peer, count } = prog.ops;
  const eb = prog.elementBytes;
  const load = new Float64Array(net.links);
  const used = new Int32Array(net.links),
    mark = new Int32Array(net.links);
  let stamp = 0;
  const hops = new Int32Array(Math.max(net.maxHops, 1));
  let bound = 0;
  for (let r = 0; r < prog.p; r++) {
    const end = prog.rankStart[r + 1]!;
    let total = 0;
    for (let x = prog.rankStart[r]!; x < end;) {
      const t = round[x]!;
      let cpu = 0,
        alone = 0,
        nUsed = 0;
      stamp++;
      for (; x < end && round[x] === t; x++) {
        const k = kind[x]!;
        if (k !== SEND && k !== RECV) continue;
        const payload = count[x]! * eb;
        const eager = payload < rt.eagerBytes;
        if (k === SEND) cpu += sendOverhead;
        else if (eager) cpu += recvOverhead;
        if (k === SEND && eager) continue;
        const bytes = payload + rt.envelopeBytes;
        const n = k === SEND ? net.route(r, peer[x]!, hops) : net.route(peer[x]!, r, hops);
        let latency = 0,
          narrowest = Infinity;
        for (let i = 0; i < n; i++) {
          const l = hops[i]!;
          if (mark[l] !== stamp) {
            mark[l] = stamp;
            used[nUsed++] = l;
          }
          load[l] = load[l]! + bytes;
          latency += net.latency[l]!;
          narrowest = Math.min(narrowest, net.bandwidth[l]!);
        }
        if (k === RECV && n > 0) alone = Math.max(alone, latency + bytes / narrowest);
      }
      let links = 0;
      for (let i = 0; i < nUsed; i++) {
        const l = used[i]!;
        links = Math.max(links, load[l]! / net.bandwidth[l]!);
        load[l] = 0;
      }
      total += Math.max(cpu, alone, links);
    }
    bound = Math.max(bound, total);
  }
  return bound;
}
