/**
 * ReplayDriver: the event loop both replay modes share (runs of steps, compose, send order and send rule, stall books,
 * progress, the one deadlock failure).
 */
import { fail } from "../../model/errors.js";
import type { MachineModel } from "../../model/machine.js";
import { progressTicker, type ProgressTick } from "../../model/progress.js";
import type { Schedule } from "../../model/schedule.js";
import type { DataTracker } from "./data-tracker.js";
import { forwardDeps, type ForwardDeps } from "./forward-deps.js";
import { FlowNetwork } from "./flow-network.js";
import { EventHeap, TICKS_PER_US, timeKey } from "./heap.js";
import type { NodeAccounts } from "./node-accounts.js";
import type { SimOptions } from "./options.js";
import type { ComposeGates } from "./compose-gates.js";
import { RecvGate } from "./recv-order.js";
import { driveStages } from "./stage-driver.js";
import { StageOrder } from "./stage-order.js";
import { K, NONE, type TimelineRecorder } from "./timeline.js";

/** What a replay hands back besides the accounts and the timeline. */
export interface ReplayOutcome {
  /** Makespan (us): the sum of the stage durations. */
  readonly makespan: number;
  /** Events processed. */
  readonly events: number;
  /** Start and end time (us, absolute) of every transfer. */
  readonly start: Float64Array;
  readonly end: Float64Array;
  /** OCPC only: transfer attempts that collided and were resent. */
  readonly collisions: number;
  /** The flows of a run on a network (per-link books), else null. */
  readonly flows?: FlowNetwork | null;
}

/** When a send may start within its stage. */
export interface SendRule {
  /** Whether transfer x (next in its source's order) may start now. */
  allows(x: number): boolean;
  /** Transfer x has been received at its destination. */
  received(x: number): void;
}

/** The step rule (004 sec 2.3): a send waits for every receive of its node in earlier steps of the run (StageOrder). */
export class StepRule implements SendRule {
  constructor(private readonly order: StageOrder) {}
  allows(x: number): boolean {
    return this.order.stepsDone(x);
  }
  received(x: number): void {
    this.order.received(x);
  }
}

/** The data rule: a send waits only for the receives of its stage that bring elements it forwards (forward-deps.ts). */
export class DataRule implements SendRule {
  private readonly deps: ForwardDeps;
  /** Receives each transfer still waits for. */
  private readonly needLeft: Uint32Array;
  constructor(s: Schedule) {
    this.deps = forwardDeps(s);
    this.needLeft = this.deps.need.slice();
  }
  allows(x: number): boolean {
    return this.needLeft[x]! === 0;
  }
  received(x: number): void {
    const { start, list } = this.deps;
    // the transfers waiting for this receive all leave from its destination
    for (let i = start[x]!; i < start[x + 1]!; i++) this.needLeft[list[i]!]!--;
  }
}

/** The mode-specific parts of a replay (its resources and events) that the driver calls. */
export interface ReplayMode {
  /** Event ids [0, eventIds) are the mode's; the compose of node v ends with event eventIds + v. */
  readonly eventIds: number;
  /** Clears the mode's state before a run of steps starting at local time t0. */
  reset(t0: number): void;
  /** Node v composes until local time `until`: the mode holds back what composing blocks. */
  composeBegin(v: number, until: number): void;
  /**
   * Without stage barriers (ComposeGates): node v is to compose for `dur` from t, or as soon as its
   * transfers under way have ended; the mode holds it back meanwhile and starts the compose through
   * ReplayDriver.startCompose.
   */
  gateCompose?(v: number, t: number, dur: number): void;
  /** Node v has composed at t (the driver has closed its books). */
  composeEnd(v: number, t: number): void;
  /** Node v issues at t what its resources and the send rule let it. */
  tryIssue(v: number, t: number): void;
  /** Handles the mode's event `id` at t. */
  onEvent(id: number, t: number): void;
}

/**
 * The shared state and event loop of a replay. A mode issues node v's transfers in schedule order
 * through `nextSend` and `take` (which applies the send rule and keeps the stall books), reports
 * starts and receives through `started` and `received`, and pushes its events on `heap`. When the
 * events of a run of steps are exhausted and some node still has transfers it could not issue (the
 * receives its send rule waits for never complete), the run stops with one CommplanError (`stuck`).
 */
export class ReplayDriver {
  /** Absolute time of the stage-local clock's zero. */
  base = 0;
  /** Transfers completed. */
  done = 0;
  readonly startAt: Float64Array;
  readonly endAt: Float64Array;
  readonly order: StageOrder;
  readonly rule: SendRule;
  /** The step receive order (null with recvOrder arrival). */
  readonly gate: RecvGate | null;
  readonly heap: EventHeap;
  /** Compose time of each node in the current stage (set by driveStages). */
  readonly ready: Float64Array;
  /**
   * With a network (o.network): the flow model the modes hand their network phases to; its activation events come after
   * the compose events.
   */
  readonly flows: FlowNetwork | null;
  private readonly stallSince: Float64Array;
  /** Whether nodes compose when they reach a stage (no stage barriers: ComposeGates). */
  get gated(): boolean {
    return this.gates !== null;
  }
  /** Local time each node began its compose. */
  private readonly composeFrom: Float64Array;
  /** The mode of the run under way (take starts a gated compose through it). */
  private mode: ReplayMode | null = null;
  /** The run's progress over its transfers (progressTicker), and the count of transfers done at its next report. */
  private readonly tick: ProgressTick;
  private nextProgress: number;
  /** Integer time key (ticks, heap.ts) of the moment being handled. */
  private nowKey = 0;

