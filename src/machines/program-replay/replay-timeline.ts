/**
 * What a program replay's ranks did and when, recorded for the Gantt chart and the Chrome trace (simulate --program or
 * --library with --svg / --trace): per rank, each message from its post to its end, the CPU time of overheads and
 * copies, and the time spent waiting with nothing to do. Off by default: the engine calls it only when asked.
 */
import type { Timeline } from "../../model/timeline.js";
import { K, NONE, TimelineRecorder } from "../sim/timeline.js";

/**
 * The recorder a replay calls. Intervals of one rank may overlap (messages in flight together, a wait beside them):
 * the chart's lane view splits them into lanes, its raster view colours each cell by the kind that fills most of it.
 */
export class ReplayTimeline {
  private readonly rec: TimelineRecorder;
  /** When each operation was posted (NaN: not yet). */
  private readonly postAt: Float64Array;
  /** Since when each rank has waited with nothing to do (NaN: it is not waiting). */
  private readonly waitSince: Float64Array;
  /** When each rank's CPU job began. */
  private readonly cpuSince: Float64Array;

  constructor(p: number, ops: number) {
    this.rec = new TimelineRecorder(p, true);
    this.postAt = new Float64Array(ops).fill(NaN);
    this.waitSince = new Float64Array(p).fill(NaN);
    this.cpuSince = new Float64Array(p);
  }

  /** Operation x was posted at t. */
  posted(x: number, t: number): void {
    this.postAt[x] = t;
  }

  /** Rank r starts a CPU job at t (a copy, or a message's overhead). */
  cpuStart(r: number, t: number): void {
    this.cpuSince[r] = t;
  }

  /** Rank r's CPU job ends at t, the time the replay handles its end (events this close happen at once). */
  cpuEnd(r: number, copy: boolean, t: number, bytes: number): void {
    this.rec.add(r, copy ? K.copy : K.cpu, this.cpuSince[r]!, t, NONE, bytes, NONE);
  }

  /** Message x of rank r (a send or a receive, with peer) ended at t: from its post to t. */
  message(r: number, send: boolean, x: number, t: number, peer: number, bytes: number): void {
    this.rec.add(r, send ? K.send : K.recv, this.postAt[x]!, t, peer, bytes, NONE);
  }

  /** Rank r has nothing to do at t (a wait begins, unless one is under way). */
  idle(r: number, t: number): void {
    if (Number.isNaN(this.waitSince[r]!)) this.waitSince[r] = t;
  }

  /** Rank r acts at t: a wait under way ends. */
  busy(r: number, t: number): void {
    const since = this.waitSince[r]!;
    if (Number.isNaN(since)) return;
    this.rec.add(r, K.wait, since, t, NONE, 0, NONE);
    this.waitSince[r] = NaN;
  }

  /** The timeline; sizes are bytes. */
  build(): Timeline {
    return { ...this.rec.build(), sizeUnit: "bytes" };
  }
}
