/**
 * blockingMakespanBound: a lower bound on the blocking replay's makespan from its precedence rules alone, in one pass
 * over the transfers (what `--algorithm auto` prunes finalists with); durations and compose times come from the
 * engine's own rules (blocking-rules.ts).
 */
import { stageBarrier, type MachineModel } from "../../model/machine.js";
import type { Schedule } from "../../model/schedule.js";
import { perByteCost, type FabricName } from "./fabric.js";
import type { RecvOrder } from "./recv-order.js";
import { addHandledBytes, blockingDuration } from "./blocking-rules.js";

/** Fabrics the bound models (the OCPC resends collisions in lock-step rounds: no bound here). */
export type BoundFabric = Exclude<FabricName, "ocpc">;

/**
 * A lower bound (us) on simulateSchedule(s, machine, { mode: "blocking" }).makespan on `fabric`
 * (no network, not lock-step; either receive order). Per stage: the barrier, then the latest of
 *
 * - every transfer's earliest end: it starts no earlier than its source has composed, issued its
 *   earlier transfers, has a free send port (of its `ports`, at most ports - 1 earlier sends under
 *   way) and received everything of earlier steps (the step rule), nor before its destination has
 *   composed; it lasts its blocking duration;
 * - every node's receive port: the receives of any suffix of its receives (in step order) go one
 *   after the other (shared by `ports` ports), none before the earliest start among them;
 * - every node's compose time.
 *
 * Each is a constraint every replay obeys, with earliest times that are lower bounds by induction
 * over step order, so no replay ends sooner in exact arithmetic (a replay's clock can absorb
 * durations below half an ulp of a late time, so its makespan can come out lower by that much per
 * event of a chain: auto's pruning allows for it). It leaves out the waits for a busy receive port
 * (and under the step receive order the gate's), with what they delay: it equals the makespan when
 * no message waits. bench/results/auto.md measures it on every auto winner of its held-out set.
 * O(transfers + P) per stage, typed arrays only.
 */
export function blockingMakespanBound(
  s: Schedule,
  machine: MachineModel,
  fabric: BoundFabric,
  scratch: BoundScratch = new BoundScratch(),
): number {
  return blockingBoundExact(s, machine, fabric, "arrival", scratch).bound;
}

/**
 * blockingMakespanBound, and whether it is the replay's makespan: `exact` when, by the earliest
 * times the bound computes, no message would wait for its destination (no more than `ports`
 * receives overlap at a node, each node's receives start in step order, and with the step receive
 * order every message starts after its destination has ended every transfer of its earlier steps
 * in the stage). Then every transfer starts at its earliest time in the replay too (by induction
 * over the events), so the replay's makespan is the bound, up to the order of the additions.
 * `exact` false says nothing (the check is conservative: a node whose receives start out of step
 * order is taken to make a message wait).
 */
export function blockingBoundExact(
  s: Schedule,
  machine: MachineModel,
  fabric: BoundFabric,
  recvOrder: RecvOrder,
  scratch: BoundScratch = new BoundScratch(),
): { bound: number; exact: boolean } {
  const { stepStart } = s;
  const b = new BoundState(s, machine, fabric, scratch, recvOrder === "step");
  let makespan = 0;
  const barrier = stageBarrier(machine, s.p); // none at P = 1, as the replay charges
  for (const st of s.stages) {
    const first = stepStart[st.firstStep]!,
      last = stepStart[st.firstStep + st.stepCount]!;
    let d = b.compose(first, last, st.rearrange !== "none");
    for (let step = st.firstStep; step < st.firstStep + st.stepCount; step++) d = Math.max(d, b.step(step));
    d = Math.max(d, b.receivePorts(first, last));
    makespan += barrier + d;
  }
  return { bound: makespan, exact: b.exact };
}

/**
 * The per-transfer arrays of blockingMakespanBound (earliest starts, durations, receives by node),
 * grown as needed: calls that share one (auto bounds its finalists one after the other) reuse
 * memory already touched instead of taking fresh pages each.
 */
export class BoundScratch {
  est = new Float64Array(0);
  dur = new Float64Array(0);
  list = new Uint32Array(0);