  constructor(
    readonly s: Schedule,
    readonly o: SimOptions,
    readonly acc: NodeAccounts,
    readonly tl: TimelineRecorder,
    readonly data: DataTracker | null,
    eventIds: number,
    /**
     * Without stage barriers: each node composes when it reaches a rearranging stage (null: composes come from the
     * stage loop).
     */
    private readonly gates: ComposeGates | null = null,
  ) {
    const p = s.p,
      T = s.transferCount;
    this.startAt = new Float64Array(T);
    this.endAt = new Float64Array(T);
    this.order = new StageOrder(s);
    this.rule = o.sendWaits === "data" ? new DataRule(s) : new StepRule(this.order);
    this.gate = o.recvOrder === "step" ? new RecvGate(s) : null;
    this.heap = new EventHeap(Math.min(eventIds + p, 1 << 20));
    this.ready = new Float64Array(p);
    this.stallSince = new Float64Array(p);
    this.composeFrom = new Float64Array(p);
    this.flows = o.network
      ? new FlowNetwork(o.network, T, this.heap, eventIds + p, T > 0 ? eventIds / T : 1, {
          full: o.fullRecompute,
          fill: o.fill,
        })
      : null;
    this.tick = progressTicker(o.progress, T);
    this.nextProgress = this.tick(0);
  }

  /** The next transfer node v sends in the loaded run, or -1 when it has issued them all. */
  nextSend(v: number): number {
    const { ptr, sendStart, sendList } = this.order;
    return ptr[v]! < sendStart[v + 1]! ? sendList[ptr[v]!]! : -1;
  }

  /**
   * Node v issues its next transfer x at t when the send rule allows it (true); otherwise v is held
   * back (stalled) from t on (false). With compose gates, x first in a new stage of v starts v's
   * compose for that stage instead (false: the mode's composeEnd issues it).
   */
  take(v: number, x: number, t: number): boolean {
    if (!this.rule.allows(x)) {
      if (this.stallSince[v]! < 0) this.stallSince[v] = t;
      return false;
    }
    const g = this.gates;
    if (g !== null && g.at[v] !== g.stageOf[x]) {
      const k = g.stageOf[x]!;
      g.at[v] = k;
      const c = g.cost[k * this.s.p + v]!;
      if (c > 0) {
        this.closeStall(v, t);
        const mode = this.mode!;
        if (mode.gateCompose) mode.gateCompose(v, t, c);
        else this.startCompose(v, t, c);
        return false;
      }
    }
    this.order.ptr[v]!++;
    this.closeStall(v, t);
    return true;
  }

  /**
   * Node v composes from local time t (the moment being handled) for `dur`: the mode holds it back until its compose
   * event.
   */
  startCompose(v: number, t: number, dur: number): void {
    const mode = this.mode!;
    this.composeFrom[v] = t;
    mode.composeBegin(v, t + dur);
    this.acc.begin(v, t);
    this.at(t, dur, mode.eventIds + v);
  }

  /** Ends node v's stall (if any) at local time t. */
  closeStall(v: number, t: number): void {
    const since = this.stallSince[v]!;
    if (since >= 0) {
      this.acc.stalled[v] = this.acc.stalled[v]! + (t - since);
      this.tl.add(v, K.stall, this.base + since, this.base + t, NONE, 0, NONE);
      this.stallSince[v] = -1;
    }
  }

  /**
   * Pushes event `id` at t + dur, where t is the moment being handled: its key is that moment's key
   * plus dur rounded to ticks, an exact integer sum, so the order of events does not depend on how
   * their times were rounded (heap.ts).
   */
  at(t: number, dur: number, id: number): void {
    this.heap.pushKey(t + dur, this.nowKey + Math.round(dur * TICKS_PER_US), id);
  }

  /** Whether the receive order lets transfer x into its destination now (always with arrival order). */
  mayReceive(x: number): boolean {
    return this.gate === null || this.gate.mayReceive(x);
  }

  /** Transfer x starts at local time t. */
  started(x: number, t: number): void {
    this.startAt[x] = this.base + t;
    if (this.data) this.data.start(x, this.base + t);
  }

  /** Transfer x has been received at local time t. */
  received(x: number, t: number): void {
    this.endAt[x] = this.base + t;
    if (this.data) this.data.end(x);
    this.rule.received(x);
    if (this.gate) this.gate.complete(x);
    this.done++;
  }

  /**
   * Runs the transfers of steps [stepLo, stepHi) from local time t0 (nodes compose first, until t0 + ready[v], when
   * `withReady`); returns the last end.
   */
  runRange(mode: ReplayMode, stepLo: number, stepHi: number, t0: number, withReady: boolean): number {
    const p = this.s.p,
      ids = mode.eventIds;
    const { heap, acc, ready } = this;
    this.order.load(stepLo, stepHi);
    if (this.gate) this.gate.load(stepLo, stepHi);
    this.stallSince.fill(-1);
    this.nowKey = timeKey(t0);
    this.mode = mode;
    mode.reset(t0);
    if (withReady) for (let v = 0; v < p; v++) if (ready[v]! > 0) this.startCompose(v, t0, ready[v]!);
    for (let v = 0; v < p; v++) mode.tryIssue(v, t0);
    const doneBefore = this.done;
    let last = t0;
    const flows = this.flows;
    while (heap.size > 0 || flows?.pending) {
      // flows that started or ended get their rates once every event of their time key is handled
      if (flows !== null && flows.pending && (heap.size === 0 || heap.topKey() !== this.nowKey)) {
        flows.flush();
        continue;
      }
      // events with one key go in id order (heap.ts); time never runs backwards
      const te = heap.topTime();
      const t = Math.max(te, last);
      const id = heap.topId();
      this.nowKey = heap.topKey();
      heap.pop();
      if (flows !== null) {
        if (id >= ids + p) {
          flows.activate(id - ids - p, t);
          continue;
        }
        if (id < ids && !flows.live(id, te)) continue; // superseded by a rate change (te: the time it was pushed at)
      }
      last = t;
      if (id >= ids) {
        const v = id - ids;
        acc.end(v, t);
        this.tl.add(v, K.compose, this.base + this.composeFrom[v]!, this.base + t, NONE, 0, NONE);
        mode.composeEnd(v, t);
      } else mode.onEvent(id, t);
      if (this.done >= this.nextProgress) this.nextProgress = this.tick(this.done);
    }
    for (let v = 0; v < p; v++) this.closeStall(v, last);
    for (let v = 0; v < p; v++) if (this.nextSend(v) >= 0) throw this.stuck(v, stepLo, stepHi);
    const { stepStart } = this.s;
    if (this.done - doneBefore !== stepStart[stepHi]! - stepStart[stepLo]!)
      throw fail(
        "simulate",
        "BAD_INPUT",
        `a message of steps ${stepLo}..${stepHi - 1} was never received (the receive order waits for transfers that never complete)`,
        { field: "recvOrder" },
      );
    return last;
  }

  /** The error of a run in which node v could not issue all its transfers of steps [stepLo, stepHi). */
  private stuck(v: number, stepLo: number, stepHi: number): Error {
    const { src, dst } = this.s;
    const x = this.nextSend(v);
    const steps = stepHi - stepLo === 1 ? `step ${stepLo}` : `steps ${stepLo}..${stepHi - 1}`;
    const waits =
      this.o.sendWaits === "data"
        ? "the receives that bring the elements it forwards"
        : "the receives of its node in earlier steps";
    return fail(
      "simulate",
      "BAD_INPUT",
      `node ${v} could not issue transfer ${x} (${src[x]} -> ${dst[x]}) of ${steps}: it waits for ${waits}, which never complete (are the schedule's steps out of order?)`,
      {
        field: `transfers[${x}]`,
      },
    );
  }

  /** Replays every stage with `mode` (and `runStep` for a lock-step step, when given); returns the makespan. */
  run(machine: MachineModel, mode: ReplayMode, runStep?: (step: number, t0: number) => number): number {
    const makespan = this.runStages(machine, mode, runStep);
    this.tick(Infinity);
    return makespan;
  }

  private runStages(machine: MachineModel, mode: ReplayMode, runStep?: (step: number, t0: number) => number): number {
    const g = this.gates;
    if (g !== null) {
      // no stage barriers (the schedule is one stage): every node composes for the first stage at 0, as
      // after a barrier, and for a later one when it reaches it (take)
      g.at.fill(0);
      this.ready.set(g.cost.subarray(0, this.s.p));
      this.base = 0;
      return this.runRange(mode, 0, this.s.stepCount, 0, true);
    }
    const engine = {
      setBase: (t: number) => void (this.base = t),
      runRange: (lo: number, hi: number, t0: number, withReady: boolean) => this.runRange(mode, lo, hi, t0, withReady),
      ...(runStep ? { runStep: (step: number, t0: number) => this.reported(runStep(step, t0)) } : {}),
    };
    return driveStages(this.s, machine, this.o.lockstep, this.acc, this.tl, this.ready, engine);
  }

  /** `end`, once the transfers done so far are reported (a lock-step step run outside runRange). */
  private reported(end: number): number {
    if (this.done >= this.nextProgress) this.nextProgress = this.tick(this.done);
    return end;
  }
}