  /** Room for n transfers. */
  fit(n: number): void {
    if (this.est.length >= n) return;
    this.est = new Float64Array(n);
    this.dur = new Float64Array(n);
    this.list = new Uint32Array(n);
  }
}

/** Puts `end` among the k latest ends kept sorted in a[k0 .. k0 + k) (ascending), dropping the earliest. */
function keepLatest(a: Float64Array, k0: number, k: number, end: number): void {
  if (end <= a[k0]!) return;
  let i = k0;
  while (i + 1 < k0 + k && a[i + 1]! < end) {
    a[i] = a[i + 1]!;
    i++;
  }
  a[i] = end;
}

/** The per-node clocks of the bound, reused stage by stage. */
class BoundState {
  private readonly ready: Float64Array;
  /** When the node issued its last transfer, finished its last send, and (of earlier steps) its last receive. */
  private readonly issued: Float64Array;
  /** Per node, the ends of its `ports` latest-ending sends so far (slot 0 the earliest of them). */
  private readonly sendEnds: Float64Array;
  private readonly recvDone: Float64Array;
  /** Latest receive end of the node so far, steps up to the current one. */
  private readonly recvNext: Float64Array;
  /** Earliest start and duration of each transfer (for the receive ports). */
  private readonly est: Float64Array;
  private readonly dur: Float64Array;
  /** Receives of the stage by destination node (receivePorts). */
  private readonly list: Uint32Array;
  /** The engine's blocking duration of each transfer (blocking-rules.ts). */
  private readonly duration: (x: number) => number;
  /**
   * With the step receive order: the latest end of each node's transfers of the stage's earlier steps, and up to the
   * current one.
   */
  private readonly opsDone: Float64Array | null;
  private readonly opsNext: Float64Array | null;
  /** Per node being checked, the ends of its `ports` latest-ending receives so far (receivePorts). */
  private readonly recvEnds: Float64Array;
  /** False once some message would wait for its destination (see blockingBoundExact). */
  exact = true;

  constructor(
    private readonly s: Schedule,
    private readonly machine: MachineModel,
    fabric: BoundFabric,
    scratch: BoundScratch,
    stepOrder: boolean,
  ) {
    const p = s.p;
    this.ready = new Float64Array(p);
    this.issued = new Float64Array(p);
    this.sendEnds = new Float64Array(p * machine.ports);
    this.recvDone = new Float64Array(p);
    this.recvNext = new Float64Array(p);
    scratch.fit(s.transferCount);
    // every transfer of a stage gets its est and dur in step() before receivePorts reads them
    this.est = scratch.est;
    this.dur = scratch.dur;
    this.list = scratch.list;
    this.duration = blockingDuration(s, machine, perByteCost(fabric, machine));
    this.opsDone = stepOrder ? new Float64Array(p) : null;
    this.opsNext = stepOrder ? new Float64Array(p) : null;
    this.recvEnds = new Float64Array(machine.ports);
  }

  /**
   * Sets every node's compose time for the stage of transfers [first, last) (t_m per byte it sends, when the stage
   * rearranges) and resets the clocks to it; returns the longest.
   */
  compose(first: number, last: number, rearranges: boolean): number {
    const { ready } = this;
    const tm = this.machine.tm;
    ready.fill(0);
    if (rearranges) {
      // the engine's compose rule (stage-driver.ts): bytes handled, times t_m
      addHandledBytes(this.s, first, last, ready);
      for (let v = 0; v < this.s.p; v++) ready[v] = ready[v]! * tm;
    }
    let most = 0;
    for (let v = 0; v < this.s.p; v++) if (ready[v]! > most) most = ready[v]!;
    this.issued.set(ready);
    const k = this.machine.ports;
    for (let v = 0; v < this.s.p; v++) this.sendEnds.fill(ready[v]!, v * k, v * k + k);
    this.recvDone.set(ready);
    this.recvNext.set(ready);
    this.opsDone?.fill(0);
    this.opsNext?.fill(0);
    return most;
  }

  /** The earliest start and end of every transfer of `step`; returns the latest end. */
  step(step: number): number {
    const { src, dst, stepStart } = this.s;
    const { ready, issued, sendEnds, recvDone, recvNext, est, dur, duration } = this;
    const { ports } = this.machine;
    const x0 = stepStart[step]!,
      x1 = stepStart[step + 1]!;
    let latest = 0;
    for (let x = x0; x < x1; x++) {
      const a = src[x]!,
        b = dst[x]!;
      let t = Math.max(issued[a]!, recvDone[a]!);
      if (a === b) {
        issued[a] = t;
        dur[x] = duration(x);
      } else {
        // a free send port: no more than ports - 1 of the earlier sends still under way
        const k0 = a * ports;
        if (sendEnds[k0]! > t) t = sendEnds[k0]!;
        issued[a] = t;
        if (ready[b]! > t) t = ready[b]!;
        dur[x] = duration(x);
        keepLatest(sendEnds, k0, ports, t + dur[x]!);
      }
      est[x] = t;
      const end = t + dur[x]!;
      if (end > latest) latest = end;
      if (end > recvNext[b]!) recvNext[b] = end;
    }
    // the receives of this step count for the sends of later steps only
    for (let x = x0; x < x1; x++) recvDone[dst[x]!] = recvNext[dst[x]!]!;
    if (this.opsDone !== null) this.stepOrder(x0, x1);
    return latest;
  }

  /**
   * The step receive order: a message of the step waits unless its destination has ended its transfers of earlier
   * steps; then the step's ends count.
   */
  private stepOrder(x0: number, x1: number): void {
    const { src, dst } = this.s;
    const { est, dur } = this;
    const opsDone = this.opsDone!,
      opsNext = this.opsNext!;
    for (let x = x0; x < x1; x++) {
      const a = src[x]!,
        b = dst[x]!;
      if (a !== b && est[x]! < opsDone[b]!) this.exact = false;
      const end = est[x]! + dur[x]!;
      if (end > opsNext[a]!) opsNext[a] = end;
      if (end > opsNext[b]!) opsNext[b] = end;
    }
    for (let x = x0; x < x1; x++) {
      opsDone[src[x]!] = opsNext[src[x]!]!;
      opsDone[dst[x]!] = opsNext[dst[x]!]!;
    }
  }

  /**
   * The receive-port bound of the stage's transfers [first, last): per node, the latest over suffixes of its receives
   * of (least earliest start + their durations / ports).
   */
  receivePorts(first: number, last: number): number {
    const { p, src, dst } = this.s;
    const { est, dur, list } = this;
    const ports = this.machine.ports;
    const start = new Uint32Array(p + 1);
    for (let x = first; x < last; x++) if (src[x] !== dst[x]) start[dst[x]! + 1]!++;
    for (let v = 0; v < p; v++) start[v + 1] = start[v + 1]! + start[v]!;
    const fill = start.slice(0, p);
    for (let x = first; x < last; x++) if (src[x] !== dst[x]) list[fill[dst[x]!]!++] = x;
    let latest = 0;
    for (let v = 0; v < p; v++) {
      if (this.exact) this.checkReceives(start[v]!, start[v + 1]!);
      let sum = 0,
        lo = Infinity;
      for (let i = start[v + 1]! - 1; i >= start[v]!; i--) {
        const x = list[i]!;
        sum += dur[x]!;
        if (est[x]! < lo) lo = est[x]!;
        const end = lo + sum / ports;
        if (end > latest) latest = end;
      }
    }
    return latest;
  }

  /**
   * Whether the receives list[i0 .. i1) of one node (step order) start in that order with a free port each (no more
   * than `ports` overlapping); else exact is false.
   */
  private checkReceives(i0: number, i1: number): void {
    const { est, dur, list, recvEnds } = this;
    const k = recvEnds.length;
    recvEnds.fill(-Infinity);
    let prev = -Infinity;
    for (let i = i0; i < i1; i++) {
      const x = list[i]!;
      const t = est[x]!;
      if (t < prev || t < recvEnds[0]!) {
        this.exact = false;
        return;
      }
      prev = t;
      keepLatest(recvEnds, 0, k, t + dur[x]!);
    }
  }
}
